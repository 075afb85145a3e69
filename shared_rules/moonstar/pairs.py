"""A second bound for squares and chains (shared_rules.moonstar.piles), for
the nodes the first one does not cut: no two stars can end with more
moons between them than a matching of all the moons into that pair of
stars allows (Q, worked out once per solve, a pair per unit of work).
docs/solver.md gives the argument. In its own module so that each part
of the solver compiles within the board's small heap."""

from shared_rules.moonstar.board import STARS
from shared_rules.moonstar.matching import _augment, _fill


def pairs(self):
    """Generator: Q[s*12+t] = most moons landing on s or t at once (one
    matching a pair, one unit of work each; Q[s*12+s] = capx of s), then
    the parts of the search, from its root."""
    # back to the root: the parts start from it
    slack = self.slack
    for S in range(self.full):
        slack[S] = self.slack0[S]
    for s in range(STARS):
        self.n[s] = 0
    self.cur = self.placed = 0
    self.depth = -1
    self._bound(0, self.need)  # the root's caps, for ranking the parts
    M = self.M
    mask = self.mask
    Q = self.Q = bytearray(STARS * STARS)
    for s in range(STARS):
        Q[s * STARS + s] = self.capx[s]
        for t in range(s + 1, STARS):
            masks = [mask[i * STARS + s] | mask[i * STARS + t] for i in range(M)]
            got = [0] * M
            load = [0] * len(self.count)
            k = 0
            for i in range(M):
                if masks[i]:
                    k += _augment(i, masks, got, load, self.count, [0] * M)
            Q[s * STARS + t] = Q[t * STARS + s] = k
            yield
    # the search's parts: for each star s1 and size x of the biggest pile,
    # those whose bound beats the best plan known, the most promising
    # last. Every plan's biggest pile is one of them, so searching each
    # part (piles.py) searches every plan.
    parts = []
    caps = self.caps
    for s1 in range(STARS):
        for x in range(1, caps[s1] + 1):
            self.s1 = s1
            self.x1 = x
            b = bound(self, caps)
            if b > self.best:
                parts.append((b * 16 + s1) * 16 + x)  # small ints: the board's heap is small
    self.s1 = -1
    parts.sort()
    self.parts = parts


def bound(self, caps):
    """Upper bound on the score of any complete plan below the current
    node: `caps[s]` bounds how many more moons star s can take. For each
    star s1 and each final size x of its pile, taken as the biggest pile,
    every other star u ends with between n[u] and min(n[u] + caps[u],
    Q[s1][u] - x, x) moons; the moves left go to those ranges as in
    piles.py' own bound (the smaller of two greedy relaxations)."""
    n = self.n
    Q = self.Q
    alpha = self.alpha
    total = self.need
    best = 0
    only = self.s1  # searching the plans whose biggest pile is x1 on s1 only
    for s1 in range(STARS):
        if only >= 0 and s1 != only:
            continue
        top = n[s1] + caps[s1]
        x = n[s1] if n[s1] else 1
        if only >= 0:
            if top < self.x1:
                return 0  # s1 cannot reach its pile
            x = top = self.x1
            want = x - n[s1]  # moves s1 still needs
            per2 = self.per2  # (None while pairs() ranks the parts: no part has begun)
            slack = self.slack
            k = len(self.count)
            j0 = self.pos * STARS * k
        while x <= top:
            extra = total - x
            score = x * (alpha * (x - 1) + 2) // 2
            by_n = []
            by_cap = []
            by_chord = []
            room = 0
            for u in range(STARS):
                if u == s1:
                    continue
                lo = n[u]
                hi = min(lo + caps[u], Q[s1 * STARS + u] - x, x)
                if only >= 0 and per2 is not None:
                    # the moves into s1 and u together, number by number,
                    # less what s1 still needs
                    t = 0
                    j = j0 + u * k
                    for b in range(k):
                        t += min(slack[1 << b], per2[j + b])
                    if lo + t - want < hi:
                        hi = lo + t - want
                if hi < lo:
                    extra = -1  # no plan has this pile of x on s1
                    break
                score += lo * (alpha * (lo - 1) + 2) // 2
                extra -= lo
                w = hi - lo
                if w > 0:
                    room += w
                    by_n.append(lo * 32 + w)
                    by_cap.append(w * 32 + w)
                    by_chord.append((2 * lo + w - 1) * 32 + w)
            if extra >= 0:
                if extra > room:
                    extra = room
                t1 = 2 * _fill(by_n, extra, 0) + _fill(by_cap, extra, 1)
                t2 = _fill(by_chord, extra, 0)
                score += alpha * (min(t1, t2) >> 1) + extra
                if score > best:
                    best = score
            x += 1
    return best
