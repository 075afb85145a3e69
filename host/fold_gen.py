"""Writes shared_rules/fold_table.py: the case folding of every letter, as
CPython's str.casefold() has it, stored as data.

Why: names are told apart without case on the board (MicroPython, whose
str.lower() knows only A-Z) and on the PC (CPython) alike, so both must
fold with one table, not with their own str methods. The table is derived
here, once, from the unicodedata of the CPython that runs this script
(its Unicode version is recorded in the table), and
tests/rules/test_names_fold.py checks that it still matches.

    python -m moontable.fold_gen      (rewrites shared_rules/fold_table.py)
"""

import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "shared_rules" / "fold_table.py"


def folds():
    """([(first code point, count, step, delta)], [(code point, folded text)]):
    runs of letters that fold to one letter at a fixed distance (every
    `step`-th code point from `first`, `count` of them, each + delta), and
    the letters that fold to more than one ("ß" -> "ss")."""
    runs, multi = [], []
    for cp in range(0x80, sys.maxunicode + 1):  # ASCII is folded by hand
        c = chr(cp)
        f = c.casefold()
        if f == c:
            continue
        if len(f) > 1:
            multi.append((cp, f))
            continue
        d = ord(f) - cp
        if runs:
            first, n, step, delta = runs[-1]
            if delta == d and ((n == 1 and cp - first in (1, 2)) or (n > 1 and cp == first + n * step)):
                runs[-1] = (first, n + 1, cp - first if n == 1 else step, delta)
                continue
        runs.append((cp, 1, 1, d))
    return runs, multi


def pack(runs):
    """Runs as bytes, 8 a run: first (3 bytes), count, step (1 each), and
    delta + 2**23 (3 bytes), big-endian: compact on the board, and bytes
    index in constant time under MicroPython (a str with non-ASCII text
    does not)."""
    out = bytearray()
    for first, n, step, delta in runs:
        assert n < 256 and step < 256 and -(1 << 23) <= delta < (1 << 23)
        out += first.to_bytes(3, "big") + bytes([n, step]) + (delta + (1 << 23)).to_bytes(3, "big")
    return bytes(out)


def source():
    runs, multi = folds()
    lines = ['"""Case folding of every letter beyond ASCII, as CPython\'s str.casefold()',
             "has it (Unicode %s): written by host/fold_gen.py, never by hand." % unicodedata.unidata_version,
             "Read by shared_rules/names.py; see there for why it is data.\"\"\"",
             "",
             "UNICODE = %r" % unicodedata.unidata_version,
             "# %d runs of 8 bytes (host/fold_gen.py's pack())" % len(runs)]
    data = pack(runs)
    lines.append("RUNS = (")
    for i in range(0, len(data), 48):
        lines.append("    %r" % data[i:i + 48])
    lines.append(")")
    lines.append("# letters that fold to more than one: MULTI_KEYS[i] -> MULTI[i]")
    lines.append("MULTI_KEYS = %s" % ascii("".join(chr(cp) for cp, _ in multi)))
    lines.append("MULTI = (")
    for i in range(0, len(multi), 8):
        lines.append("    " + " ".join("%s," % ascii(f) for _, f in multi[i:i + 8]))
    lines.append(")")
    return "\n".join(lines) + "\n"


def main():
    OUT.write_text(source())
    print("wrote %s" % OUT.relative_to(ROOT))


if __name__ == "__main__":
    main()
