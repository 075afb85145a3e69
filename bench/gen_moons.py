"""A long, legal Moons log for the replay benchmark (bench/replay.py).

A Moons game has at most one round per player, and the rules do not fix
the number of tricks in a round (the deck's size is not in the text), so
a long log is six players' six rounds with many tricks each: `rounds`
means `rounds` x 8 tricks in all. Asteroid moves hand tokens back to the
supply whenever it runs low, as a real Asteroid effect may, so the supply
never runs out early. Tricks alternate between entry by outcome and by
cards. Every event is checked by the rules core as it is generated.
"""

from shared_rules.match import Match
from shared_rules.moons import PLANETS
from shared_rules.moons.tricks import resolve
from shared_rules.util import Rng

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def _choice(rng, options):
    return options[rng.below(len(options))] if options else None


def _apply(m, out, ev):
    m.apply(ev)
    out.append(ev)


def _trick(m, rng, out):
    n = len(PLAYERS)
    spec = m.legal()["moves"]["trick"]
    if rng.below(2):
        cards = []
        while len(cards) < n:
            c = [PLANETS[rng.below(4)], 1 + rng.below(15)]
            if c not in cards:
                cards.append(c)
        win = (m.state["leader"] + resolve([[PLANETS.index(p), v] for p, v in cards])[0]) % n
        _apply(m, out, {"type": "trick", "cards": cards, "take": _choice(rng, spec["take"][win])})
        return
    win = rng.below(n)
    ev = {"type": "trick", "winner": win, "take": _choice(rng, spec["take"][win])}
    if rng.below(2):
        ev["low"] = (win + 1 + rng.below(n - 1)) % n
        ev["low_suit"] = PLANETS[rng.below(4)]
    _apply(m, out, ev)


def _refill(m, rng, out):
    # an Asteroid effect returns tokens of a planet running low to the
    # supply, from whoever holds most of it
    for p in range(4):
        while m.state["supply"][p] < 6:
            tokens = m.state["tokens"]
            rich = max(range(len(tokens)), key=lambda i: tokens[i][p])
            _apply(m, out, {"type": "move", "from": rich, "to": "supply", "planet": PLANETS[p],
                            "count": min(tokens[rich][p], 1 + rng.below(4))})


def make_log(rounds, seed):
    """[header, event, ...]: a six-round game with `rounds` x 8 tricks."""
    rng = Rng(seed)
    n = len(PLAYERS)
    m = Match("moons", PLAYERS, {"scoring": [1, 2, 3, 10]})
    out = [dict(m.header)]
    _apply(m, out, {"type": "first", "player": rng.below(n)})
    per_round = max(1, rounds * 8 // n)
    for _ in range(n):
        for seat in range(n):
            _apply(m, out, {"type": "tableau", "player": seat, "suits": [PLANETS[rng.below(4)] for _ in range(3)]})
        for _ in range(per_round):
            _refill(m, rng, out)
            _trick(m, rng, out)
        _refill(m, rng, out)
        choices = m.legal()["moves"]["end"]["choices"]
        _apply(m, out, {"type": "end", "take": [_choice(rng, c) for c in choices]})
    return out
