"""The start of each part of a squares or chains solve's search
(shared_rules.moonstar.piles; pairs.pairs ranks the parts), which
orders the moons for its star: a generator that yields once per unit of
work, so that a device running the solve in slices never does more than
a unit at a time. Loaded only for a search in parts: most set-ups' solves
end before (piles_start)."""

from shared_rules.moonstar.board import STARS, destinations
from shared_rules.moonstar.pairs import _table
from shared_rules.moonstar.piles_start import tables


def part(self, ub, s1, x):
    """Generator: start the part of the search whose biggest pile is x
    moons on star s1, in two passes over the moons: first each moon that
    can reach s1 goes there or waits (position flag 16: its numbers into
    s1 only), then those that waited and the others go anywhere else or
    nowhere (flag 32: a waiting moon's second position, never into s1).
    So s1's pile is decided first, and the bounds then see exactly which
    moons and dice are left for the other stars (see pairs.bound); every
    plan of the part is still searched once. New tables, in units of
    work."""
    moons = self.sit["moons"]
    movement = self.sit["movement"]
    keys = []  # the moons that can reach s1, as start * 16 + moon
    rest = []  # the others
    for m in range(len(moons)):
        for v in self.vals:
            if s1 in destinations(moons[m], v, movement):
                keys.append(moons[m] * 16 + m)
                break
        else:
            rest.append(moons[m] * 16 + m)
    keys.sort()
    rest.sort()
    R = len(keys)
    for i in range(R):
        keys[i] = keys[i] & 15 | 16
    for i in range(R):
        keys.append(keys[i] ^ 48)  # flag 16 -> 32: the same moon, second pass
    for k in rest:
        keys.append(k & 15)
    M = self.M = len(keys)
    if len(self.ptr) != M + 1:
        self.kids = bytearray((M + 1) * 13)
        self.ptr = bytearray(M + 1)
        self.ch = [-1] * (M + 1)
        self.ubs = [0] * (M + 1)
    self.s1 = s1  # (the tables' masks follow the flags for s1)
    yield from tables(self, keys)
    self.per2 = _table(self)  # (pairs._table)
    self.s1 = s1
    self.x1 = x
    slack = self.slack
    for S in range(self.full):
        slack[S] = self.slack0[S]
    for s in range(STARS):
        self.n[s] = 0
    self.cur = self.placed = 0
    self._children(0)
    self.ubs[0] = ub
    self.depth = 0
