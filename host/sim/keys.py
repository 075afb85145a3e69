"""Terminal keys -> button levels for the simulator, as a pure function of
(key, timestamp) events: no clock is read here, so the same events always
give the same levels, in the live runner (real time) and in tests (explicit
times, or the headless board's virtual clock).

A terminal tells us only that a key *arrived*, never that it went down or
came up. Holding a key makes the terminal send it again and again: first
after its repeat delay (about 250-660 ms, by desktop and settings), then
every 30-90 ms. A person tapping a key, even quickly, leaves well over
REPEAT_GAP_MS between taps. So:

- a key arriving more than REPEAT_GAP_MS after the previous one of the same
  button is a **tap**: the button goes down for TAP_MS, then up. Taps that
  come faster than the button can go down and up again are queued, with
  GAP_MS up between them, so the firmware's debounce sees every one;
- a key arriving within REPEAT_GAP_MS of the previous one of the same
  button is the terminal's **key repeat**: the button stays down, and goes
  up REPEAT_GAP_MS after the stream's last key. The firmware's buttons
  module sees it held: UP/DOWN repeat and speed up, OK/BACK make a long
  press after its LONG_MS.
- a **long** key (the capitals, `l`) holds its button at least LONG_HOLD_MS
  (longer than the firmware's LONG_MS), for a long press without key
  repeat; keys of that button arriving while it is down continue it (a
  held capital's repeat starts within LONG_HOLD_MS).

What a terminal cannot tell us: the first key of a held one is sent at
once, before the repeat delay, and looks exactly like a tap until the
stream starts. So holding a key gives one tap first, then the hold. Waiting
out the repeat delay before every tap would make every key feel slow, and
the repeat delay (up to 660 ms) is too close to the firmware's long press
(700 ms) to hold the button through it instead; the capitals give a clean
long press.

TAP_MS >= REPEAT_GAP_MS is what lets a stream extend the press its first
key started: that press is still down when the next key of the stream
arrives.
"""

TAP_MS = 150  # a tap holds its button this long: over the firmware's debounce and a few loop passes
GAP_MS = 60  # at least this long up between two queued taps of one button
REPEAT_GAP_MS = 140  # keys of one button closer than this are the terminal's key repeat
LONG_HOLD_MS = 1000  # a long key holds its button this long (firmware LONG_MS is 700)

BITS = {"up": 1, "down": 2, "ok": 4, "back": 8}  # the sim link's button mask bits

assert TAP_MS > REPEAT_GAP_MS


class KeyButtons:
    """Button levels from key events. Feed `key(button, long, t)` in time
    order (t in ms, any origin); `changes(now)` gives the level changes due
    by `now` as (t, mask) pairs, and `next_change()` says when the next one
    is due (so a loop knows how long it may sleep). A loop that asks late
    gets each press late but whole (see changes)."""

    def __init__(self):
        self.mask = 0  # the levels as of the last change handed out
        self.now = None  # the latest time seen (events and changes)
        self._last_key = {}  # button -> arrival time of its last key
        self._released = {}  # button -> when it last went up
        self._presses = {name: [] for name in BITS}  # button -> [[down, up, long], ...], in order, not overlapping

    def key(self, button, long, t):
        """A key for `button` ("up", "down", "ok", "back") arrived at `t`;
        `long` for an explicit long press."""
        if button not in BITS:
            raise ValueError("unknown button %r (use %s)" % (button, ", ".join(BITS)))
        if self.now is not None and t < self.now:
            t = self.now  # a late timestamp counts as now: time never runs back
        self.now = t
        presses = self._presses[button]
        last = self._last_key.get(button)
        self._last_key[button] = t
        repeat = last is not None and t - last <= REPEAT_GAP_MS
        held_long = presses and presses[-1][2] and t < presses[-1][1]
        if presses and (repeat or held_long):
            # Key repeat, or a key while a long press is down (the repeat
            # of a held capital starts within its LONG_HOLD_MS): the press
            # the earlier key started is still down (TAP_MS >
            # REPEAT_GAP_MS) or queued; keep it down.
            press = presses[-1]
            up = t + REPEAT_GAP_MS
            if long:
                up = max(up, press[0] + LONG_HOLD_MS)
                press[2] = True
            press[1] = max(press[1], up)
            return
        before = presses[-1][1] if presses else self._released.get(button)
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
