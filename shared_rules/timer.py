"""The sand timer, free of any clock so it runs the same on the board, on
the PC and under a test's virtual clock.

The timer keeps a *deadline* and computes the remaining time as deadline
minus now. Nothing is decremented in a loop, so a slow or jittery main loop
can never make the timer drift; it can only make the display late. Its
tick arithmetic is in shared_rules/ticks.py.
"""

from shared_rules.ticks import ticks_add, ticks_diff


class SandTimer:
    """A countdown that can run, pause, resume and be adjusted.

    `clock` is a function returning the current tick in ms (time.ticks_ms on
    the board). While running the timer stores only its deadline; while
    paused it stores the remaining ms. That pair is also what a journal
    saves, so a timer restored after a power cut resumes paused with the
    time it had."""

    def __init__(self, clock, length_ms):
        self.clock = clock
        self.length_ms = length_ms
        self.deadline = 0
        self.left_ms = length_ms  # meaningful only while not running
        self.running = False

    def start(self, length_ms=None):
        """(Re)start from full length, or from length_ms if given."""
        if length_ms is not None:
            self.length_ms = length_ms
        self.left_ms = self.length_ms
        self.running = False
        self.resume()

    def remaining(self):
        """Milliseconds left, never negative."""
        if not self.running:
            return self.left_ms
        left = ticks_diff(self.deadline, self.clock())
        return left if left > 0 else 0

    def expired(self):
        return self.remaining() == 0

    def pause(self):
        if self.running:
            self.left_ms = self.remaining()
            self.running = False

    def resume(self):
        if not self.running:
            self.deadline = ticks_add(self.clock(), self.left_ms)
            self.running = True

    def adjust(self, delta_ms):
        """Add (or, negative, take away) time; never below zero."""
        left = self.remaining() + delta_ms
        if left < 0:
            left = 0
        if self.running:
            self.deadline = ticks_add(self.clock(), left)
        else:
            self.left_ms = left

    def seconds_shown(self):
        """Whole seconds for a display: rounds up, so 0.2 s left shows 1 and
        0 is shown only when the time is really up."""
        return (self.remaining() + 999) // 1000

    def snapshot(self):
        """JSON-able {"left_ms", "length_ms"}: what to save. A restored timer
        is always paused, so nobody loses time to a reboot."""
        return {"left_ms": self.remaining(), "length_ms": self.length_ms}

    def restore(self, snap):
        self.length_ms = snap["length_ms"]
        self.left_ms = snap["left_ms"]
        self.running = False
