"""Button logic as pure functions of pin level and time: debounce, short
press, long press and auto-repeat that speeds up while a button is held.

Nothing here touches hardware or reads a clock. The caller samples the
pressed-mask (bit 0 UP, 1 DOWN, 2 OK, 3 BACK) and the current tick each pass
of its loop and calls `update(mask, now)`, which returns the events of that
pass. That is why the same code is tested on CPython, under MicroPython and
in the simulator, and behaves the same on a board.

Three kinds of button:
  - repeat buttons (UP, DOWN): PRESS as soon as the press is debounced,
    then, while held, REPEAT events after REPEAT_DELAY_MS, faster and
    faster down to REPEAT_MIN_MS apart: hold-to-accelerate for bid entry.
  - long buttons (in `long_mask`): PRESS on release if released before
    LONG_MS, LONG once when held for LONG_MS (and no PRESS on that
    release), so a long BACK (undo) never also acts as a short BACK.
  - the others (OK and BACK where holding them means nothing, which the
    app sets from the screen shown: Screen.long_keys): PRESS as soon as
    the press is debounced, and nothing more for that hold. Waiting for the
    release there would only make the press reach the panel a tap later.

Debounce: a level counts only after it has been steady for DEBOUNCE_MS, so
contact bounce and single-sample glitches never make a press.

Taps: a board that latches presses between samples (pin interrupts, see
boards/machine_board.py) sets bit TAP_SHIFT + b of the mask for a press of
button b that was held steady for DEBOUNCE_MS and released since its last
read. A loop pass can take hundreds of ms on a board, so a quick tap may
fall wholly between two samples: a tap of a button whose debounced level
never went down becomes one short press (PRESS), as if it had been sampled.
"""

from shared_rules.ticks import const, ticks_diff


UP = const(0)
DOWN = const(1)
OK = const(2)
BACK = const(3)
NAMES = ("up", "down", "ok", "back")

PRESS = const(1)
LONG = const(2)
REPEAT = const(3)
KIND_NAMES = ("", "press", "long", "repeat")
TAP_SHIFT = const(4)

DEBOUNCE_MS = const(20)
LONG_MS = const(700)
REPEAT_DELAY_MS = const(400)
_REPEAT_START_MS = const(180)
_REPEAT_STEP_MS = const(20)
REPEAT_MIN_MS = const(40)

_TICKS_MAX = const((1 << 30) - 1)

_NONE = ()


def repeat_interval(count):
    """Gap before repeat number count+1: starts at _REPEAT_START_MS and
    shrinks by _REPEAT_STEP_MS per repeat down to REPEAT_MIN_MS."""
    gap = _REPEAT_START_MS - count * _REPEAT_STEP_MS
    return gap if gap > REPEAT_MIN_MS else REPEAT_MIN_MS


def repeat_step(count):
    """How far one REPEAT should move a value: 1, then 2 after 10 repeats,
    5 after 25, so a long hold crosses a wide range quickly."""
    if count >= 25:
        return 5
    if count >= 10:
        return 2
    return 1


class Buttons:
    """Debounced state of four buttons.

    `held_at_start` is the mask read at power-on: those buttons are ignored
    until released (holding BACK for safe mode must not also act as BACK)."""

    def __init__(self, now=0, held_at_start=0, repeat_mask=(1 << UP) | (1 << DOWN),
                 long_mask=(1 << OK) | (1 << BACK)):
        held_at_start &= 15  # the level bits; a tap latched before power-on is no press
        self.repeat_mask = repeat_mask
        self.long_mask = long_mask  # may change between updates: read as each press starts
        self.raw = held_at_start
        self.stable = held_at_start
        self.ignore = held_at_start
        self.raw_since = [now, now, now, now]
        self.down_at = [now, now, now, now]
        self.next_rep = [now, now, now, now]
        self.reps = [0, 0, 0, 0]
        self.long_done = 0  # bit per button: LONG already sent for this hold

    def pressed(self, button):
        """Debounced level of one button (True while held)."""
        return bool(self.stable & (1 << button))

    def update(self, mask, now, since=None):
        """Feed one sample; return a tuple of (button, kind, count) events.

        `since`, from a board that timestamps its pins' edges, gives each
        button's last edge time: a new level then counts as steady from
        that edge rather than from this sample. An edge time that is in the
        future or older than the level it would end is no help (an edge the
        board missed) and the sample's time stands."""
        events = _NONE
        taps = mask >> TAP_SHIFT
        for b in range(4):
            bit = 1 << b
            if taps & bit and (self.ignore & bit or not (self.stable & bit)):
                ev = self._tap(b, bit, now)
                if ev is not None:
                    events = events + (ev,)
            level = mask & bit
            if level != (self.raw & bit):
                self.raw ^= bit
                t = now
                if since is not None:
                    t = since[b]
                    if ticks_diff(now, t) < 0 or ticks_diff(t, self.raw_since[b]) < 0:
                        t = now
                self.raw_since[b] = t
            if level != (self.stable & bit):
                if ticks_diff(now, self.raw_since[b]) >= DEBOUNCE_MS:
                    self.stable ^= bit
                    ev = self._edge(b, bit, level, now)
                    if ev is not None:
                        events = events + (ev,)
            elif level and not (self.ignore & bit):
                ev = self._held(b, bit, now)
                if ev is not None:
                    events = events + (ev,)
        return events

    def settle_in(self, now):
        """Ms until the soonest level seen but not yet debounced becomes
        steady (at least 1), or None when every level is settled: the loop
        sleeps no longer than that, so a PRESS comes DEBOUNCE_MS after the
        edge and not a whole loop sleep later."""
        moving = (self.raw ^ self.stable) & 15
        if not moving:
            return None
        soonest = DEBOUNCE_MS
        for b in range(4):
            if moving & (1 << b):
                left = DEBOUNCE_MS - ticks_diff(now, self.raw_since[b])
                if left < soonest:
                    soonest = left
        return soonest if soonest > 1 else 1

    def _tap(self, b, bit, now):
        """A whole press between two samples: its down and up edges at once.
        A button held at power-on was let go first (the board latches a tap
        only from a press it saw start), so it is no longer ignored."""
        if self.ignore & bit:
            self.ignore &= ~bit
            self.stable &= ~bit
            self.raw &= ~bit
        ev = self._edge(b, bit, bit, now)
        up = self._edge(b, bit, 0, now)
        return ev if ev is not None else up

    def _edge(self, b, bit, level, now):
        if self.ignore & bit:
            if not level:
                self.ignore &= ~bit
            return None
        if level:
            self.down_at[b] = now
            self.reps[b] = 0
            self.long_done &= ~bit
            if self.repeat_mask & bit:
                self.next_rep[b] = now + REPEAT_DELAY_MS
                return (b, PRESS, 0)
            if not (self.long_mask & bit):
                self.long_done |= bit  # acted on: no LONG, and its release is no press
                return (b, PRESS, 0)
            return None
        if self.repeat_mask & bit or self.long_done & bit:
            return None
        return (b, PRESS, 0)

    def _held(self, b, bit, now):
        if self.repeat_mask & bit:
            if ticks_diff(now, self.next_rep[b] & _TICKS_MAX) >= 0:
                n = self.reps[b] + 1
                self.reps[b] = n
                nxt = self.next_rep[b] + repeat_interval(n)
                # A late loop pass sends one repeat, not a burst of them.
                if ticks_diff(now, nxt & _TICKS_MAX) >= 0:
                    nxt = now + repeat_interval(n)
                self.next_rep[b] = nxt
                return (b, REPEAT, n)
            return None
        if not (self.long_done & bit) and ticks_diff(now, self.down_at[b]) >= LONG_MS:
            self.long_done |= bit
            return (b, LONG, 0)
        return None
