"""The first steps of a squares or chains solve (shared_rules.moonstar.piles):
the search's tables for an order of the moons (with a matching per star),
then a first plan built pile by pile, so that the search starts from a
good score and usually only has to confirm it. Generators, one unit of
work per item, so that a device running the solve in slices never does
more than a unit at a time. In its own module so that each part of the
solver compiles within the board's small heap."""

from shared_rules.moonstar.board import STARS, destinations
from shared_rules.moonstar.matching import _augment

try:
    from micropython import const
except ImportError:  # CPython

    def const(__expr):  # positional-only, like the stub: see shared_rules/ticks.py
        return __expr


_SKIP = const(12)  # as in piles.py: "this moon gets no die"
PLAIN = const(64)  # units of plain search before the search goes in parts


def prep(self):
    """Generator: capx star by star (a matching each), then the search's
    root, then the first plan (_greedy); one unit of work per item."""
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
    # piles_parts.part.
    if len(self.mask) != M * STARS:
        self.mask = bytearray(M * STARS)
        self.uni = bytearray((M + 1) * STARS)
        self.capx = bytearray((M + 1) * STARS)
    self.order = order
    mask = self.mask
    uni = self.uni
    for i in range(M * STARS):
        mask[i] = 0
    self.same = [i > 0 and order[i - 1] >> 4 == order[i] >> 4 and moons[order[i - 1] & 15] == moons[order[i] & 15] for i in range(M)]
    s1 = self.s1
    for i in range(M - 1, -1, -1):
        f = order[i] >> 4
        for b in range(k):
            for to in destinations(moons[order[i] & 15], vals[b], sit["movement"]):
                if f == 0 or (to == s1) == (f == 1):
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
    yield
    capx = self.capx
    for s in range(STARS):
        masks = [mask[i * STARS + s] for i in range(M)]
        got = [0] * M
        load = [0] * len(self.count)
        for i in range(M - 1, -1, -1):
            capx[i * STARS + s] = capx[i * STARS + STARS + s] + _augment(i, masks, got, load, self.count, [0] * M)
        yield


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
        if capx[first] < top or self.best >= self.ubs[0] or _turned(self.sit, first):
            continue  # (a plan at the bound is the best: no more tries;
            # a star short of the biggest pile is left to the search in
            # parts, whose bounds are cheaper than more tries here)
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
                    if capx[t] <= most:
                        continue  # it cannot take more moons than that
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


def _turned(sit, s1):
    """Whether a turn of the ring (or, under standard moves, a mirror)
    that leaves as many moons on every star takes star s1 to a smaller
    one: every plan around s1 is then one around that star, turned,
    scoring the same."""
    moons = sit["moons"]
    for k in range(1, 2 * STARS if sit["movement"] == "standard" else STARS):
        # k < 12: s -> s + k; k >= 12: s -> k - s (Game 9's moves are not mirrored)
        if (k + (s1 if k < STARS else -s1)) % STARS < s1:
            for s in range(STARS):
                if moons.count(s) != moons.count((k + (s if k < STARS else -s)) % STARS):
                    break
            else:
                return True
    return False
