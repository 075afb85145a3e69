"""What the device is and how it is set: the firmware version, the seat
names a game gets when no roster is pushed, and the settings with their
defaults and ranges, in one place for the boot (which loads them), the
Settings screen (which offers the ranges) and the serial protocol (a PC
setting them is checked the same way). Loaded when settings are read or
changed, and for a PC's questions; a game at the table does not carry it."""

FIRMWARE_VERSION = "0.1.0"
DEFAULT_NAMES = ["P1", "P2", "P3", "P4", "P5", "P6"]

SETTING_RANGES = {
    "bid_seconds": (10, 600),
    "play_seconds": (10, 600),
    "contrast": (0, 255),
    "screen_off": (0, 120),  # minutes of no button before the screen sleeps; 0 = never
}


def default_settings():
    return {"bid_seconds": 60, "play_seconds": 60, "sound": True, "contrast": 255, "screen_off": 5}


def check_settings(s):
    """ValueError naming the first bad setting; the settings dict if sound."""
    for key in s:
        v = s[key]
        if key == "sound":
            if v not in (True, False):
                raise ValueError("sound must be true or false")
        elif key in SETTING_RANGES:
            lo, hi = SETTING_RANGES[key]
            if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
                raise ValueError("%s must be a whole number from %d to %d" % (key, lo, hi))
        else:
            raise ValueError("unknown setting %r" % (key,))
    return s
