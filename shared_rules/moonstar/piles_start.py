"""The first steps of a squares or chains solve (shared_rules.moonstar.piles):
the search's tables for an order of the moons (Piles.tables), then a
first plan built pile by pile, so that the search starts from a good
score and usually only has to confirm it. Generators, one unit of work
per item, so that a device running the solve in slices never does more
than a unit at a time. Nothing else imports it: a device lets it go once
the search goes in parts (pairs.py), which never needs it."""


try:
    from micropython import const
except ImportError:  # CPython

    def const(__expr):  # positional-only, like the stub: see shared_rules/ticks.py
        return __expr


_STARS = const(12)  # as in piles.py
_SKIP = const(12)  # as in piles.py: "this moon gets no die"
_PLAIN = const(8)  # units of plain search before the search goes in parts


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
    yield from self.tables(keys)
    self._children(0)
    self.ubs[0] = self._bound(0, self.need)
    if self.ubs[0] > 0:
        yield from _greedy(self)
    # The plain search first: a set-up whose first plan its root bound
    # nearly proves ends within _PLAIN units; a search still going then
    # starts again in parts (Piles.step), with the pairs' bound, whose
    # tables it only then makes. (Of 1,000 random Game 7 and 8 set-ups,
    # 40% go in parts after 64 units of plain search, 43% after 8: the
    # other 56 units finish few, and cost the rest some 100 ms on a Pico.)
    self.slack0 = bytes(self.slack)
    self.plain = self.units + _PLAIN


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
    for s in range(_STARS):
        top = max(top, capx[s])
    # each moon's use to the big piles: the capx^2 of the stars it
    # reaches (_pile orders a pile's moons by it, less the pile's own);
    # reach0[t]: the moons that reach star t
    use = [0] * M
    reach0 = bytearray(_STARS)
    for i in range(M):
        for t in range(_STARS):
            if mask[i * _STARS + t]:
                use[i] += capx[t] * capx[t]
                reach0[t] += 1
    for first in range(_STARS):
        if capx[first] < top or self.best >= self.ubs[0] or self._turned(first):
            continue  # (a plan at the bound is the best: no more tries;
            # a star short of the biggest pile is left to the search in
            # parts, whose bounds are cheaper than more tries here)
        got = [0] * M
        load = [0] * (len(count) + 1)  # (load[k]: _augment's)
        masks = [0] * M
        choice = [_SKIP] * M
        reach = bytearray(reach0)  # the moons left (no move yet) that reach each star
        left = self.need
        score = 0
        s = first
        single = 0  # once no star can take two more moons: the piles full (a bit a star)
        while left > 0:
            if single:
                # No star can take two more moons, nor ever will (fewer are
                # left to share): each move left is one moon, onto the
                # biggest pile that can still take one (joining a pile of
                # n scores alpha * n + 1); once none can, 1 point each,
                # wherever it goes (the score below counts them)
                piles = []
                for t in range(_STARS):
                    k = choice.count(t)
                    if k and not single >> t & 1:
                        piles.append(k * 16 + 15 - t)
                piles.sort()
                for j in range(len(piles) - 1, -1, -1):
                    t = 15 - (piles[j] & 15)
                    k = _pile(self, t, masks, got, load, 1, True, use)
                    yield
                    if k:
                        s = t
                        break
                    single |= 1 << t  # (nor later: fewer moons and dice left)
                if s < 0:
                    break
            else:
                if s < 0:  # the star taking the most moons now
                    # the stars by the most moons they could take (ties: the
                    # lower star first, as the pile kept on a tie), so that a
                    # trial pile that takes them all settles the step
                    cand = []
                    for t in range(_STARS):
                        k = reach[t]  # (the least of reach, capx and left, without a builtin call)
                        if capx[t] < k:
                            k = capx[t]
                        if left < k:
                            k = left
                        if k:
                            cand.append(k * 16 + 15 - t)
                    cand.sort()
                    most = 0
                    for j in range(len(cand) - 1, -1, -1):
                        t = 15 - (cand[j] & 15)
                        if cand[j] >> 4 < most or cand[j] >> 4 == most and t > s:
                            break  # no star left can take more (or as many, lower)
                        k = _pile(self, t, masks, got, load, left, False, use)
                        yield
                        if k > most or k == most and t < s:
                            most = k
                            s = t
                    if s < 0:
                        break
                k = _pile(self, s, masks, got, load, left, True, use)
                yield
                if k < 2:
                    single = 1 << _STARS
            for i in range(M):
                if masks[i] and choice[i] == _SKIP:
                    choice[i] = s
                    for t in range(_STARS):  # (no longer left for the stars it reaches)
                        if mask[i * _STARS + t]:
                            reach[t] -= 1
            left -= k
            s = -1
        score = left  # the moves left add at least 1 each, wherever they go
        for t in range(_STARS):
            k = choice.count(t)
            score += k * (self.alpha * (k - 1) + 2) // 2
        if score > self.best:
            self.best = score
            self.choice = choice
            self.chosen = (self.order, bytes(self.mask))  # the positions' tables


def _pile(self, s, masks, got, load, left, keep, use):
    """How many unused moons can land on star s at once, keeping the moves
    already chosen (at most `left`); with `keep` they are added to the
    matching (masks/got/load), else the matching is left as it was."""
    M = self.M
    mask = self.mask
    if not keep and not self.multi:
        # A trial under standard moves: a moon reaches s with one number
        # and a matching never moves a moon (_augment), so the moons
        # below take, number by number, the dice left of theirs (in
        # whatever order), up to `left`: counted, with no copies
        free = self._free(load)
        k = 0
        for i in range(M):
            a = mask[i * _STARS + s] % 11
            if a and not masks[i] and free[a]:
                free[a] -= 1
                k += 1
        return k if k < left else left
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
        if not masks[i] and mask[i * _STARS + s]:
            order.append((use[i] - capx[s] * capx[s]) * 16 + i)
    order.sort()
    for w in order:
        i = w & 15
        if k < left:
            masks[i] = mask[i * _STARS + s]
            if self._augment(i, masks, got, load):
                k += 1
            else:
                masks[i] = 0
    return k
