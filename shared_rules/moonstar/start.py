"""Moonstar's new(): a new game's players and options checked, and its
first state. Loaded for a game's start only (shared_rules/moonstar/__init__.py
forwards to it), so a game in progress does not carry the options' checks.
"""

from shared_rules.ticks import const
from shared_rules.errors import RuleError
from shared_rules.util import is_int
from shared_rules.moonstar.opts import check_games, config, label
from shared_rules.players import check_players, start_scores

_OPTION_KEYS = const(("game", "moons", "dice", "planets", "bid_seconds", "play_seconds", "start"))
_START_BOUND = const(9999)  # a start from paper: up to this many points either way (sanity, not a rule)


def _seconds(options, key):
    value = options.get(key, 60)
    if not is_int(value) or value < 10 or value > 600:
        raise RuleError("%s must be a whole number of seconds from 10 to 600, not %r" % (key, value))
    return value


def start_bounds(options):
    """(lowest, highest) starting score of a game carried over from paper
    under these options: what new() accepts, and so all a device offers.
    Only Game 10's challenges take a total below 0, so a start goes below
    0 only with Game 10 in play (alone, combined, or under Game 12, whose
    setter may pick it); _START_BOUND bounds it for sanity."""
    game = options.get("game", 1)
    games = game if isinstance(game, list) else (game,)
    return (-_START_BOUND if 10 in games or 12 in games else 0), _START_BOUND


def new(players, options=None):
    # The variants' tables and the players' checks are modules of their
    # own: Game 12's per-round choice needs the tables again, and every
    # game's new() the checks.

    players = check_players(players, 2, 8)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RuleError("options must be a JSON object")
    for key in options:
        if key not in _OPTION_KEYS:
            raise RuleError("unknown Moonstar option %r (known: %s)" % (key, ", ".join(_OPTION_KEYS)))
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
    # one player alone at or past the target would have won already
    low, high = start_bounds(options)
    start = start_scores(options, n, low, high, "score", target) or [0] * n
    return {
        "players": players, "scores": start, "start_scores": list(start), "round": 0,
        "phase": "first", "over": False, "winner": None, "game": game, "target": target,
        "bid_seconds": _seconds(options, "bid_seconds"), "play_seconds": play,
        "cfg": cfg, "setter": None, "first_leader": None, "rolls": [], "out": None,
        "rolloff": None, "sit": None, "bid": 0, "bidder": None, "challengers": [],
        "bets": None, "timeout": False, "last": None,
    }
