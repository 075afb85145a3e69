"""Names (shared_rules/names.py, issue 22): one folding table for every
letter that both interpreters apply alike, one normal form (composed: a
lone combining accent is refused), no invisible characters, no special
spaces, no space at either end. Runs under CPython, the unix port and the
32-bit wasm port; the table's match with CPython's casefold() is checked
on CPython (test_table_is_cpythons_casefold)."""

import sys

from _support import raises
from shared_rules.names import fold, why_not


def test_fold_every_script_as_casefold_does():
    assert fold("Ann") == "ann"
    assert fold("\u00c9mile") == fold("\u00e9mile") == "\u00e9mile"
    assert fold("Stra\u00dfe") == fold("STRASSE") == "strasse"  # full folding: ß -> ss
    assert fold("\u1e9e") == "ss"  # capital sharp s
    assert fold("\u0410\u043d\u043d\u0430") == fold("\u0430\u041d\u041d\u0410")  # Анна, Cyrillic
    assert fold("\u0401\u0436") == "\u0451\u0436"  # Ёж
    assert fold("\u03a3\u03bf\u03c6\u03af\u03b1") == "\u03c3\u03bf\u03c6\u03af\u03b1"  # Σοφία
    assert fold("\u03c2") == "\u03c3"  # final sigma
    assert fold("\u0130") == "i\u0307"  # İ folds to i + dot above, as casefold has it
    assert fold("\u212a") == "k"  # the Kelvin sign
    assert fold("\u0178") == "\u00ff"  # Ÿ
    assert fold("\u0100\u0101\u0102") == "\u0101\u0101\u0103"  # Latin Extended-A's alternating pairs
    assert fold("\u1e00") == "\u1e01"  # Latin Extended Additional
    assert fold("\U00010400") == "\U00010428"  # Deseret: beyond the first plane
    assert fold("\u4e2d\u6587 1-2") == "\u4e2d\u6587 1-2"  # no case: unchanged


def test_one_normal_form_a_lone_combining_accent_is_refused():
    assert why_not("Zo\u00eb") is None  # composed
    raises(_check, "Zoe\u0308", match="combining accent (U+0308) on its own")
    raises(_check, "a\u20dd", match="U+20DD")


def test_invisible_characters_and_special_spaces_are_refused():
    for c in ("\u200b", "\u200c", "\u200d", "\u200e", "\u202e", "\u2060", "\ufeff", "\u00ad", "\ufe0f",
              "\U000e0041"):
        raises(_check, "An" + c + "n", match="invisible character (U+%04X)" % ord(c))
    for c in ("\u00a0", "\u202f", "\u2007", "\u3000"):
        raises(_check, "Ann" + c + "Lee", match="special space (U+%04X): use a plain space" % ord(c))
    raises(_check, " Ann", match="starts or ends with a space")
    raises(_check, "Ann ", match="starts or ends with a space")
    assert why_not("Ann Lee") is None and why_not("\U0001f600") is None


def _check(name):
    from shared_rules import RuleError

    why = why_not(name)
    if why is not None:
        raise RuleError(why)


def test_table_is_cpythons_casefold():
    """The stored table is what host/fold_gen.py derives from this
    CPython's unicodedata (when it is the Unicode version the table
    records), and fold() gives casefold() for every code point."""
    if sys.implementation.name != "cpython":
        return
    import unicodedata

    from shared_rules import fold_table

    if unicodedata.unidata_version != fold_table.UNICODE:
        raise AssertionError("the table is Unicode %s, this Python %s: run python -m moontable.fold_gen"
                             % (fold_table.UNICODE, unicodedata.unidata_version))
    from moontable import fold_gen

    from pathlib import Path
    assert Path(fold_gen.OUT).read_text() == fold_gen.source()
    bad = [cp for cp in range(sys.maxunicode + 1) if not 0xD800 <= cp < 0xE000
           and fold(chr(cp)) != chr(cp).casefold()]
    assert bad == [], [hex(cp) for cp in bad[:10]]


def test_seat_labels_are_p_and_a_number():
    from shared_rules.names import is_seat_label

    assert all(is_seat_label(n) for n in ("P1", "P6", "P8", "p3", "P12"))
    assert not any(is_seat_label(n) for n in ("P", "P0", "P01", "PA", "Pat", "P1x", "Q1", "P100", "", 7))
