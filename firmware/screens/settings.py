"""Settings: timer lengths for new games, sound, contrast and how long the
screen stays on with no button pressed. Saved atomically at once."""

from screens.base import Menu
from screens.dialogs import NumberPick


def _items(app):
    c = app.conf
    off = ("%dm" % c["screen_off"]) if c["screen_off"] else "never"
    return [
        ("Bid time %ds" % c["bid_seconds"], "bid_seconds"),
        ("Play time %ds" % c["play_seconds"], "play_seconds"),
        ("Sound %s" % ("on" if c["sound"] else "off"), "sound"),
        ("Contrast %d" % c["contrast"], "contrast"),
        ("Screen off " + off, "screen_off"),
    ]


def settings_menu(app):
    from device_settings import SETTING_RANGES

    def changed(key, value):
        app.conf[key] = value
        app.save_settings()
        menu.items = _items(app)

    def choose(key):
        if key == "sound":
            changed("sound", not app.conf["sound"])
            return
        lo, hi = SETTING_RANGES[key]
        unit = {"bid_seconds": "s", "play_seconds": "s", "screen_off": "min"}.get(key, "")

        def done(v):
            changed(key, v)
            app.pop()

        app.push(NumberPick(app, key.replace("_", " "), lo, hi, app.conf[key], done, unit=unit))

    menu = Menu(app, "Settings", _items(app), choose)  # the closures above see it once assigned
    app.push(menu)
