"""Moons tricks: who wins a trick and whose low off-suit card earns a
token, the tokens a trick hands out, and legal().

A trick is entered either by its outcome (winner, and the seat and planet
of the single lowest off-suit card) or by its cards in play order from
the leader, [[planet, number], ...], and then the core works it out.
"""

from shared_rules.errors import RuleError
from shared_rules.moons.core import ALL, NAMES, PLANETS, choose, give, options, planet, seat


def resolve(cards):
    """(winner, low) play-order indices for cards [[planet, n], ...] in
    play order: the highest card of the led planet wins; `low` is the
    single lowest off-suit card, None if there is none or a tie."""
    if not cards:
        raise RuleError("a trick needs at least one card")
    led = cards[0][0]
    win = 0
    low = None
    tie = False
    for i in range(len(cards)):
        suit, n = cards[i]
        if suit == led:
            if n > cards[win][1]:
                win = i
        elif low is None or n < cards[low][1]:
            low, tie = i, False
        elif n == cards[low][1]:
            tie = True
    return win, (None if tie else low)


def _from_cards(state, cards):
    n = len(state["players"])
    if not isinstance(cards, list):
        raise RuleError("a trick's cards are a list of [planet, number], one per player, not %r" % (cards,))
    if len(cards) != n:
        raise RuleError("a trick needs %d cards, one per player in play order from the leader, got %d"
                        % (n, len(cards)))
    out = []
    for c in cards:
        if not isinstance(c, list) or len(c) != 2:
            raise RuleError("a card is written [planet, number], like [\"saturn\", 7], not %r" % (c,))
        v = c[1]
        if type(v) is not int or not 0 <= v <= 99:
            raise RuleError("a card's number must be a whole number from 0 to 99, not %r" % (v,))
        c = [planet(c[0], "a card's planet"), v]
        if c in out:
            raise RuleError("%s %d is played twice in one trick; there is one of each card" % (NAMES[c[0]], v))
        out.append(c)
    win, low = resolve(out)
    lead = state["leader"]
    if low is None:
        return (lead + win) % n, None, None
    return (lead + win) % n, (lead + low) % n, out[low][0]


def trick(state, event):
    """moons.apply() for a trick: the winner takes a planet of his tableau
    (his choice if several), then the low off-suit card's player takes a
    token of that planet, each only if the supply has one. Only once
    every tableau is in (moons.EVENTS: the phase "tricks")."""
    if event.get("cards") is not None:
        win, low, low_suit = _from_cards(state, event["cards"])
        if event.get("winner", win) != win:
            said = event["winner"]
            n = state["players"]
            raise RuleError("the cards give this trick to %s, not %s"
                            % (n[win], n[said] if type(said) is int and 0 <= said < len(n) else repr(said)))
    else:
        win = seat(state, event.get("winner"), "winner")
        low = event.get("low")
        low_suit = None
        if low is not None:
            low = seat(state, low, "low")
            if low == win:
                raise RuleError("the winner played on suit, so cannot also play the lowest off-suit card")
            low_suit = planet(event.get("low_suit"), "low_suit")
            if event.get("led") is not None and planet(event["led"], "led") == low_suit:
                raise RuleError("the lowest off-suit card cannot be of the led planet, %s" % NAMES[low_suit])
        elif event.get("low_suit") is not None:
            raise RuleError("low_suit needs 'low': the seat of the lowest off-suit card")
    take = choose(event.get("take"), state["supply"], state["tableaux"][win], state["players"][win])
    s = dict(state)
    if take is not None:
        give(s, take, win)
    if low is not None and s["supply"][low_suit] and not s["over"]:
        give(s, low_suit, low)
    tricks = list(s["tricks"])
    tricks[win] += 1
    s["tricks"] = tricks
    s["leader"] = win
    return s


def legal_moves(state):
    # moons.legal(); hints in docs/games/moons.md.
    if state["over"]:
        return {"phase": "over", "moves": {}}
    seats = list(range(len(state["players"])))
    supply = state["supply"]
    names = list(PLANETS)
    moves = {}
    if not sum(state["tricks"]):
        moves["tableau"] = {"players": seats, "count": 3, "values": names,
                            "missing": [i for i in seats if state["tableaux"][i] is None]}
        if not state["round"]:
            moves["first"] = {"players": seats}
    if state["phase"] == "tricks":
        moves["trick"] = {"players": seats, "values": names,
                          "take": [[PLANETS[i] for i in options(supply, state["tableaux"][w])] for w in seats],
                          "low_values": [PLANETS[i] for i in options(supply, ALL)]}
        if sum(state["tricks"]):
            tr = state["tricks"]
            top = max(tr)
            moves["end"] = {"players": seats, "choices": [
                [PLANETS[i] for i in options(supply, ALL if tr[w] == top else (state["tableaux"][w] if not tr[w] else ()))]
                for w in seats]}
    holders = [i for i in seats if sum(state["tokens"][i])] + (["supply"] if sum(supply) else [])
    moves["move"] = {"from": holders, "to": seats + ["supply"], "values": names, "min": 1}
    return {"phase": state["phase"], "moves": moves}
