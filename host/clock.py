"""The PC's clock as the database writes and reads it: its own wall time
stamped on what it stores, and a device's seconds checked and shown.
Every epoch is the device's convention (local wall time counted as if it
were UTC: moontable.sync.local_epoch)."""

import datetime
import time

from moontable import times as timesmod


def now_text():
    """The PC's local time now, as the database stores it."""
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")


def epoch(value):
    """A device timestamp (local wall-clock seconds since 1970, set by the
    PC's clock push) or None when the value is not a plausible wall-clock
    time (a device whose clock was never set counts from 2000 or from boot)."""
    return timesmod.plausible_epoch(value)


def format_time(epoch):
    """Device seconds -> 'YYYY-MM-DD HH:MM:SS'. The device has no time
    zones: sync sets its clock to the PC's local wall time counted as if it
    were UTC (moontable.sync.local_epoch), so the stamp reads back unshifted."""
    return timesmod.format_epoch(epoch)


def pc_utc_offset(now=None):
    """This PC's UTC offset in seconds east (local = UTC + offset), as the
    device's clock takes it (moontable.sync.local_epoch counts local as UTC)."""
    import calendar

    if now is None:
        now = time.time()
    return calendar.timegm(time.localtime(int(now))) - int(now)


def parse_now_text(text):
    """A now_text() text back to device-convention epoch seconds (local wall
    time counted as UTC), the fallback date of a game with no clock."""
    try:
        d = datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
    except (TypeError, ValueError):
        return None
    return int(d.replace(tzinfo=datetime.timezone.utc).timestamp())
