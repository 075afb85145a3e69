"""Squares and chains for shared_rules.moonstar.solver: an exact branch and bound
over each moon's landing star (symmetry between equal moons, Hall's theorem
for the dice, a relaxation bound); docs/solver.md gives the argument. Its
first steps are piles_start.py, its search in parts pairs.py, its plan
piles_plan.py; what they share with the search (the tables, the matching
step, the greedy fill, the set-up's symmetries) are Piles methods, so
none imports another.
"""

from shared_rules.moonstar.board import destinations

try:
    from micropython import const
except ImportError:  # CPython

    def const(__expr):  # positional-only, like the stub: see shared_rules/ticks.py
        return __expr


_STARS = const(12)  # board.STARS (tests/rules/test_solver_piles.py checks)
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
        self.mask = self.uni = self.capx = bytearray(0)
        self.same = []
        self.plain = 0
        self.n = [0] * _STARS
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
        self.his = bytearray(_STARS)  # the second bound's ranges (pairs.bound)
        self.bits = []  # pairs._table's ints of the sets holding each number
        self.rows = bytearray(0)  # each moon's numbers into each star (tables)
        self.multi = 0  # whether a moon reaches a star with two numbers (tables)
        self.pairbound = None  # pairs.bound, once its table is made
        self.kp = 0  # the pair of stars (u * 16 + v) that last kept a node open (pairs._two)
        # the part searched: plans whose biggest pile is x1 moons on star
        # s1 (-1: every plan); parts: the parts left (pairs.pairs)
        self.s1 = -1
        self.x1 = 0
        self.R = 0  # a part's first-pass positions (its moons that reach s1; pairs.part)
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
        uni = self.uni
        slack = self.slack
        full = self.full
        keys = []
        top = 0
        out = 1  # whether this moon may get no die (or wait)
        if self.order[i] & 16 and self.R - i <= self.x1 - n[self.s1]:
            # a part's first pass: the moons from here on are no more
            # than s1 still needs, so this one cannot wait
            out = 0
        elif self.order[i] & 32:
            # a part's second pass (pairs.part): R positions back is
            # this moon's first; a moon gone to s1 there stays, and the
            # one before it in its group may have (it then ranks first)
            R = self.R
            s1 = self.s1
            if ch[i - R] == s1:
                mask = b""
            else:
                if lo and ch[i - 1 - R] == s1:
                    lo = 0
                # It waited. Out beside a moon b gone to s1 whose numbers
                # into s1 are all its own, it is the plan with it on s1
                # (with b's die) and b out: the same piles and dice. Only
                # the one with the moon of more numbers on s1 (of as
                # many, the earlier) is searched: each such swap raises
                # the first or lowers the second, so of every plan one
                # that none changes is searched.
                a = mask[(i - R) * _STARS + s1]
                for b in range(R):
                    if ch[b] == s1:
                        m = mask[b * _STARS + s1]
                        if m & a == m and (m != a or b > i - R):
                            out = 0
                            break
        j = i * _STARS  # (this position's row; the next one's at j + 12)
        x1 = self.x1 if self.s1 >= 0 else 99  # (in a part no pile goes past x1)
        for s in range(_STARS):
            pile = n[s] + capx[j + _STARS + s]
            if pile > top:  # (no builtin max: a hot loop)
                top = pile
            # a moon alone on a star scores what it would score anywhere
            # (see step): it only goes where a later moon can still join
            # it (one reaches it, and some set of numbers that takes the
            # later moons there still has dice: slack[uni] > 0)
            if s >= lo and mask and mask[j + s] and (n[s] or capx[j + _STARS + s] and slack[uni[j + _STARS + s]]) and n[s] < x1:
                # Hall: some set of numbers holding the moon's would be
                # short of dice (the slack is the same when the option
                # is taken: its siblings are taken back before)
                A = S = mask[j + s]
                while S < full and slack[S]:
                    S = (S + 1) | A
                if S >= full:
                    keys.append(((pile + 1) * 16 + n[s]) * 16 + s)
        if out:
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
        j = i * _STARS
        by_n = []
        by_cap = []
        by_chord = []
        for s in range(_STARS):
            c = capx[j + s]
            if c:  # (min(c, slack, r), without a builtin call: a hot loop)
                a = slack[uni[j + s]]
                if a < c:
                    c = a
                if r < c:
                    c = r
                if c:
                    by_n.append(n[s] * 32 + c)
                    by_cap.append(c * 33)
                    by_chord.append((2 * n[s] + c - 1) * 32 + c)
        # doubled: 2 sum n_s a_s + sum a_s (a_s - 1), each greedily; or the chord
        t1 = 2 * self._fill(by_n, r, 0) + self._fill(by_cap, r, 1)
        t2 = self._fill(by_chord, r, 0)
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
                # the plan's code comes only now: every pass of the search
                # before holds less (piles_plan.py)
                from shared_rules.moonstar.piles_plan import plan

                self.result = plan(self)
                # free the tables: the board's heap is small (and a solve
                # still held somewhere then holds little)
                del self.kids, self.uni, self.capx, self.mask, self.ch, self.ubs, self.per2, self.same, self.chosen, self.choice, self.bits, self.rows
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
                A = S = mask[i * _STARS + c]
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
            if c < _SKIP:  # (dice left for it: _children asked Hall)
                A = S = mask[i * _STARS + c]
                while S < full:
                    slack[S] -= 1
                    S = (S + 1) | A
                self.cur += alpha * n[c] + 1
                n[c] += 1
                self.placed += 1
            ch[i] = c
            r = self.need - self.placed
            dominated = 0
            capx = self.capx
            uni = self.uni
            j = i * _STARS + _STARS
            s = -1
            for _ in range(n.count(1)):  # (the stars holding one moon, found in C)
                s = n.index(1, s + 1)
                if not (capx[j + s] and slack[uni[j + s]]):
                    # no later moon can join it (none reaches it, or no
                    # dice are left for those that do): its moon staying
                    # out is the same plan, searched too
                    dominated = 1
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
                if self.pairbound is None:
                    ub = self.cur + self._bound(i + 1, r)
                else:
                    # a part: its own bound (pairs.bound), which makes
                    # the caps of this one itself (part of this node's
                    # unit: a step never does more units than its budget)
                    ub = self.pairbound(self, i + 1, r)
                if ub > self.best:
                    i += 1
                    self._children(i)
                    while ptr[i] == 1 and kids[i * 13] == _SKIP and i + 1 < self.M:
                        # Its one option is no die (in a part, a moon of
                        # the first pass that cannot go to s1, or one of
                        # the second gone there): nothing changes but the
                        # position, so it is part of this node (its bound
                        # is this node's), the next position's options at once
                        ptr[i] = 0
                        ch[i] = _SKIP
                        self.ubs[i] = ub
                        j = i * _STARS + _STARS
                        s = -1
                        for _ in range(n.count(1)):
                            s = n.index(1, s + 1)
                            if not (capx[j + s] and slack[uni[j + s]]):
                                dominated = 1
                        if dominated:
                            break  # (as in a node: its moon out is searched)
                        i += 1
                        self._children(i)
                    self.ubs[i] = ub
                    self.depth = i
        return 0


    # What the first steps (piles_start) and the search in parts (pairs)
    # share with the search: methods, so that neither imports this module
    # (nor the other), and a device can let piles_start go once the search
    # is in parts.

    def _fill(self, keys, r, pairs):
        """Greedy fill of r units from keys (weight * 32 + amount), heaviest
        first: the total weight. With `pairs`, an amount a taken from a key of
        amount c weighs a * (a - 1) (convex, so largest first is optimal)."""
        keys.sort()
        total = 0
        k = len(keys) - 1
        while r > 0 and k >= 0:
            c = keys[k] & 31
            if r < c:
                c = r
            total += c * (c - 1) if pairs else (keys[k] >> 5) * c
            r -= c
            k -= 1
        return total


    def _augment(self, i, masks, got, load):
        """Give position i a number its mask allows (got[i] = bit + 1), moving
        others to other numbers if need be (augmenting path): 1 if done, else 0.
        load[b] counts positions holding bit b; count[b]: the dice showing it.

        load[k] (k numbers) holds, a bit a number, the numbers no path can
        go through: those a failed search of the same matching went
        through (each is full, and the positions holding its dice reach
        no number outside that set, so no path through them ends on a
        free die; while positions are only added, a path that succeeds
        never goes through them, so that stays so), and during a search
        those it has been through (Kuhn's search: a number visited
        once). A search that succeeds gives back the first kind only."""
        a = masks[i]
        count = self.count
        if not self.multi:
            # Every moon reaches a star with one number: a is one bit, b
            # (2^b % 11 are distinct: pairs._sets), and no moon can make room
            b = b"\0\0\1\0\2\4\0\0\3\0\5"[a % 11]
            if load[b] < count[b]:
                got[i] = b + 1
                load[b] += 1
                return 1
            return 0
        for b in range(len(count)):
            if a >> b & 1 and load[b] < count[b]:
                got[i] = b + 1
                load[b] += 1
                return 1
        k = len(count)
        d = load[k]
        for b in range(k):
            if a >> b & 1 and not load[k] >> b & 1:
                load[k] |= 1 << b
                j = 0
                for _ in range(load[b]):  # (the positions holding b, in order: a path that fails gives back what it took)
                    j = got.index(b + 1, j)
                    got[j] = 0  # j moves to another number, i takes b
                    if self._augment(j, masks, got, load):
                        got[i] = b + 1
                        load[k] = d
                        return 1
                    got[j] = b + 1
                    j += 1
        return 0


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
        # A position is a moon (order[i] & 15), in a part's first pass (flag
        # 16: only its moves into s1) or second (flag 32: none into s1); see
        # pairs.part.
        if len(self.mask) != M * _STARS:
            self.mask = bytearray(M * _STARS)
            self.uni = bytearray((M + 1) * _STARS)
            self.capx = bytearray((M + 1) * _STARS)
        self.order = order
        mask = self.mask
        uni = self.uni
        rows = self.rows
        if not rows:
            # rows[m*12+s]: the numbers taking moon m to s, whatever the
            # position (made once: each part's tables copy them)
            rows = self.rows = bytearray(len(moons) * _STARS)
            for m in range(len(moons)):
                for b in range(k):
                    for to in destinations(moons[m], vals[b], sit["movement"]):
                        rows[m * _STARS + to] |= 1 << b
            # Whether a moon reaches some star with two numbers (Game 9's
            # moves; under standard moves a star is one number away): if
            # not, a moon holding a die can never take another, and a
            # matching needs no augmenting path (_augment)
            for r in rows:
                if r & (r - 1):
                    self.multi = 1
                    break
        self.same = [i > 0 and order[i - 1] >> 4 == order[i] >> 4 and moons[order[i - 1] & 15] == moons[order[i] & 15] for i in range(M)]
        s1 = self.s1
        none = bytes(_STARS)
        for i in range(M - 1, -1, -1):
            f = order[i] >> 4
            j = i * _STARS
            m = (order[i] & 15) * _STARS
            if f == 1:  # its moves into s1 only
                mask[j:j + _STARS] = none
                mask[j + s1] = rows[m + s1]
            else:
                mask[j:j + _STARS] = rows[m:m + _STARS]
                if f == 2:  # none into s1
                    mask[j + s1] = 0
            for s in range(_STARS):
                uni[j + s] = uni[j + _STARS + s] | mask[j + s]
        yield
        capx = self.capx
        for s in range(_STARS):
            if not self.multi:
                # Under standard moves a moon reaches s with one number
                # and a matching never moves a moon (_augment): each takes
                # a die of its number left, or none; no call a moon
                free = self._free(None)
                for i in range(M - 1, -1, -1):
                    j = i * _STARS + s
                    a = mask[j] % 11
                    if a and free[a]:
                        free[a] -= 1
                        capx[j] = capx[j + _STARS] + 1
                    else:
                        capx[j] = capx[j + _STARS]
                yield
                continue
            masks = [mask[i * _STARS + s] for i in range(M)]
            got = [0] * M
            load = [0] * (k + 1)  # (load[k]: _augment's)
            for i in range(M - 1, -1, -1):
                capx[i * _STARS + s] = capx[i * _STARS + _STARS + s] + (self._augment(i, masks, got, load) if masks[i] else 0)
            yield


    def _free(self, load):
        """The dice left of each rolled number, at [2^b % 11] for number b
        (distinct for b < 6: pairs._sets), so that under standard moves a
        moon's mask (one number) finds its number's dice with no search;
        `load`: the dice a matching holds, by number (None: none)."""
        free = bytearray(11)
        count = self.count
        for b in range(len(count)):
            free[(1 << b) % 11] = count[b] - load[b] if load else count[b]
        return free

    def _turned(self, s1):
        """Whether a turn of the ring (or, under standard moves, a mirror)
        that leaves as many moons on every star takes star s1 to a smaller
        one: every plan around s1 is then one around that star, turned,
        scoring the same."""
        sit = self.sit
        moons = sit["moons"]
        for k in range(1, 2 * _STARS if sit["movement"] == "standard" else _STARS):
            # k < 12: s -> s + k; k >= 12: s -> k - s (Game 9's moves are not mirrored)
            if (k + (s1 if k < _STARS else -s1)) % _STARS < s1:
                for s in range(_STARS):
                    if moons.count(s) != moons.count((k + (s if k < _STARS else -s)) % _STARS):
                        break
                else:
                    return True
        return False
