# Moonstar: the end of a round (scoring a made or failed bid, challenges,
# side bets), the sit-out, the next setter and the winner.
"""Settling a Moonstar round and starting the next one."""

from shared_rules.ticks import const

_NO_BID_SCORE = const(20)
_FAIL_BONUS = const(10)
_STAKE = const(25)


def start_round(s, setter):
    """Reset the per-round fields of `s` (a fresh copy) for a new round."""
    s["setter"] = setter
    s["rolloff"] = None
    if s["game"] == 12:
        s["cfg"] = None
        s["phase"] = "choose"
    else:
        s["phase"] = "setup"
    s["sit"] = None
    s["bid"] = 0
    s["bidder"] = None
    if s["challengers"]:
        s["challengers"] = []
    s["bets"] = None
    s["timeout"] = False


def decide(scores, target):
    # The highest total wins once it reaches the target and nobody shares it.
    best = max(scores)
    if best < target or scores.count(best) > 1:
        return None
    return scores.index(best)


def end_round(s, setter):
    s["round"] = s["round"] + 1
    w = decide(s["scores"], s["target"])
    if w is None:
        start_round(s, setter)
        return
    s["winner"] = w
    s["over"] = True
    s["phase"] = "over"
    s["sit"] = None
    s["bid"] = 0
    s["bidder"] = None
    s["challengers"] = []
    s["bets"] = None


def no_bid(state):
    """Nobody bid: the setter scores 20 and sets up again."""
    setter = state["setter"]
    s = dict(state)
    scores = list(state["scores"])
    scores[setter] += _NO_BID_SCORE
    s["scores"] = scores
    s["last"] = {"setter": setter, "bidder": None, "bid": None, "points": None,
                 "made": None, "sit": state["sit"]}
    # The no-bid round was the failed bidder's round out.
    s["out"] = None
    end_round(s, setter)
    return s


def settle(state, points):
    """Score the round: bid made or failed, challenges, side bets. The
    best the situation allowed is not kept: whether a check works it out
    depends on how the points were proved (a plan the device had, or a
    search stopped once it reached them), and a state is a function of the
    log alone. Whoever shows the best solves for it (the result screen,
    `moontable show`)."""
    n = len(state["players"])
    bid = state["bid"]
    bidder = state["bidder"]
    out = state["out"]
    challengers = state["challengers"]
    made = points >= bid
    scores = list(state["scores"])
    if made:
        scores[bidder] += bid
        if challengers:
            scores[bidder] += _STAKE
            for c in challengers:
                scores[c] -= _STAKE
    else:
        if challengers:
            scores[bidder] -= _STAKE
        for p in range(n):
            if p != bidder and p != out:
                scores[p] += _STAKE if p in challengers else _FAIL_BONUS
    bets = state["bets"]
    if bets:
        for p in range(n):
            gain = bets[p][0] - bets[p][1]
            scores[p] += gain if made else -gain
    s = dict(state)
    s["scores"] = scores
    s["last"] = {"setter": state["setter"], "bidder": bidder, "bid": bid, "points": points,
                 "made": made, "sit": state["sit"]}
    out = None if made else bidder
    s["out"] = out
    # Next setter: left of the last one, skipping whoever sits out.
    p = (state["setter"] + 1) % n
    if p == out:
        p = (p + 1) % n
    end_round(s, p)
    return s
