"""The start of each part of a squares or chains solve's search
(shared_rules.moonstar.piles; pairs.pairs ranks the parts), which
orders the moons for its star: a generator that yields once per unit of
work, so that a device running the solve in slices never does more than
a unit at a time. Loaded only for a search in parts: most set-ups' solves
end before (piles_start)."""

from shared_rules.moonstar.board import STARS
from shared_rules.moonstar.piles_start import tables


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
    # pair, of which s1 still needs its share (pairs.bound)
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
