"""What a player name on the device may be, in one place: the serial
protocol checks a roster pushed by a PC, the app checks the roster file it
finds on flash at boot.

The display's 8x8 font has printable ASCII only, and 10 characters fit the
menus; names are told apart without case (the menus would show "ann" and
"Ann" as the same player to anyone at the table)."""

from shared_rules.ticks import const

MAX_NAMES = 32   # roster size
_NAME_LEN = const(10)    # characters per name (the 8x8 font: 16 fit on a line)


def check_name(name):
    """None if `name` can go on the roster, else why not."""
    if not isinstance(name, str):
        return "a name must be text"
    if not name:
        return "a name cannot be empty"
    if len(name) > _NAME_LEN:
        return "%r is longer than %d characters" % (name, _NAME_LEN)
    for ch in name:
        o = ord(ch)
        if o < 32 or o > 126:
            return "%r has a character the display cannot show (U+%04X); use printable ASCII" % (name, o)
    if name[0] == " " or name[-1] == " ":
        return "%r starts or ends with a space" % name
    return None


def repeated(name, names):
    """True if `name` is already in `names`, ignoring case."""
    low = name.lower()
    for other in names:
        if other.lower() == low:
            return True
    return False


def check_roster(names):
    """None if `names` is a roster the device can use, else why not."""
    if not isinstance(names, list):
        return "the roster must be a list of names"
    if len(names) > MAX_NAMES:
        return "%d names; the device holds at most %d" % (len(names), MAX_NAMES)
    for k in range(len(names)):
        why = check_name(names[k])
        if why is None and repeated(names[k], names[:k]):
            why = "%r is on the roster twice" % names[k]
        if why is not None:
            return "name %d: %s" % (k, why)
    return None
