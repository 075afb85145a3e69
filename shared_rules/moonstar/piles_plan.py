"""The end of a squares or chains solve (shared_rules.moonstar.piles): the
search's best landings made a plan, with the die each move takes and the
moves a search that stopped short left out. Its own module, loaded by the
solve's last step, so that the search's passes (a board's largest
moment on the heap) do not hold its code."""

from shared_rules.moonstar.board import destinations

try:
    from micropython import const
except ImportError:  # CPython

    def const(__expr):  # positional-only, like the stub: see shared_rules/ticks.py
        return __expr


_STARS = const(12)  # board.STARS (tests/rules/test_solver_piles.py checks)
_SKIP = const(12)  # "this moon gets no die" (Game 3): piles._SKIP


def plan(self):
    """The best landings with their dice (Hall says they exist), listed
    star by star: the best order for chains."""
    choice = self.choice
    order, mask = self.chosen  # the tables of the part that found it
    M = len(choice)  # positions (a part's are more than the moons: pairs.part)
    masks = [0 if c == _SKIP else mask[i * _STARS + c] for i, c in enumerate(choice)]
    got = [0] * M
    load = [0] * (len(self.vals) + 1)
    for i in range(M):
        if masks[i] and not self._augment(i, masks, got, load):
            raise AssertionError("solver: no dice for a Hall-checked plan")  # a bug, never bad input
    dice = list(self.sit["dice"])
    moves = []  # (to * 16 + moon) * 16 + die: at most 15 moons and 11 dice
    moved = 0  # a bit a moon
    pile = [0] * _STARS
    for i in range(M):
        if masks[i]:
            j = dice.index(self.vals[got[i] - 1])
            dice[j] = 0
            pile[choice[i]] += 1
            moved |= 1 << (order[i] & 15)
            moves.append((choice[i] * 16 + (order[i] & 15)) * 16 + j)
    # The search may stop short of a complete plan (the rest of the moves
    # add at least 1 each, wherever they go): the moons and dice left
    # make the rest, each onto the biggest pile it can reach.
    moons = self.sit["moons"]
    for i in range(M):
        m = order[i] & 15
        if len(moves) == self.need or moved >> m & 1:
            continue
        pick = -1
        for j in range(len(dice)):
            if dice[j]:
                for to in destinations(moons[m], dice[j], self.sit["movement"]):
                    if pick < 0 or pile[to] > pile[pick >> 8]:
                        pick = (to * 16 + m) * 16 + j
        if pick < 0:
            raise AssertionError("solver: a moon left with no die")  # a bug, never bad input
        dice[pick & 15] = 0
        pile[pick >> 8] += 1
        moved |= 1 << m
        moves.append(pick)
    best = 0
    for k in pile:
        best += k * (self.alpha * (k - 1) + 2) // 2
    if best != self.best:
        raise AssertionError("solver: plan scores %d, search %d" % (best, self.best))  # a bug, never bad input
    moves.sort()
    return {"best": best, "plan": [{"moon": v >> 4 & 15, "die": v & 15, "to": v >> 8} for v in moves], "favorite": None}
