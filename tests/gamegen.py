"""Random but legal Moonstar games for the PC-side tests (database, sync).

The moves come from the rules core's own legal() ranges, so every game is
one the rules accept; a seed makes each game repeatable."""

import random

from shared_rules.match import Match
from shared_rules.moonstar.solver import solve


def random_moonstar(players, seed, t0, max_events=400, finish=True, undo_rate=0.0, extra=None):
    """(match, events) of a Moonstar game played to its end (or, without
    `finish`, for two rounds), each event stamped with a device time `t`.

    With undo_rate > 0 an undo is slipped in after that share of events."""
    rng = random.Random(seed)
    header = {"t": t0}
    if extra:
        header.update(extra)
    m = Match("moonstar", list(players), {}, header)
    events = []
    t = t0
    while not m.state["over"] and len(events) < max_events:
        if not finish and m.state["round"] >= 2:
            break
        legal = m.legal()
        moves = legal["moves"]
        phase = legal["phase"]
        t += rng.randint(5, 40)
        if phase == "first":
            ev = {"type": "choose_setter", "player": rng.randrange(len(players))}
        elif phase == "setup":
            ev = {"type": "setup", "seed": rng.randrange(1 << 32)}
        elif phase == "bidding":
            spec = moves.get("bid")
            if spec and (m.state["bidder"] is None or rng.random() < 0.4) and rng.random() < 0.93:
                hi = min(spec["max"], spec["min"] + 15)
                ev = {"type": "bid", "player": rng.choice(spec["players"]), "amount": rng.randint(spec["min"], hi)}
            else:
                ev = {"type": "time_up"}
        elif phase in ("playing", "result"):
            spec = moves["result"]
            bid = m.state["bid"]
            hi = min(spec["max"], bid + 15)
            if m.state.get("sit") is not None:
                # the rules refuse more than the set-up allows
                hi = min(hi, solve(m.state["sit"])["best"])
            lo = min(max(spec["min"], bid - 10), hi)
            ev = {"type": "result", "points": rng.randint(lo, hi)}
        elif phase == "betting":
            ev = {"type": "start_play"}
        else:
            raise AssertionError("unexpected phase %r" % phase)
        if undo_rate and rng.random() < undo_rate and m.can_undo():
            ev = {"type": "undo"}
        ev["t"] = t
        m.apply(ev)
        events.append(ev)
    return m, events
