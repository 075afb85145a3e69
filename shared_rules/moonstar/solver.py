"""Moonstar's referee: the exact best score of a situation and a plan that
reaches it (RULINGS.md "Optimum"). docs/solver.md has the full argument.

solve(situation) -> {"best": N, "plan": [{"moon", "die", "to"}...], "favorite": star/None}.
Solver(situation).step(budget) does the same in slices of about `budget`
units (an assignment row, or a search node) and returns None until done, so
the device's UI loop stays alive. Bad set-ups raise RuleError (from
shared_rules.moonstar.check); the planets' values and the moves come
from board.py.

Planets: shared_rules.moonstar.assign (the Hungarian method, once per
possible Favorite Star). Squares and chains: shared_rules.moonstar.piles
(branch and bound). Each is loaded only when needed, so that a solve
holds only its own code on the board's small heap.
"""


class Solver:
    """A resumable exact solve of one situation."""

    def __init__(self, situation, checked=False):
        # `checked`: the situation comes from a game state, which checked
        # it when it was set up (the rules' result check solves it so).
        if checked:
            sit = situation
        else:
            from shared_rules.moonstar.check import check_situation

            sit = check_situation(situation)
        self.result = None
        self.units = 0
        if sit["scoring"] == "planets":
            from shared_rules.moonstar.assign import Assign

            self.work = Assign(sit)
        else:
            from shared_rules.moonstar.piles import Piles

            self.work = Piles(sit, min(len(sit["moons"]), len(sit["dice"])))

    def step(self, budget=256):
        """Do about `budget` units of work; the result once done, else None."""
        work = self.work
        if work is not None:
            self.result = work.step(budget)
            self.units = work.units
            if self.result is not None:
                self.work = None  # its tables go: the board's heap is small
        return self.result

    def reached(self):
        """The best score of a plan found so far: a score the situation
        certainly allows (-1 before the first). A check that only needs
        to know a result is reachable can stop as soon as this reaches it."""
        work = self.work
        if work is not None:
            return work.reached()
        r = self.result
        return r["best"] if r else -1


def solve(situation):
    """The best possible round of `situation` and a plan that scores it."""
    solver = Solver(situation)
    result = None
    while result is None:
        result = solver.step(1 << 20)
    return result
