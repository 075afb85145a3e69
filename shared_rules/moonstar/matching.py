"""What the squares and chains solver's modules share (piles.py,
piles_start.py, pairs.py): a greedy fill of a pile's units, one
augmenting step of a matching of moons to dice numbers, the search's
tables for an order of the moons, and the set-up's symmetries. A leaf,
so the others import it rather than each other: the first steps'
module (piles_start) can then go once the search is in parts."""

from shared_rules.moonstar.board import STARS, destinations


def _fill(keys, r, pairs):
    """Greedy fill of r units from keys (weight * 32 + amount), heaviest
    first: the total weight. With `pairs`, an amount a taken from a key of
    amount c weighs a * (a - 1) (convex, so largest first is optimal)."""
    keys.sort()
    total = 0
    k = len(keys) - 1
    while r > 0 and k >= 0:
        c = min(keys[k] & 31, r)
        total += c * (c - 1) if pairs else (keys[k] >> 5) * c
        r -= c
        k -= 1
    return total


def _augment(i, masks, got, load, count, seen):
    """Give position i a number its mask allows (got[i] = bit + 1), moving
    others to other numbers if need be (augmenting path): 1 if done, else 0.
    load[b] counts positions holding bit b, count[b] the dice."""
    a = masks[i]
    for b in range(len(count)):
        if a >> b & 1 and load[b] < count[b]:
            got[i] = b + 1
            load[b] += 1
            return 1
    for b in range(len(count)):
        if a >> b & 1:
            for j in range(len(got)):
                if got[j] == b + 1 and not seen[j]:
                    seen[j] = 1
                    got[j] = 0  # j moves to another number, i takes b
                    if _augment(j, masks, got, load, count, seen):
                        got[i] = b + 1
                        return 1
                    got[j] = b + 1
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
