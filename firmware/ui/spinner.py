"""A turning mark for a screen whose work goes on over the loop passes (a
result's check, a points entry's OK waiting for its solve), so the panel
says it is working. Each turn redraws the panel, and a full frame takes
25 ms on a Pico, so it turns at most every SPIN_MS."""

from shared_rules.ticks import ticks_diff

SPIN_MS = 250
_MARKS = "|/-\\"


class Spinner:
    def __init__(self):
        self.turns = 0
        self.at = None  # tick of the last turn

    def turn(self, now):
        """True when it turned (the caller redraws)."""
        if self.at is not None and ticks_diff(now, self.at) < SPIN_MS:
            return False
        self.at = now
        self.turns += 1
        return True

    def mark(self):
        return _MARKS[self.turns % 4]
