"""Moons' new(): a new game's players and options checked, and its first
state. Loaded for a game's start only (shared_rules/moons/__init__.py forwards to
it), so a game in progress does not carry the options' checks."""

from shared_rules.errors import RuleError
from shared_rules.moons.core import _seat_of, _start_round
from shared_rules.players import check_players, start_scores


def start_bounds(options):
    """(lowest, highest) starting score of a game carried over from paper,
    what new() accepts: the tokens never take points away, and 9999
    bounds it for sanity."""
    return 0, 9999


def new(players, options=None):

    players = check_players(players, 2, 6)
    o = options or {}
    if type(o) is not dict:
        raise RuleError("moons' options must be an object such as {\"first\": 1}, not %r" % (o,))
    for key in o:
        if key not in ("scoring", "first", "start"):
            raise RuleError("unknown option %r for moons (known: scoring, first, start)" % (key,))
    table = o.get("scoring") or [1, 2, 3, 10]
    if not isinstance(table, list) or len(table) != 4:
        raise RuleError("scoring must list 4 values: points for a group of 1, 2, 3 and 4 different planets")
    for v in table:
        if type(v) is not int or not 0 <= v <= 1000:
            raise RuleError("each scoring value must be a whole number of points from 0 to 1000, not %r" % (v,))
    n = len(players)
    first = 0
    if o.get("first") is not None:
        first = _seat_of(players, o["first"], "first")
    # "start": points of a game carried over from paper, added to what the
    # tokens score (the tokens themselves start again from the supply).
    low, high = start_bounds(o)
    start = start_scores(o, n, low, high) or [0] * n
    s = {"players": players, "scores": start, "start_scores": list(start), "round": 0, "over": False,
         "winner": None, "winners": [], "scoring": list(table), "supply": [17] * 4,
         "tokens": [[0] * 4 for _ in players], "first": first, "first_leader": first}
    _start_round(s)
    return s
