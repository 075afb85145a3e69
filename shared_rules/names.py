"""Player names: which text may be one, and when two are the same name.

Both run alike on the board (MicroPython) and on the PC (CPython), so a
name the device accepts is one the PC accepts, and "Émile" and "émile"
are one player on both:

- fold(name): the name without case, for every letter, by one table
  (shared_rules/fold_table.py, CPython's str.casefold() stored as data
  by host/fold_gen.py). MicroPython's str.lower() knows only A-Z, and
  CPython's str methods follow its own Unicode version, so neither
  interpreter's own methods are used.
- why_not(name): None for a name, else why not. Names are kept in one
  normal form, the composed one (NFC, what keyboards type): a combining
  accent (U+0300-U+036F and the other combining-mark blocks) is refused,
  so a decomposed "Zoë" (o + U+0308) is never a second "Zoë". The board
  has no unicodedata to compose with, and a composition table for every
  script would not fit its heap; so the rules refuse and the PC composes
  (unicodedata.normalize) what a person types at the PC. Invisible
  characters (zero-width, direction marks, soft hyphen, variation
  selectors, byte-order mark, ...), every space but U+0020 (no-break
  spaces included) and a space at either end are refused too: two names
  that look the same must be the same name.
"""

from shared_rules.ticks import const


def fold(name):
    """`name` without case: "Straße" and "STRASSE" give "strasse",
    "Émile" and "émile" give "émile"."""
    out = []
    table = None
    for c in name:
        o = ord(c)
        if o < 128:
            out.append(chr(o + 32) if 64 < o < 91 else c)
            continue
        if table is None:  # loaded for a name beyond ASCII only: most are not
            from shared_rules import fold_table as table
        MULTI_KEYS, MULTI, RUNS = table.MULTI_KEYS, table.MULTI, table.RUNS
        k = MULTI_KEYS.find(c)
        if k >= 0:
            out.append(MULTI[k])
            continue
        out.append(chr(o + _delta(RUNS, o)))
    return "".join(out)


def _delta(runs, o):
    """How far code point o folds (0: it does not): binary search of the
    8-byte runs (first, count, step, delta + 2**23) for the last run
    starting at or before o."""
    lo, hi = 0, len(runs) // 8 - 1
    found = -1
    while lo <= hi:
        mid = (lo + hi) // 2
        i = mid * 8
        first = (runs[i] << 16) | (runs[i + 1] << 8) | runs[i + 2]
        if first <= o:
            found = i
            lo = mid + 1
        else:
            hi = mid - 1
    if found < 0:
        return 0
    i = found
    first = (runs[i] << 16) | (runs[i + 1] << 8) | runs[i + 2]
    n, step = runs[i + 3], runs[i + 4]
    off = o - first
    if off % step or off // step >= n:
        return 0
    return ((runs[i + 5] << 16) | (runs[i + 6] << 8) | runs[i + 7]) - (1 << 23)


# Code point ranges (first, last) of characters a name may not hold, with
# the words that say what they are.
_COMBINING = const((0x300, 0x36F, 0x1AB0, 0x1AFF, 0x1DC0, 0x1DFF, 0x20D0, 0x20FF, 0xFE20, 0xFE2F))
_INVISIBLE = const((0xAD, 0xAD, 0x61C, 0x61C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180F,
                    0x200B, 0x200F, 0x202A, 0x202E, 0x2060, 0x206F, 0x3164, 0x3164, 0xFE00, 0xFE0F,
                    0xFEFF, 0xFEFF, 0xFFA0, 0xFFA0, 0xFFF0, 0xFFFB, 0x1BCA0, 0x1BCA3, 0x1D173, 0x1D17A,
                    0xE0000, 0xE0FFF))
_SPACES = const((0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A, 0x2028, 0x2029, 0x202F, 0x202F,
                 0x205F, 0x205F, 0x3000, 0x3000))


def _within(table, o):
    for i in range(0, len(table), 2):
        if table[i] <= o <= table[i + 1]:
            return True
    return False


def why_not(name):
    """None if `name` (text) may be a player's name, else why not, in
    words that name the character (the NAME_MAX length is the caller's)."""
    if name[:1] == " " or name[-1:] == " ":
        return "player name \"%s\" starts or ends with a space" % name
    for c in name:
        o = ord(c)
        if o < 32 or 127 <= o < 160:
            return "player name %r holds a control character (code %d)" % (name, o)
        if o < 0xA0:
            continue
        if 0xD7FF < o < 0xE000:
            return ("a player name holds a lone surrogate (code %x): half of a character"
                    " left by a broken encoding, not text" % o)
        if _within(_COMBINING, o):
            return ("player name %r holds a combining accent (U+%04X) on its own: write each accented"
                    " letter as one character (composed, NFC, as a keyboard types it)" % (name, o))
        if _within(_INVISIBLE, o):
            return "player name %r holds an invisible character (U+%04X)" % (name, o)
        if _within(_SPACES, o):
            return ("player name %r holds a no-break or other special space (U+%04X):"
                    " use a plain space" % (name, o))
    return None


def is_seat_label(name):
    """True for the label the device gives a seat nobody named: "P" and a
    number from 1 (P1, P2, ... as firmware/ui/menus/newgame.py makes them).
    A label is a place at one table, never a person: the PC never maps it
    to a player, and BG Stats gets it as a guest of that one play."""
    if type(name) is not str or len(name) < 2 or len(name) > 3 or name[0] not in "Pp" or name[1] == "0":
        return False
    for c in name[1:]:
        if not "0" <= c <= "9":
            return False
    return True
