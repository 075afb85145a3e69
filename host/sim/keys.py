"""Terminal keys -> button levels for the simulator, as a pure function of
(key, timestamp) events: no clock is read here, so the same events always
give the same levels, in the live runner (real time) and in tests (explicit
times, or the headless board's virtual clock).

A terminal tells us only that a key *arrived*, never that it went down or
came up, and a held key arrives again and again (the terminal's key
repeat: after about 250-660 ms, then every 30-90 ms), which nothing tells
apart from fast taps: a person can tap 8-10 times a second, and a burst of
keys (typed while the machine was busy, or pasted) arrives all at once.
Guessing a hold from keys arriving close together lost taps at the table:
nine taps 120 ms apart read as one held key. So the simulator keeps the
promise that each tap is one press, and holds come only from keys that say
so:

- a **tap** (every key but the long ones) is one press: the button goes
  down for TAP_MS, then up. Taps of one button that come faster than it
  can go down and up are queued, each after GAP_MS up, so the firmware's
  debounce (20 ms, firmware/buttons.py) sees every one; a burst plays
  out at about nine presses a second, about as fast as a person taps, so
  a person's taps hardly wait. A held key's repeat is taps too, and what
  the terminal sent ahead still plays out after the key is let go;
- a **long** key (the capitals, `l`) holds its button for LONG_HOLD_MS
  (over the firmware's LONG_MS: a long press of OK or BACK, a hold of UP
  or DOWN that auto-repeats). A long key of the button arriving while that
  hold is still down continues it until HELD_TAIL_MS after the last one:
  a held capital's key repeat starts within LONG_HOLD_MS and comes faster
  than HELD_TAIL_MS, so holding a capital holds the button as long as the
  key is held.

TAP_MS and GAP_MS pace the presses as a person's: a level sent wakes the
board's idle wait, and a level counts once two reads at least 20 ms apart
have seen it, so each lasts over 20 ms plus a loop pass's own work. A board
that runs late loses none: it takes one level message a loop pass
(firmware/boards/sim.py, pump), and a release carries its tap bit, so a
press it saw too briefly to debounce still counts (run.py, send_mask).
"""

TAP_MS = 60  # a tap holds its button this long: over the firmware's debounce and a loop pass
GAP_MS = 50  # at least this long up between two presses of one button
LONG_HOLD_MS = 1000  # a long key holds its button this long (firmware LONG_MS is 700)
HELD_TAIL_MS = 140  # a held long key's press lasts this long past its last key (a key repeat comes faster)

BITS = {"up": 1, "down": 2, "ok": 4, "back": 8}  # the sim link's button mask bits


class KeyButtons:
    """Button levels from key events. Feed `key(button, long, t)` in time
    order (t in ms, any origin); `changes(now)` gives the level changes due
    by `now` as (t, mask) pairs, and `next_change()` says when the next one
    is due (so a loop knows how long it may sleep). A loop that asks late
    gets each press late but whole (see changes)."""

    def __init__(self):
        self.mask = 0  # the levels as of the last change handed out
        self.now = None  # the latest time seen (events and changes)
        self._released = {}  # button -> when it last went up
        self._presses = {name: [] for name in BITS}  # button -> [[down, up, long], ...], in order, not overlapping

    def key(self, button, long, t):
        """A key for `button` ("up", "down", "ok", "back") arrived at `t`;
        `long` for an explicit long press (a capital, `l`)."""
        if button not in BITS:
            raise ValueError("unknown button %r (use %s)" % (button, ", ".join(BITS)))
        if self.now is not None and t < self.now:
            t = self.now  # a late timestamp counts as now: time never runs back
        self.now = t
        presses = self._presses[button]
        last = presses[-1] if presses else None
        if long and last is not None and last[2] and t <= last[1]:
            # the key repeat of a held capital: its hold goes on
            last[1] = max(last[1], t + HELD_TAIL_MS)
            return
        before = last[1] if last is not None else self._released.get(button)
        down = t if before is None else max(t, before + GAP_MS)
        presses.append([down, down + (LONG_HOLD_MS if long else TAP_MS), bool(long)])

    def _next(self):
        """(time, button) of the earliest pending level change, or None."""
        best = None
        for button, presses in self._presses.items():
            if not presses:
                continue
            down, up, _long = presses[0]
            when = up if self.mask & BITS[button] else down
            if best is None or when < best[0]:
                best = (when, button)
        return best

    def next_change(self):
        """When the next level change is due (ms), or None if none is."""
        nxt = self._next()
        return None if nxt is None else nxt[0]

    def changes(self, now):
        """The level changes due by `now`, in time order, as (t, mask).

        A change handed out after its time (the caller's loop was late)
        happens now, and what follows it on that button moves on by as
        much: a press keeps its whole length and the gap before the next
        press stays whole, so one call never gives a press and its release
        (or a release and the next press) of one button together, which the
        firmware could not see."""
        if self.now is None or now > self.now:
            self.now = now
        out = []
        while True:
            nxt = self._next()
            if nxt is None or nxt[0] > now:
                return out
            when, button = nxt
            bit = BITS[button]
            presses = self._presses[button]
            if self.mask & bit:
                self.mask &= ~bit
                presses.pop(0)
                self._released[button] = now
                if presses:
                    self._push(presses, 0, now + GAP_MS - presses[0][0])
            else:
                self.mask |= bit
                self._push(presses, 0, now - when)
            out.append((now, self.mask))

    @staticmethod
    def _push(presses, first, shift):
        """Move presses[first] on by `shift` ms (if positive), and the ones
        queued after it as far as their gaps need."""
        for i in range(first, len(presses)):
            if shift <= 0:
                return
            presses[i][0] += shift
            presses[i][1] += shift
            if i + 1 < len(presses):
                shift = presses[i][1] + GAP_MS - presses[i + 1][0]


def timeline(events, until=None):
    """Every level change for a list of (button, long, t) events, as
    (t, mask) pairs, each handed out at its time, up to `until` (default:
    until every button is up)."""
    keys = KeyButtons()
    out = []

    def due_by(t):
        while True:
            nxt = keys.next_change()
            if nxt is None or (t is not None and nxt > t):
                return
            out.extend(keys.changes(nxt))

    for button, long, t in events:
        due_by(t)
        keys.key(button, long, t)
    due_by(until)
    return out
