# Moonstar: the bidding minute (open bids 20-70, strictly rising, 70
# closes), Game 10's challenges, and the time-up events of both minutes.
"""Bids, challenges and time-up for Moonstar."""

from shared_rules.ticks import const
from shared_rules.errors import RuleError
from shared_rules.util import is_int
from shared_rules.moonstar.round import no_bid

_MIN_BID = const(20)
_MAX_BID = const(70)


def seat(state, event):
    """The event's player: a seat that takes part in this round."""
    n = len(state["players"])
    value = event.get("player")
    if not is_int(value) or value < 0 or value >= n:
        raise RuleError("player must be a seat from 0 to %d, not %r" % (n - 1, value))
    if value == state["out"]:
        raise RuleError("%s sits out this round after failing a bid" % state["players"][value])
    return value


def bid(state, event):
    p = seat(state, event)
    standing = state["bid"]
    if standing >= _MAX_BID:
        raise RuleError("bidding is closed: %d is the maximum bid; the playing minute is next (time_up)" % _MAX_BID)
    amount = event.get("amount")
    if not is_int(amount):
        raise RuleError("a bid must be a whole number, not %r" % (amount,))
    if amount < _MIN_BID or amount > _MAX_BID:
        raise RuleError("a bid must be from %d to %d, not %d" % (_MIN_BID, _MAX_BID, amount))
    if amount <= standing:
        raise RuleError("bid %d must be higher than the standing bid %d" % (amount, standing))
    s = dict(state)
    s["bid"] = amount
    s["bidder"] = p
    if state["challengers"]:
        s["challengers"] = []  # a new bid cancels every challenge
    return s


def challenge(state, event):
    if not state["cfg"]["challenges"]:
        raise RuleError("challenges are part of Game 10 (Challenging) only")
    p = seat(state, event)
    who = state["players"][p]
    if state["bidder"] is None:
        raise RuleError("there is no bid to challenge yet")
    if p == state["bidder"]:
        raise RuleError("%s holds the bid and cannot challenge it" % who)
    if p in state["challengers"]:
        raise RuleError("%s has already challenged this bid" % who)
    s = dict(state)
    s["challengers"] = state["challengers"] + [p]
    return s


def time_up(state, event):
    if state["phase"] == "playing":
        if not state["cfg"]["timed_play"]:
            raise RuleError("Game 8 has no play time limit: enter the result when the play is over")
        s = dict(state)
        s["timeout"] = True
        s["phase"] = "result"
        return s
    if state["bidder"] is None:
        return no_bid(state)
    s = dict(state)
    s["phase"] = "betting" if state["cfg"]["side_bets"] else "playing"
    return s
