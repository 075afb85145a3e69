"""A long, legal Moonstar log for the replay benchmark (bench/replay.py).

Game 12 (Dealer's Choice), so the rounds exercise every variant: counts,
planets, Favorite Star, squares, chains, movement, challenges and side
bets. A real evening would end at 200 points; to keep a thousand rounds
going, players who get close to the target bet on the wrong side of the
round and lose points (Game 11 side bets are in every round). Every event
is checked by the rules core as it is generated, so the log is legal.
"""

from shared_rules.moonstar import board
from shared_rules.moonstar.plan import plan_score
from shared_rules.match import Match
from shared_rules.util import Rng

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
EXTRAS = ([], [2], [3], [4], [5], [6], [7], [8], [9], [5, 9], [3, 6], [4, 7], [2, 8])


def _variants(rng):
    games = list(EXTRAS[rng.below(len(EXTRAS))]) + [10, 11]
    ev = {"type": "variants", "games": games}
    if 2 in games:
        ev["moons"] = ev["dice"] = 7 + rng.below(5)
    if 3 in games:
        ev["dice"] = 7 + rng.below(5)
        ev["moons"] = ev["dice"] + 1 + rng.below(15 - ev["dice"])
    if 4 in games:
        ev["moons"] = 7 + rng.below(4)
        ev["dice"] = ev["moons"] + 1 + rng.below(11 - ev["moons"])
    if 5 in games:
        ev["planets"] = [1 + rng.below(12) for _ in range(1 + rng.below(6))]
    return ev


def _plan(sit, rng, partial):
    """Moon i carries die i, clockwise or counter-clockwise at random."""
    n = min(len(sit["moons"]), len(sit["dice"]))
    if partial:
        n = rng.below(n + 1)
    plan = []
    for i in range(n):
        to = board.destinations(sit["moons"][i], sit["dice"][i], sit["movement"])
        plan.append({"moon": i, "die": i, "to": to[rng.below(len(to))]})
    return plan


def make_log(rounds, seed):
    """Header plus events for `rounds` rounds (list of dicts, header first)."""
    rng = Rng(seed)
    match = Match("moonstar", PLAYERS, {"game": 12})
    lines = [dict(match.header)]

    def put(ev):
        match.apply(ev)
        lines.append(ev)

    put({"type": "roll_for_setter", "seed": rng.next32()})
    while match.state["phase"] == "first":
        put({"type": "roll_for_setter", "seed": rng.next32()})
    while match.state["round"] < rounds:
        st = match.state
        put(_variants(rng))
        put({"type": "setup", "seed": rng.next32()})
        st = match.state
        if rng.below(12) == 0:  # nobody bids
            put({"type": "time_up"})
            continue
        sit = st["sit"]
        cfg = st["cfg"]
        partial = cfg["timed_play"] and rng.below(8) == 0
        plan = _plan(sit, rng, partial)
        fav = sit["planets"][0][0] if cfg["favorite"] else None
        points = plan_score(sit, plan, fav, not partial)
        part = [p for p in range(4) if p != st["out"]]
        bid = 20 + rng.below(10)
        for _ in range(1 + rng.below(4)):
            put({"type": "bid", "player": part[rng.below(len(part))], "amount": bid})
            bid += 1 + rng.below(5)
        bidder = match.state["bidder"]
        made = points >= match.state["bid"]
        for p in part:
            if p != bidder and rng.below(3) == 0:
                put({"type": "challenge", "player": p})
        put({"type": "time_up"})
        scores = match.state["scores"]
        for p in part:
            if scores[p] > 80:
                put({"type": "bet", "player": p, "amount": scores[p] - 10,
                     "on": "failed" if made else "made"})
            elif scores[p] > 10 and rng.below(3) == 0:
                put({"type": "bet", "player": p, "amount": rng.below(10) + 1,
                     "on": "made" if rng.below(2) else "failed"})
        put({"type": "start_play"})
        if partial:
            put({"type": "time_up"})
        ev = {"type": "result", "moves": plan}
        if fav is not None:
            ev["favorite"] = fav
        if rng.below(10) == 0:
            ev = {"type": "result", "points": points}
        put(ev)
    return lines
