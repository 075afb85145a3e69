"""Settings: timer lengths for new games, sound, contrast and how long the
screen stays on with no button pressed. Saved atomically at once."""

from config import SETTING_RANGES
from ui.base import Menu
from ui.dialogs import NumberPick


# Each number setting's name, as the menu shows it and its picker's title
# says it, and the unit the picker shows beside the value.
NAMES = {"bid_seconds": ("Bid time", "s"), "play_seconds": ("Play time", "s"), "contrast": ("Contrast", ""),
         "screen_off": ("Screen off", "min")}


def _items(app):
    c = app.conf
    off = ("%dm" % c["screen_off"]) if c["screen_off"] else "never"
    return [
        ("%s %ds" % (NAMES["bid_seconds"][0], c["bid_seconds"]), "bid_seconds"),
        ("%s %ds" % (NAMES["play_seconds"][0], c["play_seconds"]), "play_seconds"),
        ("Sound %s" % ("on" if c["sound"] else "off"), "sound"),
        ("%s %d" % (NAMES["contrast"][0], c["contrast"]), "contrast"),
        ("%s %s" % (NAMES["screen_off"][0], off), "screen_off"),
    ]


def settings_menu(app):
    def changed(key, value):
        app.conf[key] = value
        app.save_settings()
        menu.items = _items(app)

    def choose(key):
        if key == "sound":
            changed("sound", not app.conf["sound"])
            return
        lo, hi = SETTING_RANGES[key]
        title, unit = NAMES[key]

        def done(v):
            changed(key, v)
            app.pop()

        app.push(NumberPick(app, title, lo, hi, app.conf[key], done, unit=unit))

    menu = Menu(app, "Settings", _items(app), choose)  # the closures above see it once assigned
    app.push(menu)
