"""A long, legal Moon (dominoes) log for the replay benchmark (bench/replay.py).

`rounds` scored hands, with the target set out of reach (a hand gives a
player at most 21 points) so the game lasts the whole log. The mix follows
what a table enters: every other hand has its deal recorded (seeded) and
is played tile by tile or trick by trick with the tiles; the others are
entered by trick winners, or by winners and then totals; about one deal
in eight is passed out and dealt again; a slip is sometimes undone. Every
event is checked by the rules core (through Match) as it is generated, so
the log is legal by construction.
"""

from shared_rules.match import Match
from shared_rules.util import Rng

PLAYERS = ["Ann", "Bob", "Cy"]


def _pick(rng, options):
    return options[rng.below(len(options))]


def make_log(rounds, seed):
    rng = Rng(seed)
    options = {"target": 22 * rounds + 22, "first_bidder": rng.below(3)}
    m = Match("moon", PLAYERS, options)
    out = [dict(m.header)]

    def put(ev):
        m.apply(ev)
        out.append(ev)

    while m.state["round"] < rounds:
        s = m.state
        moves = m.legal()["moves"]
        phase = s["phase"]
        if phase == "bidding":
            if "deal" in moves and s["round"] % 2 == 0:
                put({"type": "deal", "seed": rng.next32()})
                continue
            p = moves["pass"]["players"][0]
            bids = moves.get("bid", {}).get("values", [])
            if bids and rng.below(8) != 0 and (s["bidder"] is None or rng.below(2)):
                put({"type": "bid", "player": p, "bid": _pick(rng, bids[:3] if rng.below(6) else bids)})
            else:
                put({"type": "pass", "player": p})
            if rng.below(40) == 0:  # a slip, taken back
                put({"type": "undo"})
        elif phase == "trump":
            b = s["bidder"]
            if "swap" in moves and rng.below(2):
                spec = moves["swap"]
                put({"type": "swap", "player": b, "tile": _pick(rng, spec["values"])} if "values" in spec
                    else {"type": "swap", "player": b})
            else:
                put({"type": "trump", "player": b, "trump": _pick(rng, moves["trump"]["values"])})
        else:
            play = moves["play"]
            known = "values" not in moves.get("trick", {"values": 0})
            if known and "trick" in moves and rng.below(2):
                # a whole trick by its tiles: play it on a scratch match first
                tiles = []
                for _ in range(3):
                    spec = m.legal()["moves"]["play"]
                    t = _pick(rng, spec["values"])
                    m.apply({"type": "play", "player": spec["players"][0], "tile": t})
                    tiles.append(t)
                for _ in range(3):
                    m.apply({"type": "undo"})
                put({"type": "trick", "plays": tiles})
            elif known or "trick" not in moves:
                put({"type": "play", "player": play["players"][0], "tile": _pick(rng, play["values"])})
            elif sum(s["tricks"]) >= 3 and rng.below(3) == 0:
                left = 7 - sum(s["tricks"])
                tricks = list(s["tricks"])
                for _ in range(left):
                    tricks[rng.below(3)] += 1
                put({"type": "totals", "tricks": tricks})
            else:
                put({"type": "trick", "winner": rng.below(3)})
    return out


if __name__ == "__main__":
    import sys

    log = make_log(int(sys.argv[1]) if len(sys.argv) > 1 else 10, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    print("%d lines" % len(log))
