"""config.toml: the defaults a person sets once instead of on every command.

    # ~/.config/moontable/config.toml on Linux (`moontable --help` prints
    # where it is on this computer; $MOONTABLE_CONFIG names another file)
    port = "/dev/ttyACM0"          # flash and sync, when --port is not given
    database = "~/games/club.db"   # every database command, when --db is not given
    location = "Club room"         # where games are played: report and export,
                                   # for a game whose log names no place (--location)

Read with tomllib. A command-line option always wins over the file. A
file that is not TOML, a setting we do not know (a typo would otherwise be
ignored in silence) or a value of the wrong type stops the command with
one line saying which file, which setting and what is wrong.
"""

import os
import stat
from pathlib import Path

from moontable.dbfiles import not_a_regular_file
from moontable.places import config_dir

# setting -> (the argparse dest it fills, what it is for the error message)
SETTINGS = {
    "port": ("port", "the serial port, as text (\"/dev/ttyACM0\", \"COM3\")"),
    "database": ("db", "a database file's path, as text"),
    "location": ("location", "where the games are played, as one line of text (\"Club room\")"),
}
# What `moontable --help` shows for each setting.
SHOWN = {"port": "\"/dev/ttyACM0\"", "database": "\"~/games.db\"", "location": "\"Club room\""}
CONFIG_MAX = 64 << 10  # bytes: a config holds a few short settings; more is not one (/dev/zero never ends)
LOCATION_MAX = 100  # characters: a place's name, short enough for every BG Stats link to keep its QR code


class ConfigError(Exception):
    """config.toml cannot be used; the message names the file and the problem."""


def path():
    """The config file: $MOONTABLE_CONFIG, else config.toml in the user's
    config folder (platformdirs)."""
    named = os.environ.get("MOONTABLE_CONFIG")
    return Path(named) if named else config_dir() / "config.toml"


def load(file=None):
    """{setting: value} from the config file; {} when there is none."""
    import tomllib

    file = Path(file) if file is not None else path()
    data = _read(file)
    if data is None:
        return {}
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError("%s is not UTF-8 text" % file)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("%s is not valid TOML: %s" % (file, e))
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise ConfigError("%s nests its values too deeply to be a config file" % file)
    out = {}
    for key, value in table.items():
        if key not in SETTINGS:
            raise ConfigError("%s: unknown setting %r (known: %s)" % (file, key, ", ".join(sorted(SETTINGS))))
        if not isinstance(value, str) or not value.strip():
            raise ConfigError("%s: %s must be %s, not %r" % (file, key, SETTINGS[key][1], value))
        if key == "location":
            value = check_location(value, "%s: location" % file)
        out[key] = os.path.expanduser(value) if key == "database" else value
    return out


def _read(file):
    """The config file's bytes, None when there is none. Opened without
    blocking (a named pipe would wait for a writer for good) and read
    only when it is a regular file (/dev/zero never ends), at most
    CONFIG_MAX bytes of it: ConfigError saying which it is otherwise."""
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        return None
    except OSError as e:
        if os.path.isdir(file):  # Windows opens no folder
            raise ConfigError("%s is a folder, not a file of settings" % file)
        raise ConfigError("cannot read %s: %s" % (file, e.strerror or e))
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        what = "a folder" if stat.S_ISDIR(mode) else not_a_regular_file(file) or "not a regular file"
        raise ConfigError("%s is %s, not a file of settings" % (file, what))
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read(CONFIG_MAX + 1)
        except OSError as e:
            raise ConfigError("cannot read %s: %s" % (file, e.strerror or e))
    if len(data) > CONFIG_MAX:
        raise ConfigError("%s is larger than %d KB; a config file holds a few settings" % (file, CONFIG_MAX >> 10))
    return data


def check_location(value, where):
    """A place's name as given (config.toml's location, --location),
    trimmed and composed (NFC); ConfigError naming `where` when it is
    empty, has a line break or another control character (it is shown
    on one line of a table and sent in a link), holds what a player's
    name may not (a direction override, a zero-width or special space:
    text that shows other than it reads; names.check_typed_name), or is
    longer than LOCATION_MAX."""
    from moontable.dberror import DbError
    from moontable.names import check_typed_name

    text = value.strip()
    if not text:
        raise ConfigError("%s must be %s, not an empty text" % (where, SETTINGS["location"][1]))
    bad = next((c for c in text if ord(c) < 32 or 127 <= ord(c) < 160), None)
    if bad is not None:
        raise ConfigError("%s must be %s: %r holds the control character %r" % (
            where, SETTINGS["location"][1], value, bad))
    try:
        text = check_typed_name(text)
    except DbError as e:
        raise ConfigError("%s is refused as a player's name would be: %s" % (where, e)) from None
    if len(text) > LOCATION_MAX:
        raise ConfigError("%s is %d characters long; a place's name may have %d at most" % (
            where, len(text), LOCATION_MAX))
    return text


def location_option(text):
    """argparse's type for --location: the place, checked as config.toml's is."""
    import argparse

    try:
        return check_location(text, "--location")
    except ConfigError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def help_text():
    """The config file's part of `moontable --help`: where it is and what
    it may set."""
    keys = ", ".join("%s = %s" % (key, SHOWN[key]) for key in SETTINGS)
    return ("Defaults can be set in %s (TOML; %s). Port is for flash and sync, database for every "
            "database command, location (where games are played) for report and export when a game's log "
            "names no place; an option on the command line wins. $MOONTABLE_CONFIG names another file."
            % (path(), keys))


def apply(args, settings):
    """Fill the options the command has and the person left out from the
    config's settings; returns the names of the settings used."""
    used = []
    for key, value in settings.items():
        dest = SETTINGS[key][0]
        if hasattr(args, dest) and getattr(args, dest) is None:
            setattr(args, dest, value)
            used.append(key)
    return used
