"""config.toml: the defaults a person sets once instead of on every command.

    # ~/.config/moontable/config.toml on Linux (`moontable --help` prints
    # where it is on this computer; $MOONTABLE_CONFIG names another file)
    port = "/dev/ttyACM0"          # flash and sync, when --port is not given
    database = "~/games/club.db"   # every database command, when --db is not given

Read with tomllib. A command-line option always wins over the file. A
file that is not TOML, a setting we do not know (a typo would otherwise be
ignored in silence) or a value of the wrong type stops the command with
one line saying which file, which setting and what is wrong.
"""

import os
from pathlib import Path

from host.places import config_dir

# setting -> (the argparse dest it fills, what it is for the error message)
SETTINGS = {
    "port": ("port", "the serial port, as text (\"/dev/ttyACM0\", \"COM3\")"),
    "database": ("db", "a database file's path, as text"),
}


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
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise ConfigError("cannot read %s: %s" % (file, e.strerror or e))
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError("%s is not UTF-8 text" % file)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("%s is not valid TOML: %s" % (file, e))
    out = {}
    for key, value in table.items():
        if key not in SETTINGS:
            raise ConfigError("%s: unknown setting %r (known: %s)" % (file, key, ", ".join(sorted(SETTINGS))))
        if not isinstance(value, str) or not value.strip():
            raise ConfigError("%s: %s must be %s, not %r" % (file, key, SETTINGS[key][1], value))
        out[key] = os.path.expanduser(value) if key == "database" else value
    return out


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
