"""The first and last steps of a squares or chains solve
(shared_rules.solver_piles): the tables that need a matching per star,
then a first plan built pile by pile, so that the search starts from a
good score and usually only has to confirm it; at the end, the best
landings made into a complete plan with its dice. A generator, one unit of work per item, so that a device
running the solve in slices never does more than a unit at a time. In its
own module so that each half compiles within the board's small heap."""

from shared_rules.moonstar_board import STARS, destinations
from shared_rules.solver_piles import _augment

try:
    from micropython import const
except ImportError:  # CPython

    def const(__expr):  # positional-only, like the stub: see shared_rules/ticks.py
        return __expr


_SKIP = const(12)  # as in solver_piles: "this moon gets no die"
PLAIN = const(256)  # units of plain search before the search goes in parts


def prep(self):
    """Generator: capx star by star (a matching each), then the search's
    root, then the first plan (_greedy); one unit of work per item."""
    from shared_rules.solver_tables import tables

    moons = self.sit["moons"]
    keys = [0] * self.M
    for m in range(self.M):
        keys[m] = moons[m] * 16 + m
    keys.sort()
    for i in range(self.M):
        keys[i] &= 15
    yield from tables(self, keys)
    self._children(0)
    self.ubs[0] = self._bound(0, self.need)
    if self.ubs[0] > 0:
        yield from _greedy(self)
    # The plain search first: most set-ups end within PLAIN units; a
    # search still going then starts again in parts (Piles.step), with the
    # pairs' bound, whose tables it only then makes.
    self.slack0 = bytes(self.slack)
    self.plain = self.units + PLAIN


def _greedy(self):
    """A first plan built pile by pile: the star that can take the most
    moons (with the dice left) takes them, then the next, for each start
    among the stars that could hold the biggest pile. Its score becomes
    the best so far, so the search only looks for better; when it equals
    the root bound the search ends at once (a set-up's usual case)."""
    M = self.M
    mask = self.mask
    count = self.count
    capx = self.capx
    top = 0
    for s in range(STARS):
        top = max(top, capx[s])
    for first in range(STARS):
        if capx[first] < top - 1:
            continue
        got = [0] * M
        load = [0] * len(count)
        masks = [0] * M
        choice = [_SKIP] * M
        left = self.need
        score = 0
        s = first
        while left > 0:
            if s < 0:  # the star taking the most moons now
                most = 0
                for t in range(STARS):
                    k = _pile(self, t, masks, got, load, left, False)
                    yield
                    if k > most:
                        most = k
                        s = t
                if s < 0:
                    break
            k = _pile(self, s, masks, got, load, left, True)
            yield
            for i in range(M):
                if masks[i] and choice[i] == _SKIP:
                    choice[i] = s
            left -= k
            s = -1
        score = left  # the moves left add at least 1 each, wherever they go
        for t in range(STARS):
            k = choice.count(t)
            score += k * (self.alpha * (k - 1) + 2) // 2
        if score > self.best:
            self.best = score
            self.choice = choice
            self.chosen = (self.order, bytes(self.mask))  # the positions' tables


def _pile(self, s, masks, got, load, left, keep):
    """How many unused moons can land on star s at once, keeping the moves
    already chosen (at most `left`); with `keep` they are added to the
    matching (masks/got/load), else the matching is left as it was."""
    M = self.M
    mask = self.mask
    if not keep:
        masks = masks[:]
        got = got[:]
        load = load[:]
    k = 0
    # the moons least useful elsewhere first: those that reach fewer of
    # the stars where big piles can form
    capx = self.capx
    order = []
    for i in range(M):
        if not masks[i] and mask[i * STARS + s]:
            w = 0
            for t in range(STARS):
                if t != s and mask[i * STARS + t]:
                    w += capx[t] * capx[t]
            order.append(w * 16 + i)
    order.sort()
    for w in order:
        i = w & 15
        if k < left:
            masks[i] = mask[i * STARS + s]
            if _augment(i, masks, got, load, self.count, [0] * M):
                k += 1
            else:
                masks[i] = 0
    return k


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
