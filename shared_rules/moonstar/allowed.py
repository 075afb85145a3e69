"""Moonstar's legal(): what may happen next, with the seats and ranges a
device UI offers. Loaded only when asked, so a replay never compiles it.
The spec keys are listed in docs/games/moonstar.md.

A device asks legal() after every event, and on a Pico each module takes
10-40 ms to load: so this imports what one phase needs inside that phase
(the board's limits at set-up, the variants' table in Game 12's choice),
and nothing the other phases carry."""

from shared_rules.ticks import const
from shared_rules.moonstar.limits import bet_room, max_points

_MIN_BID = const(20)
_MAX_BID = const(70)


def _choose(state):
    from shared_rules.moonstar.opts import INCOMPATIBLE

    return {
        "players": [state["setter"]],
        "games": list(range(2, 12)),
        "incompatible": [[a, b] for a, b, _ in INCOMPATIBLE],
        "counts": {"2": {"moons": [7, 11], "dice": [7, 11], "more": "equal"},
                   "3": {"moons": [8, 15], "dice": [7, 11], "more": "moons"},
                   "4": {"moons": [7, 10], "dice": [8, 11], "more": "dice"}},
        "planets": {"count": [1, 6], "min": 1},
    }


def _fix(state):
    """fix_situation: the setter corrects the set-up until the result is in."""
    cfg = state["cfg"]
    return {"players": [state["setter"]], "moons": cfg["moons"], "dice": cfg["dice"],
            "planets": list(cfg["planets"]), "optional": True}


def legal(state):
    phase = state["phase"]
    moves = {}
    if state["over"]:
        return {"phase": "over", "moves": moves}
    n = len(state["players"])
    out = state["out"]
    part = [p for p in range(n) if p != out]
    cfg = state["cfg"]
    if phase == "first":
        moves["roll_for_setter"] = {"players": state["rolloff"] or list(range(n)),
                                    "dice": 4, "min": 1, "max": 6, "seeded": True}
        moves["choose_setter"] = {"players": list(range(n))}
    elif phase == "choose":
        moves["variants"] = _choose(state)
    elif phase == "setup":
        from shared_rules.moonstar import board

        moves["setup"] = {"players": [state["setter"]], "moons": cfg["moons"], "dice": cfg["dice"],
                          "planets": list(cfg["planets"]), "per_star": board.MAX_MOONS_PER_STAR,
                          "stars": board.STARS, "seeded": True, "optional": True}
    elif phase == "bidding":
        bid = state["bid"]
        if bid < _MAX_BID:
            moves["bid"] = {"players": part, "min": bid + 1 if bid else _MIN_BID, "max": _MAX_BID}
        if cfg["challenges"] and state["bidder"] is not None:
            can = [p for p in part if p != state["bidder"] and p not in state["challengers"]]
            if can:
                moves["challenge"] = {"players": can}
        # time_up says where it leads; "closed": a bid of 70 ended the
        # bidding, and the next step is the playing minute (or the side bets).
        if state["bidder"] is None:
            nxt = "setup"
        else:
            nxt = "betting" if cfg["side_bets"] else "playing"
        moves["time_up"] = {"seconds": state["bid_seconds"], "closed": bid >= _MAX_BID, "next": nxt}
        moves["fix_situation"] = _fix(state)
    elif phase == "betting":
        limits: list = [None] * n  # None for the seat sitting out
        for p in part:
            limits[p] = bet_room(state, p)
        moves["bet"] = {"players": part, "min": 0, "max": max([limits[p] for p in part]),
                        "limits": limits, "values": ["made", "failed"]}
        moves["start_play"] = {}
        moves["fix_situation"] = _fix(state)
    else:  # playing, or result after the play time ran out
        sit = state["sit"]
        spec = {"players": [state["bidder"]], "min": 0, "max": max_points(cfg),
                "moves": sit is not None, "complete": not state["timeout"]}
        if sit is not None and cfg["favorite"]:
            spec["favorite"] = sorted([p[0] for p in sit["planets"]])
        moves["result"] = spec
        moves["fix_situation"] = _fix(state)
        if phase == "playing" and cfg["timed_play"]:
            moves["time_up"] = {"seconds": state["play_seconds"]}
    return {"phase": phase, "moves": moves}


def turn(state):
    """{"leader": the round's setter, "to_act": the one seat the rules wait
    for, or None when anyone taking part may act (open bidding, side bets,
    the roll for the first setter) or the game is over}."""
    phase = state["phase"]
    if state["over"] or phase == "first":
        return {"leader": None, "to_act": None}
    setter = state["setter"]
    if phase == "choose" or phase == "setup":
        act = setter
    elif phase == "playing" or phase == "result":
        act = state["bidder"]
    else:
        act = None
    return {"leader": setter, "to_act": act}
