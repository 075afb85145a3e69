"""Squares and chains for shared_rules.moonstar.solver: an exact branch and bound
over each moon's landing star (symmetry between equal moons, Hall's theorem
for the dice, a relaxation bound); docs/solver.md gives the argument.
"""

from shared_rules.moonstar.board import STARS, destinations
from shared_rules.moonstar.matching import _augment, _fill

try:
    from micropython import const
except ImportError:  # CPython

    def const(__expr):  # positional-only, like the stub: see shared_rules/ticks.py
        return __expr


_SKIP = const(12)  # "this moon gets no die" (Game 3), ranks after stars 0-11
_NONE = const(-1)


class Piles:
    """A resumable branch and bound for squares or chains scoring; `sit` is
    a checked situation, `need` the number of moves a plan makes."""

    def __init__(self, sit, need):
        self.sit = sit
        self.need = need
        self.result = None
        self.units = 0
        self.best = -1
        moons = sit["moons"]
        M = self.M = len(moons)
        self.alpha = 2 if sit["scoring"] == "squares" else 1  # f(n+1) - f(n) = alpha*n + 1
        # the rolled numbers become bits 0..k-1; count[b]: dice showing vals[b]
        vals = self.vals = []
        count = self.count = []
        for v in range(1, 7):
            if v in sit["dice"]:
                vals.append(v)
                count.append(sit["dice"].count(v))
        full = 1 << len(vals)
        # slack[S]: dice showing a number in S minus moons placed with masks inside S
        # (bytearrays: every entry is below 256, and the board's heap is small)
        self.slack = bytearray(sum(count[b] for b in range(len(vals)) if S >> b & 1) for S in range(full))
        self.full = full
        # the tables, for the moons by start star (each group of equal
        # moons contiguous), come first in prep
        from shared_rules.moonstar.piles_start import prep

        self.order = self.per2 = []
        # the tables (piles_start.tables): made by the first steps
        self.mask = self.uni = self.capx = self.last = bytearray(0)
        self.same = []
        self.plain = 0
        self.n = [0] * STARS
        self.cur = self.placed = self.depth = 0
        # kids[i*13:i*13+ptr[i]]: options for position i left, set by
        # _children (one bytearray, not a list a node: the heap is small)
        self.kids = bytearray((M + 1) * 13)
        self.ptr = bytearray(M + 1)
        self.ch = [_NONE] * (M + 1)
        self.ubs = [0] * (M + 1)  # bound of the node open at each depth
        # the matchings behind capx and the first plan run as units of
        # step() too, so that no call does more than a unit's work
        self.prep = prep(self)
        self.caps = bytearray(STARS)  # _bound's caps, for the second bound
        self.pairbound = None  # pairs.bound, once its table is made
        # the part searched: plans whose biggest pile is x1 moons on star
        # s1 (-1: every plan); parts: the parts left (pairs.pairs)
        self.s1 = -1
        self.x1 = 0
        self.parts = None

    def reached(self):
        """As Solver.reached: the best plan found so far."""
        return self.best

    def _children(self, i):
        """Options for the moon at position i, best last (popped first): by
        the pile its star could still reach, then moons already there.
        Staying out (Game 3) ranks as the best pile left to the others."""
        n = self.n
        capx = self.capx
        mask = self.mask
        ch = self.ch
        lo = ch[i - 1] if self.same[i] else 0
        keys = []
        top = 0
        last = self.last
        if self.order[i] & 32:
            # a part's second pass (pairs.part): R positions back is
            # this moon's first; a moon gone to s1 there stays, and the
            # one before it in its group may have (it then ranks first)
            R = self.M - len(self.sit["moons"])
            if ch[i - R] == self.s1:
                mask = b""
            elif lo and ch[i - 1 - R] == self.s1:
                lo = 0
        for s in range(STARS):
            pile = n[s] + capx[i * STARS + STARS + s]
            top = max(top, pile)
            # a moon alone on a star scores what it would score anywhere
            # (see step): it only goes where a later moon can still join it
            if s >= lo and mask and mask[i * STARS + s] and (n[s] or last[s] > i) and (self.s1 < 0 or n[s] < self.x1):
                keys.append(((pile + 1) * 16 + n[s]) * 16 + s)
        keys.append((top * 16 + 15) * 16 + _SKIP)
        keys.sort()
        kids = self.kids
        for j in range(len(keys)):
            kids[i * 13 + j] = keys[j] & 15
        self.ptr[i] = len(keys)
        self.ch[i] = _NONE

    def _bound(self, i, r):
        """Upper bound on what moons from position i on add with r moves left."""
        n = self.n
        uni = self.uni
        slack = self.slack
        capx = self.capx
        caps = self.caps
        by_n = []
        by_cap = []
        by_chord = []
        self.pos = i  # for the second bound
        j = i * STARS
        for s in range(STARS):
            c = capx[j + s]
            if c:
                c = min(c, slack[uni[j + s]], r)
            caps[s] = c
            if c:
                by_n.append(n[s] * 32 + c)
                by_cap.append(c * 33)
                by_chord.append((2 * n[s] + c - 1) * 32 + c)
        # doubled: 2 sum n_s a_s + sum a_s (a_s - 1), each greedily; or the chord
        t1 = 2 * _fill(by_n, r, 0) + _fill(by_cap, r, 1)
        t2 = _fill(by_chord, r, 0)
        return self.alpha * (min(t1, t2) >> 1) + r

    def step(self, budget):
        """Search about `budget` nodes; the result once done, else None."""
        while budget > 0:
            if self.prep is not None:  # tables, the first plan, a part's start
                budget -= 1
                self.units += 1
                try:
                    next(self.prep)
                except StopIteration:
                    self.prep = None
            elif self.depth >= 0 and self.pairbound is not None:
                budget = self._search(budget)
            elif self.depth >= 0 and self.units < self.plain:
                # the plain search, never past its _PLAIN units (piles_start)
                left = self.plain - self.units
                budget = budget - left + self._search(min(budget, left)) if budget > left else self._search(budget)
            elif self.depth >= 0:
                # the plain search has run long: the pairs' bound, and the
                # search again, in parts (pairs.pairs)
                from shared_rules.moonstar.pairs import bound, pairs

                self.pairbound = bound
                self.prep = pairs(self)
            elif self.parts:
                # the next part whose bound still beats the best plan known
                # (pairs.part starts it, in units of work)
                p = self.parts.pop()
                if p >> 8 > self.best:
                    from shared_rules.moonstar.pairs import part

                    self.prep = part(self, p >> 8, p >> 4 & 15, p & 15)
            else:
                self.result = _plan(self)
                # free the tables: the board's heap is small (and a solve
                # still held somewhere then holds little)
                del self.kids, self.uni, self.capx, self.mask, self.ch, self.ubs, self.per2, self.same, self.chosen, self.choice
                return self.result
        return None

    def _search(self, budget):
        """The search, until `budget` nodes are spent (returns what is
        left: 0) or the part is searched (the search is back at the root)."""
        kids, ptr, ch, n, slack, mask = self.kids, self.ptr, self.ch, self.n, self.slack, self.mask
        full = self.full
        alpha = self.alpha
        while budget > 0:
            i = self.depth
            if i < 0:
                return budget
            c = ch[i]
            if 0 <= c < _SKIP:  # take back this moon's landing
                n[c] -= 1
                self.cur -= alpha * n[c] + 1
                self.placed -= 1
                A = S = mask[i * STARS + c]
                while S < full:  # every superset S of A
                    slack[S] += 1
                    S = (S + 1) | A
            ch[i] = _NONE
            if not ptr[i] or self.ubs[i] <= self.best:
                self.depth = i - 1
                continue
            ptr[i] -= 1
            c = kids[i * 13 + ptr[i]]
            budget -= 1
            self.units += 1
            if c < _SKIP:
                A = S = mask[i * STARS + c]
                while S < full and slack[S]:
                    S = (S + 1) | A
                if S < full:
                    continue  # Hall: no dice left that could do it
                S = A
                while S < full:
                    slack[S] -= 1
                    S = (S + 1) | A
                self.cur += alpha * n[c] + 1
                n[c] += 1
                self.placed += 1
            ch[i] = c
            r = self.need - self.placed
            dominated = 0
            last = self.last
            for s in range(STARS):
                if last[s] == i and n[s] == 1:
                    dominated = 1  # its moon staying out is the same plan, searched too
            if dominated:
                continue
            # The moves chosen so far, then any r more (every die moves
            # every moon somewhere, and each move adds at least 1): a
            # score the set-up allows.
            if self.cur + r > self.best:
                self.best = self.cur + r
                self.choice = ch[: i + 1] + [_SKIP] * (self.M - 1 - i)
                self.chosen = (self.order, bytes(self.mask))  # the positions' tables (reused by later parts)
            if r and i + 1 < self.M:
                ub = self.cur + self._bound(i + 1, r)
                if ub > self.best and self.pairbound is not None:
                    # (part of this node's unit: a step never does more units than its budget)
                    ub = min(ub, self.pairbound(self, self.caps))
                if ub > self.best:
                    self._children(i + 1)
                    self.ubs[i + 1] = ub
                    self.depth = i + 1
        return 0


def _plan(self):
    """The best landings with their dice (Hall says they exist), listed
    star by star: the best order for chains."""
    choice = self.choice
    order, mask = self.chosen  # the tables of the part that found it
    M = len(choice)  # positions (a part's are more than the moons: pairs.part)
    masks = [0 if c == _SKIP else mask[i * STARS + c] for i, c in enumerate(choice)]
    got = [0] * M
    load = [0] * len(self.vals)
    for i in range(M):
        if masks[i] and not _augment(i, masks, got, load, self.count, [0] * M):
            raise AssertionError("solver: no dice for a Hall-checked plan")  # a bug, never bad input
    dice = list(self.sit["dice"])
    plan = []
    moved = [0] * 16
    for i in range(M):
        if masks[i]:
            j = dice.index(self.vals[got[i] - 1])
            dice[j] = 0
            moved[order[i] & 15] = 1
            plan.append({"moon": order[i] & 15, "die": j, "to": choice[i]})
    # The search may stop short of a complete plan (the rest of the moves
    # add at least 1 each, wherever they go): the moons and dice left
    # make the rest, each onto the biggest pile it can reach.
    pile = [0] * STARS
    for move in plan:
        pile[move["to"]] += 1
    moons = self.sit["moons"]
    for i in range(M):
        if moved[order[i] & 15] or len(plan) == self.need:
            continue
        pick = None
        for j in range(len(dice)):
            if dice[j]:
                for to in destinations(moons[order[i] & 15], dice[j], self.sit["movement"]):
                    if pick is None or pile[to] > pile[pick[1]]:
                        pick = (j, to)
        if pick is None:
            raise AssertionError("solver: a moon left with no die")  # a bug, never bad input
        dice[pick[0]] = 0
        pile[pick[1]] += 1
        moved[order[i] & 15] = 1
        plan.append({"moon": order[i] & 15, "die": pick[0], "to": pick[1]})
    best = 0
    for k in pile:
        best += k * (self.alpha * (k - 1) + 2) // 2
    if best != self.best:
        raise AssertionError("solver: plan scores %d, search %d" % (best, self.best))  # a bug, never bad input
    plan.sort(key=lambda move: move["to"] * 16 + move["moon"])
    return {"best": self.best, "plan": plan, "favorite": None}


