"""Moonstar, after a round whose situation is known (rolled by the device or
entered): the bidder's points next to the best possible score of that
situation (issue 6), so the table sees what the dice allowed.

The best score comes from shared_rules.solver, run in slices from the main
loop: each pass does at most SOLVE_UNITS units of work and stops early once
SOLVE_MS have gone by, so the timer, the buttons and the serial link keep
their pace; "..." shows until the answer is there. A unit is one assignment
row or one search node (docs/solver.md): some 5-20 us here, about 50 times
that on a Pico, so a pass stays within a few ms there. The solver modules
are loaded for this screen only and unloaded as soon as the answer is
known or the screen is left (the heap is the board's scarcest resource).
This module itself is unloaded when the screen closes."""

from buttons import BACK, OK, PRESS
from screens.base import Screen, text_right, title_bar
from screens.gcommon import hint
from shared_rules.timer import ticks_diff

SOLVE_UNITS = 16  # most solver units per loop pass
SOLVE_MS = 4      # and at most this long (on a board: the unit cap rarely binds)
SOLVER_MODULES = ("shared_rules.solver", "shared_rules.solver_piles")


def _unload():
    import gc

    from app import drop

    drop(SOLVER_MODULES)
    gc.collect()


class BestPossible(Screen):
    """`last` is the rules' record of the finished round (state["last"]:
    bidder, bid, points, made, sit); `rnd` its number, counted from 1."""

    def __init__(self, app, rnd, last):
        super().__init__(app)
        self.title = "R%d result" % rnd
        self.last = last
        self.best = None
        self.failed = None  # why there is no answer (no memory), shown instead
        self.solver = None
        self.started = False

    # -- the slices ----------------------------------------------------------
    def update(self, now):
        if self.best is not None or self.failed is not None:
            return False
        try:
            if not self.started:
                self.started = True
                import gc

                gc.collect()  # room for the solver's code and tables
                from shared_rules.solver import Solver

                self.solver = Solver(self.last["sit"])
                return False  # building the tables was this pass's work
            return self._slice()
        except MemoryError:
            self.solver = None
            _unload()
            self.failed = "no memory"
            return True

    def _slice(self):
        solver = self.solver
        if solver is None:
            return False
        ticks = self.app.board.ticks_ms
        start = ticks()
        for _ in range(SOLVE_UNITS):
            r = solver.step(1)
            if r is not None:
                self.best = r["best"]
                self.solver = None
                _unload()
                return True
            if ticks_diff(ticks(), start) >= SOLVE_MS:
                break
        return False

    def close(self):
        """Leave the screen; an unfinished solve is dropped with its code."""
        if self.solver is not None:
            self.solver = None
            _unload()
        from app import drop

        self.app.pop()
        drop(("screens.ms_best",))

    def button(self, b, kind, count):
        if kind == PRESS and (b == OK or b == BACK):
            self.close()

    # -- drawing ---------------------------------------------------------------
    def draw(self, d):
        last = self.last
        title_bar(d, self.title)
        names = self.app.session.names() if self.app.session is not None else []
        bidder = last["bidder"]
        d.text(names[bidder][:10] if bidder < len(names) else "P%d" % (bidder + 1), 0, 12, 1)
        text_right(d, "bid %d" % last["bid"], 12)
        d.text("made" if last["made"] else "failed", 0, 21, 1)
        d.text("points:", 0, 32, 1)
        text_right(d, str(last["points"]), 32)
        if self.best is not None:
            val = str(self.best)
            if last["points"] > self.best:
                text_right(d, "> best!", 21)  # more than the dice allowed: an entry slip?
        elif self.failed is not None:
            val = self.failed
        else:
            val = "..."
        # "best possible: N" when it fits the 16 columns, else without the colon
        label = "best possible:" if len(val) <= 2 else "best possible"
        if len(label) + len(val) > 16:
            label = "best:"
        d.text(label, 0, 42, 1)
        text_right(d, val, 42)
        hint(d, "OK: continue")
