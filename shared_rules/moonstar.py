"""Moonstar (Avalon Hill), all twelve games: the rules-core module.

The device and the PC drive a game only through these five functions
(docs/rules-core.md); events, options, legal() hints and the decisions
where the rules are silent are in docs/games/moonstar.md.
"""

# The rules are split over small moonstar_* modules because MicroPython
# parses a whole module before compiling it, and a big module does not
# compile in the test heap (64K): opts (variants and their numbers), first
# (first setter), setup (set-up, Game 12 choice), bid (bids, challenges,
# time-up), result (result entry, side bets), round (scoring, next round),
# legal. moonstar_board (moves, landing scores) is shared with the solver.
#
# States are copy-on-write: apply copies the top-level dict and replaces
# the lists it changes, never changing a nested value in place, so states
# share what did not change and a replay needs no deep clone per event.

from shared_rules.errors import RuleError
from shared_rules.util import is_int

OPTION_KEYS = ("game", "moons", "dice", "planets", "bid_seconds", "play_seconds", "start")
# Event type -> (phases it is legal in). Most frequent first.
EVENTS = (
    ("bid", ("bidding",)), ("time_up", ("bidding", "playing")),
    ("result", ("playing", "result")), ("setup", ("setup",)),
    ("challenge", ("bidding",)), ("bet", ("betting",)), ("start_play", ("betting",)),
    ("variants", ("choose",)), ("choose_setter", ("first",)),
    ("roll_for_setter", ("first",)),
    ("fix_situation", ("bidding", "betting", "playing", "result")),
)


def _seconds(options, key):
    value = options.get(key, 60)
    if not is_int(value) or value < 10 or value > 600:
        raise RuleError("%s must be a whole number of seconds from 10 to 600, not %r" % (key, value))
    return value


def new(players, options=None):
    # The variants' tables load here, not with this module: after new()
    # they are needed again only by Game 12's per-round choice. So do the
    # players' checks.
    from shared_rules.moonstar_opts import check_games, config, label
    from shared_rules.players import check_players, start_scores

    players = check_players(players, 2, 8)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RuleError("options must be a JSON object")
    for key in options:
        if key not in OPTION_KEYS:
            raise RuleError("unknown Moonstar option %r (known: %s)" % (key, ", ".join(OPTION_KEYS)))
    game = options.get("game", 1)
    if isinstance(game, list):
        games = check_games(game, "a combined game")
        if not games:
            raise RuleError("a combined game names at least one of Games 2-11")
        game = games
    elif not is_int(game) or game < 1 or game > 12:
        raise RuleError("game must be 1-12, or a list of Games 2-11 to combine, not %r" % (game,))
    else:
        games = [] if game in (1, 12) else [game]
    cfg = None
    if game == 12:
        for key in ("moons", "dice", "planets"):
            if key in options:
                raise RuleError("in Game 12 the setter picks the %s each round; it is not a game option" % key)
    else:
        cfg = config(games, options, label(game) if is_int(game) else "this combination")
    play = None
    if cfg is not None and not cfg["timed_play"]:
        if "play_seconds" in options:
            raise RuleError("Game 8 has no play time limit, so play_seconds does not apply")
    else:
        play = _seconds(options, "play_seconds")
    n = len(players)
    target = 100 if 7 in games else (50 if 8 in games else 200)
    # Challenges and side bets (and Game 12, which may pick them) can take
    # a total below 0, so a game carried over from paper may start there.
    # (At the target the game would be over: a start stays below it.)
    low = -target if game == 12 or 10 in games or 11 in games else 0
    start = start_scores(options, n, low, target - 1) or [0] * n
    return {
        "players": players, "scores": start, "start_scores": list(start), "round": 0,
        "phase": "first", "over": False, "winner": None, "game": game, "target": target,
        "bid_seconds": _seconds(options, "bid_seconds"), "play_seconds": play,
        "cfg": cfg, "setter": None, "first_leader": None, "rolls": [], "out": None,
        "rolloff": None, "sit": None, "bid": 0, "bidder": None, "challengers": [],
        "bets": None, "timeout": False, "last": None,
    }


def _wrong_phase(state, kind):
    # Names what is legal instead, from the table (legal() may not be loaded).
    phase = state["phase"]
    cfg = state["cfg"] or {}
    now = []
    for k, ph in EVENTS:
        if phase in ph and not (k == "challenge" and not cfg.get("challenges")):
            if not (k == "time_up" and phase == "playing" and not cfg.get("timed_play")):
                now.append(k)
    now.sort()
    return RuleError("no %s now: the phase is %s (legal now: %s)" % (kind, phase, ", ".join(now)))


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
        from shared_rules import moonstar_bid as b

        if kind == "bid":
            return b.bid(state, event)
        if kind == "time_up":
            return b.time_up(state)
        return b.challenge(state, event)
    if kind == "result" or kind == "bet":
        from shared_rules import moonstar_result as r

        if kind == "result":
            return r.result(state, event)
        if not state["cfg"]["side_bets"]:
            raise RuleError("side bets are part of Game 11 (Side Bets) only")
        from shared_rules.moonstar_bid import seat

        return r.bet(state, seat(state, event), event)
    if kind == "start_play":
        s = dict(state)
        s["phase"] = "playing"
        return s
    if kind == "setup" or kind == "variants" or kind == "fix_situation":
        from shared_rules import moonstar_setup as su

        if kind == "variants":
            return su.variants(state, event)
        return su.setup(state, event, kind == "fix_situation")
    from shared_rules import moonstar_first as f

    if kind == "roll_for_setter":
        return f.roll_for_setter(state, event)
    return f.choose_setter(state, event)


def legal(state):
    """What may happen next (built by moonstar_legal)."""
    from shared_rules.moonstar_legal import legal as build

    return build(state)


def turn(state):
    """{"leader": setter, "to_act": seat or None} (moonstar_legal.turn)."""
    from shared_rules.moonstar_legal import turn as t

    return t(state)


def best_possible(state):
    """The best score the last finished round allowed (moonstar_legal)."""
    from shared_rules.moonstar_legal import best_possible as b

    return b(state)


def standings(state):
    scores = state["scores"]
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    return [[state["players"][i], scores[i]] for i in order]


def winner(state):
    return state["winner"]
