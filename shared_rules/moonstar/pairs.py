"""The search in parts for squares and chains (shared_rules.moonstar.piles),
once the plain search has run long: the parts, ranked by a second bound
(pairs), each started in turn (part), and that bound for the nodes the
first one does not cut: no two stars can end with more moons between
them than the moons left can still add into that pair of stars with the
dice left (by Hall's theorem: exact), of which the biggest pile's star
still needs its share; and no two other stars more than the moons left
can add into them and that star (_two). docs/solver.md gives the
argument. Loaded only for a search in parts: most set-ups' solves end
before."""

from shared_rules.moonstar.board import STARS


def _root(self):
    """Back to the search's root: no moons placed, every die left."""
    slack = self.slack
    for S in range(self.full):
        slack[S] = self.slack0[S]
    for s in range(STARS):
        self.n[s] = 0
    self.cur = self.placed = 0


def pairs(self):
    """Generator: the parts of the search, from its root, ranked by their
    bound (a star a unit of work)."""
    _root(self)  # the parts start from it
    self.depth = -1
    # the search's parts: for each star s1 and size x of the biggest pile,
    # those whose bound beats the best plan known, the most promising
    # last. Every plan's biggest pile is one of them, so searching each
    # part (piles.py) searches every plan.
    parts = []
    # x0: the smallest biggest pile a better plan may have. With every
    # pile at most x, the need moves score at most need // x piles of x
    # and one of the rest (the score is convex in each pile), so a part
    # with a smaller x has no plan beating the best: no bound asked
    need = self.need
    a = self.alpha
    x0 = 1
    while x0 < need and (need // x0) * x0 * (a * (x0 - 1) + 2) // 2 + need % x0 * (a * (need % x0 - 1) + 2) // 2 <= self.best:
        x0 += 1
    for s1 in range(STARS):
        self.s1 = s1
        self.per2 = _table(self)
        if not self._turned(s1):  # (else that star's parts, turned, are these)
            # the most moons s1 can take (bound's cap at the root)
            c = self.capx[s1]
            if self.slack[self.uni[s1]] < c:
                c = self.slack[self.uni[s1]]
            if need < c:
                c = need
            for x in range(x0, c + 1):
                self.x1 = x
                b = bound(self, 0, need, True)
                if b > self.best:
                    parts.append((b * 16 + s1) * 16 + x)  # small ints: the board's heap is small
        yield
    self.s1 = -1
    parts.sort()
    self.parts = parts


def part(self, ub, s1, x):
    """Generator: start the part of the search whose biggest pile is x
    moons on star s1, in two passes over the moons: first each moon that
    can reach s1 goes there or waits (position flag 16: its numbers into
    s1 only), then those that waited and the others go anywhere else or
    nowhere (flag 32: a waiting moon's second position, never into s1).
    So s1's pile is decided first, and the bounds then see exactly which
    moons and dice are left for the other stars (see bound); every
    plan of the part is still searched once. New tables, in units of
    work."""
    moons = self.sit["moons"]
    rows = self.rows  # (each moon's numbers into each star: Piles.tables)
    # the moons that can reach s1, as (numbers into s1 * 16 + start) * 16
    # + moon: the first pass takes them by the numbers that take them
    # there (equal moons stay together), so the moons that compete for
    # the same dice are decided together (on the hardest squares set-up,
    # 464 units -> 421; on 160 hard random Game 7/8 set-ups, 1-2% fewer)
    keys = []
    rest = []  # the others
    for m in range(len(moons)):
        a = rows[m * STARS + s1]  # its numbers into s1
        if a:
            keys.append((a * 16 + moons[m]) * 16 + m)
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
    self.R = R
    if len(self.ptr) != M + 1:
        self.kids = bytearray((M + 1) * 13)
        self.ptr = bytearray(M + 1)
        self.ch = [-1] * (M + 1)
        self.ubs = [0] * (M + 1)
    self.s1 = s1  # (the tables' masks follow the flags for s1)
    yield from self.tables(keys)
    self.per2 = _table(self)
    self.x1 = x
    _root(self)
    if self.need > self.best:
        # The root is a plan too: no move yet, each of the plan's moves
        # adding at least 1 (a solve's first plan is never below it; a
        # part's first moons may have no option that is not cut)
        self.best = self.need
        self.choice = [STARS] * M  # (12: no die)
        self.chosen = (self.order, bytes(self.mask))
    self._children(0)
    self.ubs[0] = ub
    self.depth = 0


def _table(self):
    """The pairs' Hall counts for a star s1, before any moon is counted:
    for each star u, an int whose byte T counts the moons from position
    [12] on whose numbers into s1 or u (into s1 alone for u = s1) are some
    and all in the set T of numbers (brought to the position a bound
    needs by _move; from the last: no moons); [13 + 2^b % 11]: the int
    with byte T 1 for the sets T holding number b (_sets); [13]: the int
    with every byte 16 (bound's offset; 2^b % 11 is never 0). Ints, so
    that the 2^k sets are added and compared in the interpreter's C, not
    a loop each."""
    t = [0] * STARS + [self.M]
    self.waited = 0  # (bound: the waiting moons it counts)
    bits = self.bits  # (the same for every s1: made once)
    if not bits:
        full = self.full
        bits += [0] * 11
        bits[0] = int.from_bytes(b"\x10" * full, "little")
        for b in range(len(self.vals)):
            bits[(1 << b) % 11] = int.from_bytes(bytes(T >> b & 1 for T in range(full)), "little")
    return t + bits


def bound(self, i, r, rank=False):
    """Upper bound on the score of any complete plan below the current
    node of the part whose biggest pile is x1 moons on s1 (part;
    pairs() ranks the parts with it, from the root), the moons from
    position i on to come with r moves left. Star s can take at most
    caps more moons: as many as the moons from i on can land there
    together with the full dice (capx), cut to the slack of the numbers
    that take them there and to r (piles.py's own bound's caps, made
    here: in a part that bound is this one). Every other star u ends
    with between n[u] and min(n[u] + caps, x1) moons, and no more than
    the moves the moons left can add into s1 and u together less what
    s1 still needs; the moves left go to those ranges as in piles.py'
    own bound (the smaller of two greedy relaxations), and, for a node
    that would not be cut, no two of those stars take more moves than
    Hall's count for them and s1 allows (_two). Moves beyond the ranges
    are moons left out of the piles: 1 each.

    The Hall counts are big-int work, the costliest part of a bound on a
    board. When pairs() ranks the parts (`rank`), the ranges without them
    come first: most parts are cut so (with them the bound could only be
    lower), and a part that is not gets the bound in full, so the value
    it is ranked by is the same either way. In the search, the nodes the
    piles' own bound left are almost never cut without them (none in the
    corpus), so the search does not try."""
    n = self.n
    x = self.x1
    s1 = self.s1
    self.pos = i
    capx = self.capx
    uni = self.uni
    sl = self.slack
    his = self.his
    j = i * STARS
    for u in range(STARS):
        c = capx[j + u]
        if c:  # piles._bound's cap, min(c, slack, r), inline: a call a star is 13 us on the chip
            a = sl[uni[j + u]]
            if a < c:
                c = a
            if r < c:
                c = r
        c += n[u]
        his[u] = c if c < x else x
    want = x - n[s1]  # moves s1 still needs
    if his[s1] < x:
        return 0  # s1 cannot reach its pile
    his[s1] = n[s1]  # (s1 has no range: x1, as _ranges counts it)
    if rank:
        b = _ranges(self, his, want, None)
        if b <= self.best:
            return b
    per2 = self.per2
    full = self.full
    p = self.pos
    _move(self, per2, p, s1)
    # and the moons that waited in the first pass, to come in the second
    # (part): what they count depends on the first pass, not only on the
    # position. The table keeps those it counts (self.waited, a bit a
    # first-pass position: the sum is the same in any order), so only
    # those that changed since the last bound are added or taken off
    mask = self.mask
    ch = self.ch
    R = self.R
    w = 0
    for j in range(p - R if p > R else 0, p if p < R else R):  # (j < p <= j + R)
        if ch[j] != s1:
            w |= 1 << j
    d = w ^ self.waited
    self.waited = w
    j = 0
    while d:  # (up to the last that changed)
        if d & 1:
            q = (j + R) * STARS
            for u in range(STARS):
                A = mask[q + u]
                if A:
                    A = _sets(per2, A) if A & (A - 1) else per2[13 + A % 11]  # (as in _move)
                    if w >> j & 1:
                        per2[u] += A
                    else:
                        per2[u] -= A
        d >>= 1
        j += 1
    # The most moves the moons left can add with the dice left, each moon
    # into its stars of per2[u]: by Hall's theorem for the moves made and
    # these together, min over every set T of numbers of slack[T] plus
    # the moons whose numbers are not all in T. Byte T of `slack` is
    # slack[T] + 16 (so that taking per2[u]'s byte T off never borrows);
    # per2[u]'s last byte counts the moons with some numbers (of them,
    # those with all in T are its byte T), so the difference's last byte
    # is slack[all] + 16 less them: the count is slack[all] + its least
    # byte - its last, with no shift. (s1's here; each other star's in
    # _ranges, as it lists the ranges.)
    slack = int.from_bytes(self.slack, "little") + per2[13]
    sl = self.slack[full - 1] - want
    if want:  # (a count is never below 0: s1's pile made, nothing to check)
        y = (slack - per2[s1]).to_bytes(full, "little")
        if sl + min(y) - y[-1] < 0:
            return 0  # the moons left cannot give s1 its pile
    return _ranges(self, his, want, (per2, slack, sl))


def _ranges(self, his, want, hall):
    """bound's sum: x1 on s1, every other star u between n[u] and
    his[u] moons (his[s1] = n[s1]: no range), the moves beyond them 1
    each; with `hall` (per2 and slack, as bound makes them), two other
    stars together as well (_two) where that may cut the node."""
    n = self.n
    alpha = self.alpha
    x = self.x1
    lo = n[self.s1]
    # the piles' score (cur: every star's) with x on s1, and the moves
    # left beyond the other stars' n[u] (placed: every star's)
    extra = self.need - x - self.placed + lo
    score = self.cur + (x * (alpha * (x - 1) + 2) - lo * (alpha * (lo - 1) + 2)) // 2
    by_n = []
    by_cap = []  # (w * 16 + u) * 32 + w: _fill's key, and _two's star
    by_chord = []
    if hall:
        per2, slack, sl = hall
        full = self.full
    for u in range(STARS):
        lo = n[u]
        w = his[u] - lo
        # An empty star with room for one moon at most is left out: it
        # weighs in no sum (its move, if any, is one of the extra moves,
        # 1 point), and in _two a pair with it takes at most one move
        # more than its other star, a move that adds nothing there
        if w > 1 or w > 0 and lo:
            if hall:
                # u's Hall count (as bound's for s1), only worth it while
                # u has room (s1 has none; and it is never below 0: at
                # least s1's, less what s1 needs, which bound checked)
                y = (slack - per2[u]).to_bytes(full, "little")
                t = sl + min(y) - y[-1]
                if t < w:
                    w = t
            if w > 1 or w > 0 and lo:
                by_n.append(lo * 32 + w)
                by_cap.append((w * 16 + u) * 32 + w)
                by_chord.append((2 * lo + w - 1) * 32 + w)
        if w < 0:
            return 0  # no plan has this pile of x on s1
    if extra < 0:
        return 0
    # (moves beyond the rooms are the moons left out of the piles: 1
    # each, wherever they go, as in piles.py's first bound)
    # cut: the most min(t, t2) below may be for the node to be cut; the
    # chord's sum first: a node it cuts alone needs neither greedy sum
    cut = 2 * ((self.best - score - extra) // alpha) + 1
    t2 = self._fill(by_chord, extra, 0)
    if t2 <= cut:
        return score + alpha * (t2 >> 1) + extra  # (the other sums could only lower it)
    t1 = self._fill(by_n, extra, 0) * 2
    t = t1 + self._fill(by_cap, extra, 1)
    if hall and t > cut and self.pos < self.M:
        # Not cut yet: the stars with moons already (the only ones
        # weighing in sum n_u a_u) take no more moves together than the
        # moons left can add into them and s1 (Hall's count, as for two
        # stars in _two) less what s1 still needs
        us = []
        for a in by_cap:  # (the stars with room)
            if n[a >> 5 & 15]:
                us.append(a >> 5 & 15)
        if len(us) > 1:
            k = _count(self, hall[0], hall[1], us, bytearray(self.full)) - want
            if k < extra:
                t -= t1
                t1 = self._fill(by_n, k, 0) * 2
                t += t1
    # the most the second greedy sum may be for the node to be cut
    lim = cut - t1
    if hall and t > cut and lim >= 0 and len(by_cap) > 1 and self.pos < self.M:
        # Not cut yet: two other stars together (_two)
        t = t1 + _two(self, by_cap, extra, hall[0], hall[1], want, lim, t - t1)
    return score + alpha * (min(t, t2) >> 1) + extra


def _two(self, by_cap, extra, per2, slack, want, lim, t):
    """The second greedy sum (of a(a - 1) over the other stars' moves to
    come; by_cap: their rooms w and stars u, as (w * 16 + u) * 32 + w,
    sorted (_fill did)),
    knowing that no two other stars u, v take more than the most moves
    the moons left can add into {s1, u, v} less what s1 still needs
    (Hall's count as in bound, for three stars): below `lim` if that
    cuts the node, else `t`, the sum without it."""
    ws = by_cap
    cnt = bytearray(self.full)  # moons a set of numbers (_count)
    # First the pair that last kept a node open: in a part the same pair
    # usually keeps the nodes around it open. The sum grows with what
    # two stars may take, so if what that pair can take (its Hall count,
    # within its rooms) already puts it over lim, the node is not cut,
    # with no search for m below; the answer is the same either way.
    kp = self.kp
    w = f = 0  # the pair's rooms, and how many of its stars have room
    for a in ws:
        if (a >> 5 & 15) == kp >> 4 or (a >> 5 & 15) == kp & 15:
            w += a & 31
            f += 1
    if kp and f == 2:  # (the pairs searched below: both stars have room)
        k = _count(self, per2, slack, (kp >> 4, kp & 15), cnt) - want
        if k > w:
            k = w
        if _val(by_cap, ws[-1] & 31, extra, k) > lim:
            return t
    # m: the most two stars may take for the sum to stay within lim
    # (the sum grows with m: with no limit, it is t > lim)
    m = two = 0  # (two: the sum at m)
    hi = (ws[-1] & 31) + (ws[-2] & 31)
    while hi - m > 1:
        k = (m + hi) >> 1
        w = _val(by_cap, ws[-1] & 31, extra, k)
        if w <= lim:
            m = k
            two = w
        else:
            hi = k
    if not m:
        return t
    # does any pair of stars take more than m between them?
    for a in range(len(ws) - 1, 0, -1):
        u = ws[a] >> 5 & 15
        for b in range(a - 1, -1, -1):
            v = ws[b] >> 5 & 15
            if (ws[a] & 31) + (ws[b] & 31) <= m:
                break
            if u * 16 + v != kp and _count(self, per2, slack, (u, v), cnt) - want > m:
                self.kp = u * 16 + v
                return t
    return two


def _count(self, per2, slack, us, cnt):
    """The most moves the moons left can add into s1 and the stars of
    `us` (a tuple) together: Hall's count as in bound, from the
    position on (the moons by their sets of numbers, then a big-int sum
    a set). cnt: a bytearray of 2^k zeros, left so."""
    s1 = self.s1
    full = self.full
    mask = self.mask
    order = self.order
    R = self.R
    p = self.pos
    ch = self.ch
    u = us[0]  # (two stars or more: the first two with no inner loop)
    v = us[1]
    more = us[2:]
    seen = []  # the sets counted (cnt is all 0 again after the sum)
    for i in range(p, self.M):
        f = order[i] >> 4
        if f == 2:
            if i - R >= p or ch[i - R] == s1:
                continue  # (counted at its first position, or gone to s1)
            A = 0
            j = i * STARS
        else:
            A = mask[i * STARS + s1]
            j = (i + R if f else i) * STARS
        A |= mask[j + u] | mask[j + v]
        for w in more:
            A |= mask[j + w]
        if A:
            if not cnt[A]:
                seen.append(A)
            cnt[A] += 1
    k = 0
    for A in seen:
        c = cnt[A]
        cnt[A] = 0
        A = _sets(per2, A) if A & (A - 1) else per2[13 + A % 11]  # (as in _move)
        k += c * A if c > 1 else A
    k = (slack - k).to_bytes(full, "little")  # (as in bound)
    return self.slack[full - 1] + min(k) - k[-1]


def _val(by_cap, w, extra, m):
    """The greedy sum of a(a - 1) over the other stars' moves when the
    biggest takes c (at most w) and every other at most min(c, m - c),
    the best c; by_cap as in _two (the biggest room goes to c). A star
    taking one move adds 0 (a(a - 1)), so c starts at 2 and the others
    stop once 1 move, or 1 a star, is left."""
    two = 0
    top = min(w, extra, m)
    for c in range(2, top + 1):
        d = m - c
        if c < d:
            d = c
        e = extra - c
        k = c * (c - 1)
        a = len(by_cap) - 2
        while a >= 0 and e > 1 and d > 1:  # (no builtin min: a hot loop)
            g = by_cap[a] & 31
            if g > d:
                g = d
            if g > e:
                g = e
            k += g * (g - 1)
            e -= g
            a -= 1
        if k > two:
            two = k
    return two


def _move(self, tab, p, s1):
    """Bring tab (part) from the moons it counts to the moons
    from position p on: per moon added or dropped, 1 in every set of
    numbers holding its numbers into s1 or u, for each star u. A moon's
    first-pass position counts its second's numbers too; the second
    counts nothing here (see bound)."""
    mask = self.mask
    order = self.order
    R = self.R
    at = tab[STARS]
    while at != p:
        if at > p:  # one moon more
            at -= 1
            i = at
            d = 1
        else:  # one moon fewer
            i = at
            at += 1
            d = -1
        f = order[i] >> 4
        if f == 2:
            continue
        a1 = mask[i * STARS + s1]
        j = (i + R if f else i) * STARS
        # (a big-int sum a set: the stars the moon cannot reach share s1's)
        base = (_sets(tab, a1) if a1 & (a1 - 1) else tab[13 + a1 % 11]) if a1 else 0
        for u in range(STARS):
            A = mask[j + u]
            if A:
                # (one number, the usual case: its int, with no call;
                # and s1's: the sets holding both)
                S = _sets(tab, A) if A & (A - 1) else tab[13 + A % 11]
                if a1:
                    S &= base
            elif a1:
                S = base
            else:
                continue  # (it counts in no set for u)
            if d > 0:
                tab[u] += S
            else:
                tab[u] -= S
    tab[STARS] = at


def _sets(tab, A):
    """The int with byte T 1 for every set T of numbers holding all of A's
    (A not empty): the AND of its numbers' ints. A number b's is at
    [13 + 2^b % 11] (2^0..2^5 mod 11 are distinct: the lowest bit's,
    A & -A, is found with no loop). A one-number set, the usual case, is
    its table's int itself: no big-int work."""
    S = tab[13 + (A & -A) % 11]
    A &= A - 1
    while A:
        S &= tab[13 + (A & -A) % 11]
        A &= A - 1
    return S
