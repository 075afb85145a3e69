"""The Moonstar solver run in slices from the device's main loop, for the
points entry (ui/moonstar/points.py: it stops at the best possible) and the
result screen (ui/moonstar/best.py: it steps through the plan).

Each pass does at most SOLVE_UNITS units of work and stops early once
SOLVE_MS have gone by, so the timer, the buttons and the serial link keep
their pace. A unit is one assignment row or one search node
(docs/solver.md): some 5-20 us on the unix port, where the unit cap
binds, and 2-5 ms on a Pico, where the time cap does. SOLVE_MS is set
against a Pico's own cost of a pass (the buttons, the link, the 1 ms
sleep: about 3 ms), which is then some 13% of a solve; a pass ends at
SOLVE_MS plus the unit under way (up to about 50 ms where a part of the
search starts), within the loop's 100 ms. The solver's modules are
loaded for the solve only and let go as soon as the answer is known or
the solve is stopped: the Slices object marks what was loaded before it
started, and releases the rules core's modules that came since."""

import gc
import sys

from loader import drop, mark, release
from shared_rules.ticks import ticks_diff

SOLVE_UNITS = 16  # most solver units per loop pass
SOLVE_MS = 20     # and at most this long (on a board: the unit cap rarely binds)
# What building a solver loads, one module a loop pass before it is built
# (App.fetch): these always, and what the game's last solve loaded to
# build its solver (the session's notes["solve"]: a squares game's piles).
SOLVER_MODULES = ("shared_rules.moonstar.board", "shared_rules.moonstar.solver")
_PARTS = "shared_rules.moonstar.pairs"  # the search in parts (loaded at its start)
_START = "shared_rules.moonstar.piles_start"  # the solve's first steps
_PREFIX = "shared_rules.moonstar."  # the solver's code: what a solve loads and lets go
_RULES = "shared_rules."


class Slices:
    """The solver for one situation, run a slice per loop pass. `answer`
    is the solver's result ({"best", "plan", "favorite"}) once known;
    `failed` says why there is none ("no memory")."""

    # True: the solve loaded this module itself (the game screen's, which
    # has no code of its own to go with it) and lets it go too when it
    # ends. Set on that one object only: a class default, so every other
    # solve's attributes stay as few as they were (the heap's map sizes)
    own = False

    def __init__(self, sit, app, session=None):
        self.sit = sit
        self.app = app
        # the game's session: what the solver loaded is noted in its
        # notes, and loaded ahead by the next solve of the game
        self.session = session
        # the answer if the game screen solved this set-up ahead (kept in
        # the session's notes as "best": (situation, answer): ui/moonstar/game.py)
        known = session.notes.get("best") if session is not None else None
        self.answer = known[1] if known is not None and known[0] == sit else None
        self.failed = None
        self.solver = None
        self.started = False
        self.before = None  # the modules loaded before the solver came (loader.mark)

    def _unload(self):
        if self.before is not None:
            release(self.before, (), _PREFIX)
        if self.own:
            drop((__name__,))

    def done(self):
        return self.answer is not None or self.failed is not None

    def loaded(self):
        """The modules this solve loaded and still holds (its code, which
        it lets go itself: _unload): a screen that hands the solve on lets
        its own code go but these."""
        before = self.before
        if before is None:
            return ()
        return tuple(k for k in sys.modules if k not in before and k.startswith(_PREFIX))

    def running(self):
        """Self while the solve is to start or under way, else None."""
        return None if self.done() or (self.started and self.solver is None) else self

    def update(self):
        """One pass's work; True when the answer (or the failure) came."""
        if self.done():
            return False
        try:
            if not self.started:
                if self.before is None:
                    # the rules' modules loaded before it: what it loads
                    # and lets go are among the others (a mark of them
                    # alone: some 35 names fewer to hold while it solves)
                    self.before = tuple(k for k in mark() if k.startswith(_RULES))
                    gc.collect()  # room for the solver's code and tables
                    return False  # the pass that opened the screen did enough
                session = self.session
                notes = session.notes if session is not None else None
                if self.app.fetch(ahead(notes)):
                    return False  # loading the solver's modules was this pass's work
                self.started = True
                from shared_rules.moonstar.solver import Solver

                # checked: every situation solved here is a game state's
                # (the round's, or the last round's), which the rules
                # checked at set-up; so the checks' module stays unloaded
                self.solver = Solver(self.sit, True)
                if notes is not None:
                    before = self.before
                    notes["solve"] = tuple(k for k in mark() if k not in before and k.startswith(_RULES))
                return False  # building the tables was this pass's work
            return self._slice()
        except MemoryError:
            self.solver = None
            self._unload()
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
                self.answer = r
                self.solver = None
                self._unload()
                return True
            if ticks_diff(ticks(), start) >= SOLVE_MS:
                break
        if _PARTS in sys.modules and _START in sys.modules:
            # The search went in parts: the first steps' code is done with
            # (nothing of the parts refers to it; the rules' check, if it
            # needs it, loads it again), and its room is the parts': they
            # are a round's largest moment on the heap (docs/device.md,
            # Memory).
            drop((_START,))
        return False

    def stop(self):
        """Drop an unfinished solve, and the solver's code."""
        self.solver = None
        self._unload()


def ahead(notes):
    """The modules a solve loads ahead (SOLVER_MODULES, and what the
    game's last solve loaded to build its solver)."""
    got = notes.get("solve") if notes is not None else None
    return got if got else SOLVER_MODULES
