"""Final (or current) placings: who is first, second, ... by each game's
own win rule, worked out in one place for the device's standings, replay,
the PC's standings and report, and the BG Stats export.

A placing list is [[rank, [seat, ...]], ...], best first: every seat of
one place shares its rank. A side (a lone player, or a partnership whose
seats share one score) is ranked as one: the next side after a tie of two
sides is third, and after one partnership of two seats it is second.
Each game module's placings(state) calls order() with its sides, their
keys (higher is better) and, once the game is over, the sides its win
rule put on top; a score sort alone would contradict those rules (Moon:
the bidder who made the bid wins with a lower total).
"""


def order(sides, keys, top=None):
    """Placings for sides (lists of seats) by keys (one per side, higher
    better, compared with ==) with the sides in `top` (indices into
    sides) first, sharing rank 1. Ties share a place; ranks skip as many
    sides as shared the place before (competition ranking by side)."""
    n = len(sides)
    # MicroPython's sort is not stable: the side index breaks every tie.
    idx = sorted(range(n), key=lambda i: (1 if top and i in top else 0, keys[i], -i), reverse=True)
    out = []
    prev = None
    done = 0
    for i in idx:
        mark = (1 if top and i in top else 0, keys[i])
        if out and mark == prev:
            out[-1][1].extend(sides[i])
        else:
            out.append([done + 1, list(sides[i])])
        prev = mark
        done += 1
    for place in out:
        place[1].sort()
    return out


def solo(n):
    """Sides for a game everyone plays alone: [[0], [1], ...]."""
    return [[i] for i in range(n)]


def seat_ranks(places, n):
    """Each seat's rank (by seat) from a placing list of n seats."""
    out = [0] * n
    for rank, seats in places:
        for s in seats:
            out[s] = rank
    return out


def winners(state, places):
    """The seats that won: the first place of a game that is over; []
    while it is in play."""
    if not state.get("over") or not places:
        return []
    return list(places[0][1])


def rows(state, places):
    """[[name, score], ...] in placing order (the games' standings())."""
    names = state["players"]
    sc = state["scores"]
    return [[names[s], sc[s]] for _, seats in places for s in seats]
