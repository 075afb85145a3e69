"""Moonstar (Avalon Hill), all twelve games: the rules-core module.

The device and the PC drive a game only through these five functions
(docs/rules-core.md); events, options, legal() hints and the decisions
where the rules are silent are in docs/games/moonstar.md.
"""

# The package's modules, each by its job: opts (the games and their
# numbers), start (a new game's options checked), first (the first
# setter), setup (the set-up, Game 12's choice), bid (bids, challenges,
# time up), result (the result's entry and check, side bets), round
# (scoring, the next round), allowed (legal()'s menus), limits (the
# points and bets a round allows, offered and checked), board (moves and
# landing scores, shared with the solver), check (a situation's checks),
# words (events and phases as players say them, for messages), and the
# solver's parts (solver, plan, piles, piles_start, pairs, piles_plan,
# assign). The placings load with this module; an event's handler loads
# when its event comes (EVENTS), and legal()'s menus when they are first
# asked, so what is loaded beside them is the phase at hand.
#
# States are copy-on-write: apply copies the top-level dict and replaces
# the lists it changes, never changing a nested value in place, so states
# share what did not change and a replay needs no deep clone per event.

from shared_rules.dispatch import dispatch
from shared_rules import places as pl

# Event type -> the phases it is legal in, and its handler: a module of
# this package (None: this module) and a function in it (None: named as
# the event), for shared_rules/dispatch.py. Most frequent first.
EVENTS = (
    ("bid", ("bidding",), "bid", None),
    ("time_up", ("bidding", "playing"), "bid", None),
    ("result", ("playing", "result"), "result", None),
    ("setup", ("setup",), "setup", None),
    ("challenge", ("bidding",), "bid", None),
    ("bet", ("betting",), "result", None),
    ("start_play", ("betting",), None, None),
    ("variants", ("choose",), "setup", None),
    ("choose_setter", ("first",), "first", None),
    ("roll_for_setter", ("first",), "first", None),
    ("fix_situation", ("bidding", "betting", "playing", "result"), "setup", "setup"),
)


def new(players, options=None):
    """A new game's state (shared_rules/moonstar/start.py: the options'
    checks, loaded for a game's start only)."""
    from shared_rules.moonstar.start import new as make

    return make(players, options)


def start_bounds(options):
    """(lowest, highest) starting score from paper (start.py)."""
    from shared_rules.moonstar.start import start_bounds as bounds

    return bounds(options)


def _over(state):
    return "the game is over: %s has won" % state["players"][state["winner"]]


def _wrong_phase(state, kind):
    # in the players' words (words.py, loaded for the message only): a
    # player may read it as a toast
    from shared_rules.moonstar.words import wrong_phase

    return wrong_phase(state, kind, EVENTS)


def apply(state, event):
    """The state after `event`; RuleError, with the state untouched, if
    the rules do not allow it."""
    return dispatch(state, event, EVENTS, __name__, "Moonstar", _over, _wrong_phase)


def start_play(state, event):
    """The side bets are in (Game 11): the play begins."""
    s = dict(state)
    s["phase"] = "playing"
    return s


class _Applied:
    """begin()'s answer for an event decided at once."""

    def __init__(self, state):
        self.state = state

    def step(self, budget):
        return self.state


def begin(state, event, plan=None):
    """apply() in slices, for a device that must not wait on one call:
    returns an object whose step(budget) does about `budget` units of
    work and returns None until the event is decided, then the new state
    (RuleError, at once or from a step, if the rules refuse it). Only a
    result entered as points against a known situation needs slices (the
    best-possible check, docs/solver.md); every other event, and every
    check that can be made without the solver, is decided here. `plan`:
    a plan the device's solver already found for the set-up ({"plan",
    "favorite"}); if the rules find it legal and it reaches the points, it
    is the proof that accepts them, and no search runs."""
    if isinstance(event, dict) and event.get("type") == "result" and not state["over"] \
            and state["phase"] in ("playing", "result"):  # EVENTS' result row
        from shared_rules.moonstar.result import ResultCheck

        return ResultCheck(state, event, plan)
    return _Applied(apply(state, event))


def legal(state):
    """What may happen next (allowed.py: on a device, loaded with the
    game as it starts, a module a loop pass)."""
    from shared_rules.moonstar.allowed import legal as build

    return build(state)


def turn(state):
    """{"leader": setter, "to_act": seat or None} (allowed.py)."""
    from shared_rules.moonstar.allowed import turn as t

    return t(state)


def placings(state):
    """Places by score; the winner (highest at the goal, alone) first."""
    w = state["winner"]
    return pl.order(pl.solo(len(state["players"])), state["scores"], None if w is None else [w])


def standings(state):
    return pl.rows(state, placings(state))


def winner(state):
    return state["winner"]
