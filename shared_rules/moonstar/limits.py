"""Moonstar's ranges: the most points a round can score under a config,
and what a seat may still bet. legal() offers them (allowed.py) and the
rules check a result and a bet against them (result.py); they live apart
from both so that neither loads the other (on a board, legal() runs after
every event, and the result check beside the solver)."""


def max_points(cfg):
    """An upper bound on one round's points under a config: the range a UI
    offers when the result is entered as points."""
    n = cfg["moons"] if cfg["moons"] < cfg["dice"] else cfg["dice"]
    if cfg["scoring"] == "squares":
        return n * n
    if cfg["scoring"] == "chains":
        return n * (n + 1) // 2
    top = 1
    for v in cfg["planets"]:
        if v > top:
            top = v
    return n * top * (2 if cfg["favorite"] else 1)


def bet_room(state, p):
    """Points seat p may still bet: its total (not below 0) less what it
    has already bet this round."""
    room = state["scores"][p]
    bets = state["bets"]
    if bets:
        room -= bets[p][0] + bets[p][1]
    return room if room > 0 else 0
