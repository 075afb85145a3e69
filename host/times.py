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
counted as if it were UTC (moontable.sync.local_epoch), so it formats unshifted.
This module is pure: no clock reads, no database. It also runs in the web
page's MicroPython (host/bgstats.py dates the page's games with it), so its
arithmetic is in whole milliseconds: a 32-bit port's floats cannot hold an
epoch.
"""

from shared_rules.boots import boot_key, plain_boot

# Plausible wall-clock seconds: a board that never had its clock set
# counts from 2000 or from boot, which must not pass for a date.
# The documented range is 2001 to 2099: EPOCH_END, the first second of
# 2100, is out (it once was in, and a board's clock set to 2100 dated games).
EPOCH_MIN = 1000000000   # 2001-09-09
EPOCH_END = 4102444800   # 2100-01-01 00:00:00
# "ms" counts from power-up: a board that ran a year without a reset is
# past anything plausible, and a bigger count is not a time at all (10**20
# once made every date command fail). "b" is a boot counter in a 32-bit int.
MS_MAX = 366 * 86400 * 1000
BOOT_MAX = (1 << 31) - 1
# A game's length: beyond a week it is impossible (a clock that jumped),
# so no length is claimed; beyond a day it is doubtful, so the dates are
# marked approximate.
GAME_MAX_S = 7 * 86400
GAME_DOUBT_S = 86400


def plausible_epoch(value):
    """value as int seconds if it is a plausible wall-clock time, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if value != value:  # NaN
        return None
    if EPOCH_MIN <= value < EPOCH_END:
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
        boot = key if plain_boot(key) else boot_key(key)  # plain digits, bounded: never " 2" or 10**30
        if boot < 0:
            continue
        v = _int(value)
        if v is None or plausible_epoch(v / 1000.0) is None:
            continue
        out[boot] = v / 1000.0
    return out


def format_epoch(epoch):
    """Device seconds -> 'YYYY-MM-DD HH:MM:SS' (no time zone shift: see the
    module docstring); None stays None, and so does a value outside years
    1970-9999 (a record stored before times were checked must not stop a
    listing of every game)."""
    if epoch is None or isinstance(epoch, bool) or not isinstance(epoch, (int, float)) or epoch != epoch:
        return None
    if not 0 <= epoch < 253402300800:  # 10000-01-01
        return None
    import datetime

    return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def doubts(lines):
    """What is wrong with a journal's time fields, in words, one a line
    (line numbers from 1, the header first): a "b", "ms" or "t" of the
    wrong kind or out of range, and "ms" going back within one boot. These
    fields are ignored by game_times(), which marks such a game's dates
    approximate; the import says so with these words."""
    out = []
    last = {}
    n = 0
    for obj in lines:
        n += 1
        if not isinstance(obj, dict):
            continue
        b, ms, t = obj.get("b"), obj.get("ms"), obj.get("t")
        if b is not None and (_int(b) is None or not 0 <= b <= BOOT_MAX):
            out.append("line %d: \"b\" %s is not a boot number (0 to %d)" % (n, _short(b), BOOT_MAX))
            b = None
        if ms is not None and (_int(ms) is None or not 0 <= ms <= MS_MAX):
            out.append("line %d: \"ms\" %s is not a time since power-up (0 to %d ms, a year)"
                       % (n, _short(ms), MS_MAX))
            ms = None
        if t is not None and plausible_epoch(t) is None:
            out.append("line %d: \"t\" %s is not a date from 2001 to 2099 (epoch seconds)" % (n, _short(t)))
        if b is not None and ms is not None:
            if b in last and ms < last[b]:
                out.append("line %d: \"ms\" goes back within boot %d (from %d to %d)" % (n, b, last[b], ms))
            last[b] = ms
    return out


def _short(value):
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


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
    # epoch ms at ms 0 of each boot whose clock is known
    anchor = {}
    for boot in clocks or {}:
        anchor[boot] = int(round(clocks[boot] * 1000))
    # Per line: (boot, ms) where known, and an exact time where known.
    marks = []
    doubtful = False
    last = {}
    for obj in lines:
        if not isinstance(obj, dict):
            continue
        boot, ms = _int(obj.get("b")), _int(obj.get("ms"))
        if boot is None or ms is None or not 0 <= ms <= MS_MAX or not 0 <= boot <= BOOT_MAX:
            doubtful = doubtful or obj.get("ms") is not None or obj.get("b") is not None
            boot = ms = None
        elif boot in last and ms < last[boot]:
            doubtful = True  # a count from power-up never runs back: this boot's times are not trusted
        if boot is not None:
            last[boot] = ms
        t = obj.get("t")
        doubtful = doubtful or (t is not None and plausible_epoch(t) is None)
        marks.append((boot, ms, plausible_epoch(t)))
    if doubtful:
        # A line that runs back or a field out of range: its boot's count
        # cannot be trusted, so only the lines' own "t" date the game.
        marks = [(None, None, t) for _, _, t in marks]
    # A boot without a clock from the sync is anchored by a line's "t".
    for boot, ms, t in marks:
        if boot is not None and t is not None and boot not in anchor:
            anchor[boot] = t * 1000 - ms
    exact = []
    for boot, ms, t in marks:
        if boot is not None and boot in anchor:
            exact.append(anchor[boot] + ms)
        elif t is not None:
            exact.append(t * 1000)
        else:
            exact.append(None)
    known = [e for e in exact if e is not None]
    boots = [b for b, _, _ in marks]
    every_line_timed = len(exact) > 0 and None not in exact
    if known:
        start, end = min(known), max(known)
        old_log = all(b is None for b in boots)
        if len(known) > 1 and (every_line_timed or old_log):
            span = end - start
        else:
            span = _within_boot(marks)
        # Approximate: a field was out of range or ran back; or the header
        # is not dated (a game resumed after a restart started before its
        # first dated line); or a line of a power-up no PC dated (the
        # game went on, or began, at a time nobody knows).
        approx = doubtful or exact[0] is None or (not old_log and not every_line_timed)
        if exact[0] is not None:
            start = exact[0]  # the header's time: when the game began
        return _checked(start, end, span, approx)
    span = _within_boot(marks)
    if fallback is None:
        return _checked(None, None, span, True)
    end = int(round(float(fallback) * 1000))
    start = end - span if span is not None else None
    return _checked(start, end, span, True)


def approx_why(start, end, fallback=None):
    """Why a game's dates are approximate, from the start and end that
    game_times() gave it with `fallback` (what the database keeps; the
    lines they came from are not read again for a listing):

    - "unset": nothing the board wrote dates it (its clock was not set, or
      its time fields were refused), so its end is the fallback, the time
      it reached the PC, or it has none;
    - "long": by the board's clock it lasted over a day (GAME_DOUBT_S: a
      clock that jumped);
    - "part": the board's clock dated only part of it (a power-up whose
      clock nobody set, or a time field refused beside others that date
      it); its end is its last dated moment.

    A dated game that ended the very second it reached the PC reads as
    "unset", and its date is that second either way."""
    if end is None or (fallback is not None and end == int(fallback)):
        return "unset"
    if start is not None and end - start > GAME_DOUBT_S:
        return "long"
    return "part"


def _checked(start, end, span, approx):
    """_result, refusing an impossible length (over GAME_MAX_S: a clock
    that jumped) and marking a doubtful one (over GAME_DOUBT_S) approximate."""
    if span is not None and span > GAME_MAX_S * 1000:
        span = None
        approx = True
    elif span is not None and span > GAME_DOUBT_S * 1000:
        approx = True
    return _result(start, end, span, approx)


def _one_boot(boots):
    return len(boots) > 0 and None not in boots and len(set(boots)) == 1


def _within_boot(marks):
    """The game's length in ms from "ms" when all its lines are in one
    boot; None when it spans boots (the time the board was off is
    unknown) or has no "ms" at all."""
    boots = [b for b, _, _ in marks]
    if not _one_boot(boots):
        return None
    ms = [m for _, m, _ in marks]
    return max(ms) - min(ms)


def _result(start_ms, end_ms, span_ms, approx):
    return {"start": None if start_ms is None else start_ms // 1000,
            "end": None if end_ms is None else end_ms // 1000,
            "seconds": None if span_ms is None else span_ms // 1000,
            "minutes": None if span_ms is None else duration_minutes(span_ms / 1000.0),
            "approx": approx}
