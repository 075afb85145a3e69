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
    # per2[u], for each star u: byte T of the int counts the moons from
    # position per2[12] on whose numbers into s1 or u (into s1 alone for
    # u = s1) are some and all in the set T of numbers, brought to the
    # position a bound needs by pairs._move (from the last: no moons);
    # per2[13 + b]: the sets T holding number b (byte T is 1). With the
    # Hall slack, the most moves the moons left can add into the pair is
    # min over T of slack[T] plus those moons not inside T, of which s1
    # still needs its share (pairs.bound). Ints, so that the 2^k sets
    # are added and compared in the interpreter's C, not a loop each.
    full = self.full
    per2 = self.per2 = [0] * STARS + [self.M]
    for b in range(len(self.vals)):
        per2.append(int.from_bytes(bytes(T >> b & 1 for T in range(full)), "little"))
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
