"""The last steps of a squares or chains solve (shared_rules.solver_piles):
the start of each part of its search (solver_pairs.pairs ranks them),
which orders the moons for its star, a generator that yields once per
unit of work so that a device running the solve in slices never does
more than a unit at a time; and at the end the best landings made into a
complete plan with its dice. Loaded only for them: a set-up's solve
mostly ends in its first steps (solver_first). In its own module so that each part of
the solver compiles within the board's small heap."""

from shared_rules.moonstar_board import STARS, destinations
from shared_rules.solver_first import tables
from shared_rules.solver_piles import _augment

try:
    from micropython import const
except ImportError:  # CPython

    def const(__expr):  # positional-only, like the stub: see shared_rules/ticks.py
        return __expr


_SKIP = const(12)  # as in solver_piles: "this moon gets no die"


def part(self, ub, s1, x):
    """Generator: start the part of the search whose biggest pile is x
    moons on star s1, with the moons that can reach s1 first (so that
    its pile is decided near the root, where the bounds then see what
    is left for the others): new tables, in units of work."""
    moons = self.sit["moons"]
    mask = self.mask
    order = self.order
    keys = [0] * self.M  # (not a lambda: each function is heap on the board)
    for i in range(self.M):
        m = order[i]
        keys[i] = ((0 if mask[i * STARS + s1] else 1) * 16 + moons[m]) * 16 + m
    keys.sort()
    for i in range(self.M):
        keys[i] &= 15
    yield from tables(self, keys)
    # per2[(i*12+u)*k+b]: moons from position i on that number b takes
    # to s1 or to u: with the dice left, a bound on the moves into the
    # pair, of which s1 still needs its share (solver_pairs.bound)
    M = self.M
    k = len(self.vals)
    mask = self.mask
    if self.per2 is None:
        self.per2 = bytearray((M + 1) * STARS * k)
    per2 = self.per2
    for i in range(M - 1, -1, -1):
        a1 = mask[i * STARS + s1]
        for u in range(STARS):
            a = a1 | mask[i * STARS + u]
            j = (i * STARS + u) * k
            for b in range(k):
                per2[j + b] = per2[j + STARS * k + b] + (a >> b & 1)
    yield
    self.s1 = s1
    self.x1 = x
    slack = self.slack
    for S in range(self.full):
        slack[S] = self.slack0[S]
    for s in range(STARS):
        self.n[s] = 0
    self.cur = self.placed = 0
    self.seen = set() if self.memo else None
    self._children(0)
    self.ubs[0] = ub
    self.depth = 0


def plan(self):
    """The best landings with their dice (Hall says they exist), listed
    star by star: the best order for chains."""
    choice = self.choice
    order, mask = self.chosen  # the tables of the part that found it
    masks = [0 if c == _SKIP else mask[i * STARS + c] for i, c in enumerate(choice)]
    got = [0] * self.M
    load = [0] * len(self.vals)
    for i in range(self.M):
        if masks[i] and not _augment(i, masks, got, load, self.count, [0] * self.M):
            raise AssertionError("solver: no dice for a Hall-checked plan")  # a bug, never bad input
    dice = list(self.sit["dice"])
    plan = []
    for i in range(self.M):
        if masks[i]:
            j = dice.index(self.vals[got[i] - 1])
            dice[j] = 0
            plan.append({"moon": order[i], "die": j, "to": choice[i]})
    # The search may stop short of a complete plan (the rest of the moves
    # add at least 1 each, wherever they go): the moons and dice left
    # make the rest, each onto the biggest pile it can reach.
    pile = [0] * STARS
    for move in plan:
        pile[move["to"]] += 1
    moons = self.sit["moons"]
    for i in range(self.M):
        if masks[i] or len(plan) == self.need:
            continue
        pick = None
        for j in range(len(dice)):
            if dice[j]:
                for to in destinations(moons[order[i]], dice[j], self.sit["movement"]):
                    if pick is None or pile[to] > pile[pick[1]]:
                        pick = (j, to)
        if pick is None:
            raise AssertionError("solver: a moon left with no die")  # a bug, never bad input
        dice[pick[0]] = 0
        pile[pick[1]] += 1
        plan.append({"moon": order[i], "die": pick[0], "to": pick[1]})
    best = 0
    for k in pile:
        best += k * (self.alpha * (k - 1) + 2) // 2
    if best != self.best:
        raise AssertionError("solver: plan scores %d, search %d" % (best, self.best))  # a bug, never bad input
    plan.sort(key=lambda move: move["to"] * 16 + move["moon"])
    return {"best": self.best, "plan": plan, "favorite": None}
