"""A long, legal Shoot the Moon log for the replay benchmark (bench/replay.py).

Four players in two partnerships. Most rounds are dealt in and played
card by card (the heaviest path: hands, following colour, the trick
resolver), some are entered trick by trick or as a whole round, and now
and then a hand is voided by an illegal play. A real game ends at 7
chips; to keep `rounds` rounds going the header sets the target above
what any side can reach (at most 4 chips a round). Every event is checked
by the rules core as it is generated, so the log is legal.
"""

from shared_rules.match import Match
from shared_rules.shoot_the_moon.tricks import full_deck, legal_plays
from shared_rules.util import Rng

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def _pick(rng, items):
    return items[rng.below(len(items))]


def _card_round(m, rng, out):
    deck = rng.shuffle(full_deck())
    deal = {"type": "deal", "hands": [deck[5 * i:5 * i + 5] for i in range(4)]}
    m.apply(deal)
    out.append(deal)
    void_at = rng.below(20) if rng.below(15) == 0 else -1
    start = m.state["round"]
    step = 0
    while m.state["round"] == start:
        s = m.state
        if step == void_at:
            ev = {"type": "illegal", "player": rng.below(4)}
            m.apply(ev)
            out.append(ev)
            return
        hand = m.legal()["moves"]["play"]["players"][0]
        card = _pick(rng, legal_plays(s["held"][hand], [c for _, c in s["trick"]]))
        ev = {"type": "play", "player": hand, "card": card}
        m.apply(ev)
        out.append(ev)
        step += 1


def _trick_round(m, rng, out):
    start = m.state["round"]
    while m.state["round"] == start:
        spec = m.legal()["moves"]["trick"]
        big = rng.below(spec["big_max"] + 1) if rng.below(4) == 0 else 0
        little = rng.below(spec["little_max"] + 1) if rng.below(4) == 0 else 0
        ev = {"type": "trick", "winner": rng.below(4), "big": big, "little": little}
        m.apply(ev)
        out.append(ev)


def _whole_round(m, rng, out):
    tricks = [0, 0, 0, 0]
    for _ in range(5):
        tricks[rng.below(4)] += 1
    winners = [h for h in range(4) if tricks[h]]
    big = [0, 0, 0, 0]
    little = [0, 0, 0, 0]
    for _ in range(rng.below(3)):
        big[_pick(rng, winners)] += 1
    for _ in range(rng.below(3)):
        little[_pick(rng, winners)] += 1
    ev = {"type": "round", "tricks": tricks, "big": big, "little": little}
    m.apply(ev)
    out.append(ev)


def make_log(rounds, seed):
    """[header, event, ...]: `rounds` completed rounds (plus voided hands)."""
    rng = Rng(seed)
    options = {"teams": 2, "target": min(100000, 4 * rounds + 10), "dealer": rng.below(4)}
    m = Match("shoot-the-moon", PLAYERS, options)
    out = [dict(m.header)]
    while m.state["round"] < rounds:
        kind = rng.below(10)
        if kind < 6:
            _card_round(m, rng, out)
        elif kind < 9:
            _trick_round(m, rng, out)
        else:
            _whole_round(m, rng, out)
    return out
