"""Moon, the three-player dominoes trick game (registered name "moon")."""

# The auction, trump, per-hand totals, scoring and winning, as settled by
# shared/rules/RULINGS.md; the tiles and tricks themselves (set, suits, deal,
# plays, trick winners) are domino_tricks' business. Seats run clockwise, so
# "to the left" is the next seat. docs/games/moon.md lists every event, the
# legal() hints and the decisions taken where the rules are silent. Written
# tersely, with the "why" in comments rather than docstrings, on purpose:
# the tests compile it inside a 64K MicroPython heap.

from shared_rules import domino_tricks as dt
from shared_rules.errors import RuleError
from shared_rules.util import check_players, clone, field, seat, whole


def new(players, options=None):
    players = check_players(players, 3, 3)
    o = options or {}
    if type(o) is not dict:
        raise RuleError("moon options must be an object")
    for key in o:
        if key not in ("target", "first_bidder"):
            raise RuleError("unknown option %r for moon (known: target, first_bidder)" % (key,))
    s = {"players": players, "scores": [0, 0, 0], "round": 0, "over": False, "winner": None,
         "target": whole(o, "target", 1, 999999) if "target" in o else 21,
         "first": whole(o, "first_bidder", 0, 2) if "first_bidder" in o else 0}
    _deal_next(s, 0)
    return s


# A fresh hand, its first bidder `step` seats left of the last one.
# bids[p]: None not yet, 0 passed; bid/bidder: the standing (then winning)
# bid; tiles: where each tile is (see domino_tricks). The state is kept small:
# a Match holds 32 of them for undo, and the tests give MicroPython 64K.
def _deal_next(s, step):
    s["first"] = (s["first"] + step) % 3
    s.update({"phase": "bidding", "bids": [None, None, None],
              "bidder": None, "bid": 0, "trump": None, "swapped": False,
              "tiles": dt.UNKNOWN, "trick": [], "leader": None, "tricks": [0, 0, 0]})


# Refuse the event unless the hand is in `phase` and, if `want` is
# given, the event's seat is `want`; returns that seat.
def _who(s, event, phase, doing, want=None):
    if s["phase"] != phase:
        raise RuleError("cannot %s now: the hand is in its %s phase" % (doing, s["phase"]))
    if want is None:
        return None
    p = seat(event, s)
    n = s["players"]
    b = s["bids"][p]
    if phase == "bidding" and b is not None:
        raise RuleError("%s has already %s this hand; each player bids once"
                        % (n[p], "bid %d" % b if b else "passed"))
    if p != want:
        raise RuleError("it is %s's turn to %s, not %s's" % (n[want], doing, n[p]))
    return p


# Whose turn it is to bid: bids go clockwise from the first bidder.
def _turn(s):
    return (s["first"] + 3 - s["bids"].count(None)) % 3


# The state after `event`; RuleError, state untouched, if illegal.
def apply(state, event):
    if type(event) is not dict:
        raise RuleError("an event must be an object with a \"type\"")
    if state["over"]:
        raise RuleError("the game is over: %s won" % state["players"][state["winner"]])
    kind = event.get("type")
    s = clone(state)
    if kind == "bid" or kind == "pass":
        p = _who(s, event, "bidding", kind, _turn(s))
        v = 0
        if kind == "bid":
            v = field(event, "bid")
            if type(v) is not int or v not in (4, 5, 6, 7, 21):
                raise RuleError("a bid is 4, 5, 6, 7 or 21 (or a pass), not %r" % (v,))
            if v <= s["bid"]:
                raise RuleError("bid %d must be higher than the standing bid %d" % (v, s["bid"]))
            s["bid"] = v
            s["bidder"] = p
        s["bids"][p] = v
        if v == 21 or None not in s["bids"]:
            if s["bidder"] is None:  # all passed: deal again, first bidder moves left
                _deal_next(s, 1)
            else:
                s["phase"] = "trump"
    elif kind == "play" or kind == "trick" or kind == "totals":
        _tricks(s, event, kind)
    elif kind == "trump":
        s["leader"] = _who(s, event, "trump", "name trump", s["bidder"])
        s["trump"] = dt.parse_trump(field(event, "trump"))
        s["phase"] = "play"
    elif kind == "swap":
        dt.swap(s, _who(s, event, "trump", "swap with the spare", s["bidder"]), event)
    elif kind == "deal":
        _who(s, event, "bidding", "record the deal")
        if s["bids"] != [None, None, None] or dt.known(s):
            raise RuleError("a deal is recorded once per hand, before its first bid")
        dt.deal(s, event)
    else:
        raise RuleError("unknown event type %r for moon" % (kind,))
    return s


# Tricks are entered a tile at a time ("play"), a trick at a time ("trick":
# its "winner", or its 3 "plays" in order from the leader, the winner then
# coming from the tiles and having to match a "winner" also given), or as
# the hand's totals per seat ("totals", which may finish a hand whose first
# tricks were entered one by one). A recorded deal needs the tiles, so that
# the hands stay true.
def _tricks(s, event, kind):
    _who(s, event, "play", "enter tricks")
    n = s["players"]
    lead = s["leader"]
    if kind == "play":
        p = _who(s, event, "play", "play", (lead + len(s["trick"])) % 3)
        w = dt.play(s, p, dt.parse_tile(field(event, "tile")))
    elif s["trick"]:
        raise RuleError("the current trick has %d of 3 tiles: finish it with play events" % len(s["trick"]))
    elif kind == "totals":
        t = field(event, "tricks")
        if type(t) is not list or len(t) != 3:
            raise RuleError("totals give 3 trick counts, one per seat")
        for p in range(3):
            whole(t, p, s["tricks"][p], 7, "%s's tricks" % n[p])
        if sum(t) != 7:
            raise RuleError("tricks must add up to 7, not %d" % sum(t))
        s["tricks"] = list(t)
        return _score(s)
    elif "plays" not in event:
        if dt.known(s):
            raise RuleError("this hand's tiles are recorded: enter the trick's 3 tiles, not only its winner")
        w = seat(event, s, "winner")
    else:
        t = event["plays"]
        if type(t) is not list or len(t) != 3:
            raise RuleError("a trick has 3 plays, in order from the leader, not %r" % (t,))
        for i in range(3):
            w = dt.play(s, (lead + i) % 3, dt.parse_tile(t[i]))
        if "winner" in event and seat(event, s, "winner") != w:
            raise RuleError("the tiles give that trick to %s, not %s" % (n[w], n[event["winner"]]))
    if w is not None:
        s["tricks"][w] += 1
        s["trick"] = []
        s["leader"] = w
        if sum(s["tricks"]) == 7:
            _score(s)


# Score the hand, then end the game or deal the next hand.
#
# Of those at or above the target, a bidder who made the bid goes out;
# otherwise the single highest total wins; a tie at the top plays on. A
# set bidder still above target from an earlier play-on does not go out
# (docs/games/moon.md).
def _score(s):
    b = s["bidder"]
    bid = s["bid"]
    pts = list(s["tricks"])
    made = pts[b] >= min(bid, 7)
    pts[b] = bid if made else -bid
    sc = s["scores"]
    for p in range(3):
        sc[p] += pts[p]
    s["round"] += 1
    up = [p for p in range(3) if sc[p] >= s["target"]]
    top = [p for p in up if sc[p] == max(sc)]
    w = b if made and b in up else top[0] if len(top) == 1 else None
    if w is None:
        _deal_next(s, 1)
    else:
        s.update({"winner": w, "over": True, "phase": "over"})


def legal(state):
    s = state
    m = {}
    ph = s["phase"]
    h = dt.known(s)
    if ph == "bidding":
        p = [_turn(s)]
        m["pass"] = {"players": p}
        v = [b for b in (4, 5, 6, 7, 21) if b > s["bid"]]
        if v:
            m["bid"] = {"players": p, "values": v}
        if s["bids"] == [None, None, None] and not h:
            m["deal"] = {"optional": True}
    elif ph == "trump":
        p = s["bidder"]
        m["trump"] = {"players": [p], "values": list(range(7)) + [dt.DOUBLES, dt.FOLLOW_ME]}
        if not s["swapped"]:
            m["swap"] = {"players": [p], "optional": True}
            if h:
                m["swap"]["values"] = dt.hand(s, p)
    elif ph == "play":
        p = (s["leader"] + len(s["trick"])) % 3
        m["play"] = {"players": [p], "values": dt.playable(s, p)}
        if not s["trick"]:
            m["trick"] = {"players": [p], "plays": 3}
            if not h:
                m["trick"]["values"] = [0, 1, 2]
            m["totals"] = {"min": 0, "max": 7, "sum": 7, "at_least": list(s["tricks"])}
    return {"phase": ph, "moves": m}


def standings(state):
    sc = state["scores"]
    return [[state["players"][p], sc[p]] for p in sorted(range(3), key=lambda p: (-sc[p], p))]


def winner(state):
    return state["winner"]
