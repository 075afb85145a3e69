"""The names the PC takes: players, devices, games. Each check says in
one sentence why a name is refused (DbError), so a command exits 2 with
it and never stores a name the device or the rules cannot use."""

from moontable.dberror import DbError
from moontable.terminal import printable
from shared_rules import display_name, game_names

# Device font: the SSD1306 framebuf font covers printable ASCII only, and the
# roster screen has room for 10 characters.
ROSTER_NAME_MAX = 10
# A device name (`import --device`, a board's id): what `show DEVICE/GAME`
# can name and a terminal prints as it is.
DEVICE_NAME_MAX = 64


def is_label(name):
    """A seat label the device gives a seat nobody named (P1, P2, ...):
    a place at one table, never a person (shared_rules.names)."""
    from shared_rules.names import is_seat_label

    return is_seat_label(name)


def check_player_name(name):
    """A name for `players add/rename`: 1-10 printable ASCII characters,
    so the device can show it (DbError otherwise)."""
    if not isinstance(name, str) or not name.strip():
        raise DbError("a player name cannot be empty")
    if name != name.strip():
        raise DbError("player name %r starts or ends with a space" % name)
    if len(name) > ROSTER_NAME_MAX:
        raise DbError("player name %r is %d characters; the device shows at most %d"
                      % (name, len(name), ROSTER_NAME_MAX))
    bad = [c for c in name if not (32 <= ord(c) < 127)]
    if bad:
        raise DbError("player name %r has %r, which the device font cannot show (printable ASCII only)"
                      % (name, bad[0]))
    if is_label(name):
        raise DbError("%s is a seat label the device gives a seat nobody named, not a person's name; "
                      "to say who sat there in one game: moontable players link GAME %s NAME" % (name, name))
    return name


def check_typed_name(name):
    """A name typed at the PC, composed as the rules want it (NFC: the
    board cannot compose, so it refuses a lone accent; the PC composes
    what a keyboard sent decomposed). DbError for what the rules refuse
    in a name (an invisible character, a special space, ...)."""
    import unicodedata

    from shared_rules.names import why_not

    name = unicodedata.normalize("NFC", name)
    why = why_not(name) if name else None
    if why is not None:
        raise DbError(why)
    return name


def check_device_name(name):
    """A device name given on the command line, checked; DbError saying
    why not. 1 to DEVICE_NAME_MAX printable characters, no "/" (games
    are named DEVICE/GAME_ID), no space at either end."""
    if not isinstance(name, str) or not name:
        raise DbError("the device name is empty: give one such as `--device paper` (or leave --device out)")
    if len(name) > DEVICE_NAME_MAX:
        raise DbError("the device name is %d characters long; at most %d" % (len(name), DEVICE_NAME_MAX))
    if not is_text(name):
        raise DbError("the device name %s is not valid text" % quoted(name))
    if not name.isprintable():
        raise DbError("the device name %s holds a control or invisible character; use letters, digits, - or _"
                      % quoted(name))
    if "/" in name:
        raise DbError("the device name %s holds a \"/\", which separates the device from the game in "
                      "DEVICE/GAME_ID; use letters, digits, - or _" % quoted(name))
    if name != name.strip():
        raise DbError("the device name %s starts or ends with a space" % quoted(name))
    return name


def quoted(name):
    return '"%s"' % printable(name)


def check_game_name(name):
    """A --game filter -> the game's id: the id or the box's name, any
    case ("Shoot the Moon" and "shoot-the-moon" both work); None passes.
    DbError naming the games for anything else."""
    if name is None:
        return None
    for gid in game_names():
        if name.casefold() in (gid, display_name(gid).casefold()):
            return gid
    raise DbError("unknown game %s (known: %s)" % (
        ascii(name) if not name.isprintable() else repr(name),
        ", ".join("%s (%s)" % (display_name(g), g) for g in game_names())))


def fits_device(name):
    try:
        check_player_name(name)
        return True
    except DbError:
        return False


def not_a_label(name, verb):
    if is_label(name):
        raise DbError("%s is a seat label shared by every game played without names, not a person: "
                      "cannot %s it; say who sat there in one game with: moontable players link GAME %s NAME"
                      % (printable(name), verb, printable(name)))


def fold_sql(name):
    from shared_rules.names import fold

    return None if name is None else fold(str(name))


def same_names(names):
    """The first group of seat names that differ only in case ("Ann",
    "ann", "ANN"), or None: by the rules core's fold (shared_rules.names),
    which refuses these itself, so replay and import agree."""
    from shared_rules.names import fold

    seen = {}
    for name in names:
        seen.setdefault(fold(str(name)), []).append(name)
    for group in seen.values():
        if len(group) > 1:
            return group
    return None


def is_text(value):
    """True for a str SQLite can store (no lone surrogates)."""
    try:
        str(value).encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False
