"""Wall-clock times of a game recorded by a board that has no battery clock.

Why this exists: the board only knows the time when a PC has set its clock
since it last powered up. So every journal line carries "b" (the boot
counter) and "ms" (milliseconds since that boot), plus "t" (epoch seconds)
when the clock was set at the time. A sync tells the PC, for each recent
boot whose clock a PC set, the wall time at ms 0 of that boot
("clocks": {"<boot>": epoch_ms}). From these:

- a line in a boot whose clock is known gets an exact time, even if it was
  written before the sync that set the clock in that boot;
- a line with "t" gets that time, and anchors the other lines of its boot;
- within one boot, durations are known from "ms" even with no clock at all;
- a game with no anchor at all is dated by the fallback (the time it
  reached the PC), marked approximate, never invented.

Old logs (no "b"/"ms") keep working from "t" alone.

Every epoch here is the device's convention: the PC's local wall time
counted as if it were UTC (host.sync.local_epoch), so it formats unshifted.
This module is pure: no clock reads, no database.
"""

import datetime

# Plausible wall-clock seconds: a board that never had its clock set
# counts from 2000 or from boot, which must not pass for a date.
EPOCH_MIN = 1000000000   # 2001-09-09
EPOCH_MAX = 4102444800   # 2100-01-01


def plausible_epoch(value):
    """value as int seconds if it is a plausible wall-clock time, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if value != value:  # NaN
        return None
    if EPOCH_MIN <= value <= EPOCH_MAX:
        return int(value)
    return None


def _int(value):
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def clean_clocks(clocks):
    """{"<boot>": epoch_ms} as sent by a device -> {boot int: epoch seconds
    float}, dropping entries that are not whole numbers or not plausible."""
    out = {}
    if not isinstance(clocks, dict):
        return out
    for key, value in clocks.items():
        try:
            boot = int(key)
        except (TypeError, ValueError):
            continue
        v = _int(value)
        if v is None or plausible_epoch(v / 1000.0) is None:
            continue
        out[boot] = v / 1000.0
    return out


def format_epoch(epoch):
    """Device seconds -> 'YYYY-MM-DD HH:MM:SS' (no time zone shift: see the
    module docstring); None stays None."""
    if epoch is None:
        return None
    return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def duration_minutes(seconds):
    """Whole minutes of play, at least 1 for a known duration (BG Stats
    reads 0 as "no duration"); None when unknown."""
    if seconds is None:
        return None
    return max(1, int(round(seconds / 60.0)))


def game_times(lines, clocks=None, fallback=None):
    """Times of one game.

    lines: the decoded journal lines (header first), dicts.
    clocks: {boot: epoch seconds at ms 0} for the device (clean_clocks()).
    fallback: epoch seconds to date the game by when nothing anchors it
    (the time it reached the PC), or None.

    Returns {"start", "end": epoch seconds or None, "seconds": duration
    or None, "minutes": duration_minutes(), "approx": True when the dates
    come from the fallback rather than the game's own lines}."""
    clocks = dict(clocks or {})
    # Per line: (boot, ms) where known, and an exact time where known.
    marks = []
    for obj in lines:
        if not isinstance(obj, dict):
            continue
        boot, ms = _int(obj.get("b")), _int(obj.get("ms"))
        if boot is None or ms is None or ms < 0:
            boot = ms = None
        marks.append((boot, ms, plausible_epoch(obj.get("t"))))
    # A boot without a clock from the sync is anchored by a line's "t".
    for boot, ms, t in marks:
        if boot is not None and t is not None and boot not in clocks:
            clocks[boot] = t - ms / 1000.0
    exact = []
    for boot, ms, t in marks:
        if boot is not None and boot in clocks:
            exact.append(clocks[boot] + ms / 1000.0)
        elif t is not None:
            exact.append(float(t))
        else:
            exact.append(None)
    known = [e for e in exact if e is not None]
    boots = [b for b, _, _ in marks]
    every_line_timed = all(e is not None for e in exact) and len(exact) > 0
    if known:
        start, end = min(known), max(known)
        old_log = all(b is None for b in boots)
        if len(known) > 1 and (every_line_timed or old_log):
            seconds = end - start
        else:
            seconds = _within_boot(marks)
        return _result(start, end, seconds, False)
    seconds = _within_boot(marks)
    if fallback is None:
        return _result(None, None, seconds, True)
    end = float(fallback)
    start = end - seconds if seconds is not None else None
    return _result(start, end, seconds, True)


def _one_boot(boots):
    return len(boots) > 0 and None not in boots and len(set(boots)) == 1


def _within_boot(marks):
    """The game's length from "ms" when all its lines are in one boot;
    None when it spans boots (the time the board was off is unknown) or
    has no "ms" at all."""
    boots = [b for b, _, _ in marks]
    if not _one_boot(boots):
        return None
    ms = [m for _, m, _ in marks]
    return (max(ms) - min(ms)) / 1000.0


def _result(start, end, seconds, approx):
    return {"start": None if start is None else int(start), "end": None if end is None else int(end),
            "seconds": None if seconds is None else int(seconds), "minutes": duration_minutes(seconds),
            "approx": approx}
