"""Moonstar's legal(): what may happen next, with the seats and ranges a
device UI offers. Loaded only when asked, so a replay never compiles it.
The spec keys are listed in docs/games/moonstar.md."""

from shared_rules import moonstar_board as board
from shared_rules.moonstar_opts import INCOMPATIBLE, max_points
from shared_rules.moonstar_result import bet_room

MIN_BID = 20
MAX_BID = 70


def _choose(state):
    return {
        "players": [state["setter"]],
        "games": list(range(2, 12)),
        "incompatible": [[a, b] for a, b, _ in INCOMPATIBLE],
        "counts": {"2": {"moons": [7, 11], "dice": [7, 11], "more": "equal"},
                   "3": {"moons": [8, 15], "dice": [7, 11], "more": "moons"},
                   "4": {"moons": [7, 10], "dice": [8, 11], "more": "dice"}},
        "planets": {"count": [1, 6], "min": 1},
    }


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
        moves["setup"] = {"players": [state["setter"]], "moons": cfg["moons"], "dice": cfg["dice"],
                          "planets": list(cfg["planets"]), "per_star": board.MAX_MOONS_PER_STAR,
                          "stars": board.STARS, "seeded": True, "optional": True}
    elif phase == "bidding":
        bid = state["bid"]
        if bid < MAX_BID:
            moves["bid"] = {"players": part, "min": bid + 1 if bid else MIN_BID, "max": MAX_BID}
        if cfg["challenges"] and state["bidder"] is not None:
            can = [p for p in part if p != state["bidder"] and p not in state["challengers"]]
            if can:
                moves["challenge"] = {"players": can}
        moves["time_up"] = {"seconds": state["bid_seconds"]}
    elif phase == "betting":
        limits: list = [None] * n  # None for the seat sitting out
        for p in part:
            limits[p] = bet_room(state, p)
        moves["bet"] = {"players": part, "min": 0, "max": max([limits[p] for p in part]),
                        "limits": limits, "values": ["made", "failed"]}
        moves["start_play"] = {}
    else:  # playing, or result after the play time ran out
        sit = state["sit"]
        spec = {"players": [state["bidder"]], "min": 0, "max": max_points(cfg),
                "moves": sit is not None, "complete": not state["timeout"]}
        if sit is not None and cfg["favorite"]:
            spec["favorite"] = sorted([p[0] for p in sit["planets"]])
        moves["result"] = spec
        if phase == "playing" and cfg["timed_play"]:
            moves["time_up"] = {"seconds": state["play_seconds"]}
    return {"phase": phase, "moves": moves}
