"""The search tables of a squares or chains solve (shared_rules.solver_piles)
for a given order of the moons, and the start of each part of the search
(solver_pairs.pairs ranks them), which orders the moons for its star. Generators yield
once per unit of work, so that a device running the solve in slices never
does more than a unit at a time. In its own module so that each part of
the solver compiles within the board's small heap."""

from shared_rules.moonstar_board import STARS, destinations
from shared_rules.solver_piles import _augment


def tables(self, order):
    """Generator: the search's tables for moons taken in `order`
    (positions; each group of moons on one star contiguous), then capx
    star by star, a matching each; a unit of work per item."""
    sit = self.sit
    moons = sit["moons"]
    vals = self.vals
    M = self.M
    k = len(vals)
    # mask[i*12+s]: numbers taking the moon at position i to s;
    # uni[i*12+s]: numbers taking any moon from position i on to s;
    # capx[i*12+s]: how many moons from position i on can land on s
    # together with distinct dice (a matching)
    # (made once and refilled for each part: the board's heap is small;
    # every entry is written below, and the last row stays 0)
    if self.order is None:
        self.mask = bytearray(M * STARS)
        self.uni = bytearray((M + 1) * STARS)
        self.capx = bytearray((M + 1) * STARS)
        self.per = bytearray((M + 1) * STARS * k)
    self.order = order
    mask = self.mask
    uni = self.uni
    for i in range(M * STARS):
        mask[i] = 0
    self.same = [i > 0 and moons[order[i - 1]] == moons[order[i]] for i in range(M)]
    for i in range(M - 1, -1, -1):
        for b in range(k):
            for to in destinations(moons[order[i]], vals[b], sit["movement"]):
                mask[i * STARS + to] |= 1 << b
        for s in range(STARS):
            uni[i * STARS + s] = uni[i * STARS + STARS + s] | mask[i * STARS + s]
    # last[s]: the last position whose moon can reach s; once past it, a
    # star left with one moon is worth no more than that moon staying out
    # (see Piles._search), so such a node is not searched
    last = bytearray(b"\xff" * STARS)  # 255: no position
    for i in range(M):
        for s in range(STARS):
            if mask[i * STARS + s]:
                last[s] = i
    self.last = last
    # per[(i*12+s)*k+b]: moons from position i on that number b takes to s
    per = self.per
    for i in range(M - 1, -1, -1):
        for s in range(STARS):
            a = mask[i * STARS + s]
            for b in range(k):
                per[(i * STARS + s) * k + b] = per[((i + 1) * STARS + s) * k + b] + (a >> b & 1)
    yield
    capx = self.capx
    for s in range(STARS):
        masks = [mask[i * STARS + s] for i in range(M)]
        got = [0] * M
        load = [0] * len(self.count)
        for i in range(M - 1, -1, -1):
            capx[i * STARS + s] = capx[i * STARS + STARS + s] + _augment(i, masks, got, load, self.count, [0] * M)
        yield


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
