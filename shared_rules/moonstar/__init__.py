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
# assign). A module is imported where it is needed, so a board holds only
# the phase at hand (and legal(), which every phase asks: KEEP).
#
# States are copy-on-write: apply copies the top-level dict and replaces
# the lists it changes, never changing a nested value in place, so states
# share what did not change and a replay needs no deep clone per event.

from shared_rules.errors import RuleError

# What a device keeps loaded with the rules (start.rules_resident):
# legal() and turn() (allowed.py, with the limits it offers), which it
# asks after every event, as the other games' rules modules hold theirs;
# a Pico takes some 50 ms to load them each time. The phases' handlers
# and tables load when their event comes, here and on a device. (The PC
# and the tests do not hold them: the rules core's tests run in 64K.)
KEEP = ("shared_rules.moonstar.limits", "shared_rules.moonstar.allowed")
# What new() loads (the options' checks), which a device loads ahead of a
# game's start over its loop passes, and lets go after it.
NEW = ("shared_rules.util", "shared_rules.moonstar.opts", "shared_rules.moonstar.start")
# What a device loads ahead, over its idle loop passes, in each phase:
# code the phase's usual event loads when applied, and legal() after it
# (Session.fetch_ahead), so the pass that applies it need not load it.
# Each list is leaf first (a module after those it imports), so that each
# import loads one module: a Pico takes 10-60 ms a module. Only the
# set-up's base comes ahead (all its code, held between passes beside its
# screens, was some 11 KB on a Pico's heap). A result's comes while the
# game screen is alone; a points entry that solves covers it, and so lets
# it go for the solve's room (App.push). CODE names, leaf first, what
# applying an event loads, for the event's own moment to load a module a
# pass before it applies it: the device's check of a result against a
# known set-up.
_BASE = ("shared_rules.util", "shared_rules.moonstar.board", "shared_rules.moonstar.round")
_RESULT = _BASE + ("shared_rules.moonstar.result",)
AHEAD = {
    "choose": _BASE,
    "first": _BASE + ("shared_rules.moonstar.first",),
    "setup": _BASE,
    "bidding": ("shared_rules.util", "shared_rules.moonstar.bid"),
    "playing": _RESULT,
    "result": _RESULT,
}
CODE = {"result": _RESULT}

# Event type -> (phases it is legal in). Most frequent first.
EVENTS = (
    ("bid", ("bidding",)), ("time_up", ("bidding", "playing")),
    ("result", ("playing", "result")), ("setup", ("setup",)),
    ("challenge", ("bidding",)), ("bet", ("betting",)), ("start_play", ("betting",)),
    ("variants", ("choose",)), ("choose_setter", ("first",)),
    ("roll_for_setter", ("first",)),
    ("fix_situation", ("bidding", "betting", "playing", "result")),
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


def _wrong_phase(state, kind):
    # Names what is legal instead, from the table (legal() may not be
    # loaded), in the table's words (moonstar/words.py): a player may read
    # it as a toast.
    from shared_rules.moonstar.words import event_words, phase_words

    phase = state["phase"]
    cfg = state["cfg"] or {}
    now = []
    for k, ph in EVENTS:
        if phase in ph and not (k == "challenge" and not cfg.get("challenges")):
            if not (k == "time_up" and phase == "playing" and not cfg.get("timed_play")):
                now.append(event_words(k))
    now.sort()
    return RuleError("no %s now: this is %s (now: %s)" % (event_words(kind), phase_words(phase), ", ".join(now)))


def apply(state, event):
    """The state after `event`; RuleError, with the state untouched, if
    the rules do not allow it."""
    if not isinstance(event, dict):
        raise RuleError("an event must be a JSON object")
    kind = event.get("type")
    if state["over"]:
        raise RuleError("the game is over: %s has won" % state["players"][state["winner"]])
    phases = None
    for k, ph in EVENTS:
        if k == kind:
            phases = ph
            break
    if phases is None:
        raise RuleError("unknown Moonstar event type %r" % (kind,))
    if state["phase"] not in phases:
        raise _wrong_phase(state, kind)
    # Handler modules load on first use (see the note at the top).
    if kind == "bid" or kind == "challenge" or kind == "time_up":
        from shared_rules.moonstar import bid as b

        if kind == "bid":
            return b.bid(state, event)
        if kind == "time_up":
            return b.time_up(state)
        return b.challenge(state, event)
    if kind == "result" or kind == "bet":
        from shared_rules.moonstar import result as r

        if kind == "result":
            return r.result(state, event)
        if not state["cfg"]["side_bets"]:
            raise RuleError("side bets are part of Game 11 (Side Bets) only")
        from shared_rules.moonstar.bid import seat

        return r.bet(state, seat(state, event), event)
    if kind == "start_play":
        s = dict(state)
        s["phase"] = "playing"
        return s
    if kind == "setup" or kind == "variants" or kind == "fix_situation":
        from shared_rules.moonstar import setup as su

        if kind == "variants":
            return su.variants(state, event)
        return su.setup(state, event, kind == "fix_situation")
    from shared_rules.moonstar import first as f

    if kind == "roll_for_setter":
        return f.roll_for_setter(state, event)
    return f.choose_setter(state, event)


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
            and state["phase"] in dict(EVENTS)["result"]:
        from shared_rules.moonstar.result import ResultCheck

        return ResultCheck(state, event, plan)
    return _Applied(apply(state, event))


def legal(state):
    """What may happen next (built by moonstar_legal)."""
    from shared_rules.moonstar.allowed import legal as build

    return build(state)


def turn(state):
    """{"leader": setter, "to_act": seat or None} (moonstar_legal.turn)."""
    from shared_rules.moonstar.allowed import turn as t

    return t(state)


def placings(state):
    """Places by score; the winner (highest at the goal, alone) first."""
    from shared_rules import places as pl

    w = state["winner"]
    return pl.order(pl.solo(len(state["players"])), state["scores"], None if w is None else [w])


def standings(state):
    from shared_rules.places import rows

    return rows(state, placings(state))


def winner(state):
    return state["winner"]
