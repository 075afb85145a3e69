"""Two small pieces of arithmetic the squares and chains solver shares
between its parts (piles.py, piles_start.py, pairs.py): a greedy fill of
a pile's units, and one augmenting step of a matching of moons to dice
numbers. A leaf, so the parts import it rather than each other."""


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
