"""Moon, the three-player dominoes trick game (registered name "moon").

The auction, trump, how tricks are entered, scoring and winning, as
settled by shared/rules/RULINGS.md; the tiles and tricks themselves (set,
suits, deal, plays, trick winners) are domino_tricks' business. Seats run
clockwise, so "to the left" is the next seat. docs/games/moon.md lists
every event, the legal() hints and the decisions taken where the rules are
silent.

States are copy-on-write: apply copies the top-level dict and replaces the
lists it changes, never changing a nested value in place. A new state
shares everything else with the one before, so a replay does no deep copy
per event and the states of a Match's undo stack cost little memory.
"""

from shared_rules.ticks import const
from shared_rules.dispatch import dispatch
from shared_rules.moon_dominoes import tricks as dt
from shared_rules.errors import RuleError
from shared_rules.util import field
from shared_rules import places as pl

_START_BOUND = const(1000)  # a start from paper: +-this many points (sanity, not a rule)
BIDS = (4, 5, 6, 7, 21)
# Event type -> the phases it is legal in, and its handler, a function of
# this module (shared_rules/dispatch.py).
EVENTS = (
    ("bid", ("bidding",), None, "_bid"),
    ("pass", ("bidding",), None, "_bid"),
    ("deal", ("bidding",), None, "_deal"),
    ("swap", ("trump",), None, "_trump"),
    ("trump", ("trump",), None, "_trump"),
    ("play", ("play",), None, "_tricks"),
    ("trick", ("play",), None, "_tricks"),
    ("totals", ("play",), None, "_tricks"),
)
# What each event does, for "cannot ... now" messages.
_DOING = {"bid": "bid", "pass": "pass", "deal": "record the deal", "swap": "swap with the spare",
          "trump": "name trump", "play": "play a tile", "trick": "enter a trick",
          "totals": "enter the hand's totals"}


def start_bounds(options):
    """(lowest, highest) starting points of a game carried over from
    paper, what new() accepts: the rules set no floor (each set bid costs
    its bid), so _START_BOUND bounds it either way for sanity."""
    return -_START_BOUND, _START_BOUND


def new(players, options=None):
    from shared_rules.players import check_players, start_scores

    if type(players) is list and len(players) != 3:
        raise RuleError("Moon is a game for exactly 3 players, not %d" % len(players))
    players = check_players(players, 3, 3)
    o = options or {}
    if type(o) is not dict:
        raise RuleError("moon's options must be an object such as {\"target\": 21}, not %r" % (o,))
    for key in o:
        if key not in ("target", "first_bidder", "start"):
            raise RuleError("unknown option %r for moon (known: target, first_bidder, start)" % (key,))
    target = o.get("target", 21)
    if type(target) is not int or not 1 <= target <= 999999:
        raise RuleError("the target must be a whole number of points from 1 to 999999, not %r" % (target,))
    first = o.get("first_bidder", 0)
    if type(first) is not int or not 0 <= first <= 2:
        raise RuleError("first_bidder must be the seat of a player, 0-2 (%s), not %r"
                        % (", ".join(players), first))
    # "start": the points of a game carried over from paper, within
    # start_bounds; one player alone at or past the target would have won already.
    low, high = start_bounds(o)
    start = start_scores(o, 3, low, high, "score", target) or [0, 0, 0]
    s = {"players": players, "scores": start, "start_scores": list(start), "round": 0, "over": False,
         "winner": None, "target": target, "first": first, "first_leader": first}
    _deal_next(s, 0)
    return s


def _deal_next(s, step):
    """A fresh hand, its first bidder `step` seats left of the last one.
    bids[p]: None not yet, 0 passed; bid/bidder: the standing (then
    winning) bid; tiles: where each tile is (see domino_tricks)."""
    s["first"] = (s["first"] + step) % 3
    s.update({"phase": "bidding", "bids": [None, None, None],
              "bidder": None, "bid": 0, "trump": None, "swapped": False,
              "tiles": dt.UNKNOWN, "trick": [], "leader": None, "tricks": [0, 0, 0]})


def _seat(event, s, name="player"):
    """event[name] as a seat 0-2, or a RuleError a player understands."""
    p = field(event, name)
    if type(p) is not int or not 0 <= p <= 2:
        n = s["players"]
        if type(p) is int:
            raise RuleError("seat %d does not exist: seats are 0-2 (%s)" % (p, ", ".join(n)))
        raise RuleError("%s must be a seat, 0-2 (%s), not %r" % (name, ", ".join(n), p))
    return p


def _not_now(s, kind):
    ph = s["phase"]
    if ph == "bidding":
        why = "the players are still bidding"
    elif ph == "trump":
        why = "the bidding is over and %s is to name trump" % s["players"][s["bidder"]]
    else:
        why = "the hand is being played"
    return "cannot %s now: %s" % (_DOING[kind], why)


def _over(s):
    return "the game is over: %s won" % s["players"][s["winner"]]


def _turn_error(s, doing, want, p):
    n = s["players"]
    return RuleError("it is %s's turn to %s, not %s's" % (n[want], doing, n[p]))


def _turn(s):
    """Whose turn it is to bid: bids go clockwise from the first bidder."""
    return (s["first"] + 3 - s["bids"].count(None)) % 3


def apply(state, event):
    """The state after `event`; RuleError, state untouched, if illegal."""
    return dispatch(state, event, EVENTS, __name__, "moon", _over, _not_now)


def _trump(state, event):
    """The bidder names trump, or first swaps with the spare."""
    s = dict(state)
    p = _seat(event, s)
    if p != s["bidder"]:
        raise _turn_error(s, _DOING[event["type"]], s["bidder"], p)
    if event["type"] == "swap":
        dt.swap(s, p, event)
    else:
        s["trump"] = dt.parse_trump(field(event, "trump"))
        s["leader"] = p
        s["phase"] = "play"
    return s


def _deal(state, event):
    """The hand's deal, recorded before its first bid."""
    if dt.known(state):
        raise RuleError("this hand's deal is already recorded; it is recorded once per hand")
    if state["bids"] != [None, None, None]:
        raise RuleError("a deal is recorded before the hand's first bid, and bidding has begun")
    s = dict(state)
    dt.deal(s, event)
    return s


def _bid(state, event):
    """A bid or a pass by the seat whose turn it is: one each a hand."""
    kind = event["type"]
    s = dict(state)
    p = _seat(event, s)
    bids = s["bids"]
    if bids[p] is not None:
        raise RuleError("%s has already %s this hand; each player bids once"
                        % (s["players"][p], "bid %d" % bids[p] if bids[p] else "passed"))
    t = _turn(s)
    if p != t:
        raise _turn_error(s, kind, t, p)
    v = 0
    if kind == "bid":
        v = field(event, "bid")
        if type(v) is not int or v not in BIDS:
            raise RuleError("a bid is 4, 5, 6, 7 or 21 (or a pass), not %r" % (v,))
        if v <= s["bid"]:
            raise RuleError("bid %d must be higher than the standing bid %d (%s's)"
                            % (v, s["bid"], s["players"][s["bidder"]]))
        s["bid"] = v
        s["bidder"] = p
    bids = list(bids)
    bids[p] = v
    s["bids"] = bids
    if v == 21 or None not in bids:
        if s["bidder"] is None:  # all passed: deal again, first bidder moves left
            _deal_next(s, 1)
        else:
            s["phase"] = "trump"
    return s


def _tricks(state, event):
    """Tricks are entered a tile at a time ("play"), a trick at a time
    ("trick": its "winner", or its 3 "plays" in order from the leader, the
    winner then coming from the tiles and having to match a "winner" also
    given), or as the hand's totals per seat ("totals", which may finish a
    hand whose first tricks were entered one by one). A recorded deal needs
    the tiles, so that the hands stay true."""
    kind = event["type"]
    s = dict(state)
    lead = s["leader"]
    trick = s["trick"]
    if kind == "play":
        due = (lead + len(trick)) % 3
        p = _seat(event, s)
        if p != due:
            raise _turn_error(s, "play", due, p)
        w = dt.play(s, p, dt.tile_index(field(event, "tile")))
    elif trick:
        raise RuleError("a trick is under way (%d of its 3 tiles played): enter the rest tile by tile"
                        % len(trick))
    elif kind == "totals":
        _totals(s, field(event, "tricks"))
        return s
    elif "plays" not in event:
        if dt.known(s):
            raise RuleError("this hand's tiles are recorded: enter the trick's 3 tiles, not only its winner")
        w = _seat(event, s, "winner")
    else:
        t = event["plays"]
        if type(t) is not list:
            raise RuleError("a trick's plays are a list of its 3 tiles in order from the leader, not %r" % (t,))
        if len(t) != 3:
            raise RuleError("a trick needs 3 plays, in order from the leader, got %d" % len(t))
        w = None
        for i in range(3):
            w = dt.play(s, (lead + i) % 3, dt.tile_index(t[i]))
        if "winner" in event and _seat(event, s, "winner") != w:
            n = s["players"]
            raise RuleError("the tiles give that trick to %s, not %s" % (n[w], n[event["winner"]]))
    if w is not None:
        tricks = list(s["tricks"])
        tricks[w] += 1
        s["tricks"] = tricks
        s["trick"] = []
        s["leader"] = w
        if sum(tricks) == 7:
            _score(s)
    return s


def _totals(s, t):
    """The hand's tricks per seat at once: 3 counts adding up to 7, none
    below what that seat has already taken this hand."""
    if type(t) is not list or len(t) != 3:
        raise RuleError("totals need 3 trick counts, one per seat (%s), not %r" % (", ".join(s["players"]), t))
    had = s["tricks"]
    for p in range(3):
        v = t[p]
        name = s["players"][p]
        if type(v) is not int:
            raise RuleError("%s's tricks must be a whole number, not %r" % (name, v))
        if v < 0 or v > 7:
            raise RuleError("%s's tricks must be 0-7 (a hand has 7 tricks), not %d" % (name, v))
        if v < had[p]:
            raise RuleError("%s has already taken %d trick%s this hand, so cannot end it with %d"
                            % (name, had[p], "" if had[p] == 1 else "s", v))
    if sum(t) != 7:
        raise RuleError("the totals must add up to the hand's 7 tricks, not %d" % sum(t))
    s["tricks"] = list(t)
    _score(s)


def _score(s):
    """Score the hand, then end the game or deal the next hand.

    Of those at or above the target, a bidder who made the bid goes out;
    otherwise the single highest total wins; a tie at the top plays on. A
    set bidder still above target from an earlier play-on does not go out
    (docs/games/moon.md)."""
    b = s["bidder"]
    bid = s["bid"]
    pts = list(s["tricks"])
    made = pts[b] >= min(bid, 7)
    pts[b] = bid if made else -bid
    sc = list(s["scores"])
    for p in range(3):
        sc[p] += pts[p]
    s["scores"] = sc
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
        v = [b for b in BIDS if b > s["bid"]]
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


def turn(state):
    """{"leader": the hand's first bidder, "to_act": whose turn it is to
    bid, name trump or play a tile; both None once the game is over}."""
    s = state
    ph = s["phase"]
    if s["over"]:
        return {"leader": None, "to_act": None}
    if ph == "bidding":
        act = _turn(s)
    elif ph == "trump":
        act = s["bidder"]
    else:
        act = (s["leader"] + len(s["trick"])) % 3
    return {"leader": s["first"], "to_act": act}


def placings(state):
    """Places by total; once the game is over its winner is first, which
    is the bidder who made the bid even with a lower total than another
    player past the target."""
    w = state["winner"]
    return pl.order(pl.solo(3), state["scores"], None if w is None else [w])


def standings(state):
    return pl.rows(state, placings(state))


def winner(state):
    return state["winner"]
