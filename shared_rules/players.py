"""Who plays, and from what score: the checks every game's new() makes on
the players' names and on a start carried over from paper. Loaded by
new() only: a game in progress never needs them, and a device lets them
go after the start (firmware/start.py)."""

from shared_rules.errors import RuleError
from shared_rules.names import fold, why_not

NAME_MAX = 64  # characters in a player name: a log's names are bounded too


def check_players(players, low, high):
    """low..high player names: text of 1-64 characters that
    shared_rules.names accepts (no control, invisible or combining
    character, no special space, no space at either end), and no two the
    same without regard to case, for every letter ("Ann" and "ann",
    "Émile" and "émile", "Straße" and "STRASSE" are one player at the
    table and on the PC): names.fold, one table for both interpreters,
    so a log replays alike."""

    if not isinstance(players, list):
        raise RuleError("players must be a list of names, not %s" % type(players).__name__)
    if len(players) < low or len(players) > high:
        raise RuleError("this game needs %d to %d players, not %d" % (low, high, len(players)))
    seen = []
    for name in players:
        if not isinstance(name, str) or not 0 < len(name) <= NAME_MAX:
            raise RuleError("a player name must be text of 1 to %d characters, not %r" % (NAME_MAX, name))
        why = why_not(name)
        if why is not None:
            raise RuleError(why)
        key = fold(name)
        if key in seen:
            raise RuleError("player name \"%s\" is used twice (names are compared without case)" % name)
        seen.append(key)
    return list(players)


def start_scores(options, n, low, high, what="score", goal=None):
    """The "start" option (a game carried over from paper): one whole
    number from low to high per player or side, n of them; None without.
    low and high are sanity bounds, not the rules': a start tied at or
    past the goal is a game still in play (a tie at the top plays on),
    so only one side alone on top at or past `goal` is refused (that game
    is already won)."""
    v = options.get("start")
    if v is None:
        return None
    if not isinstance(v, list) or len(v) != n:
        raise RuleError("start must list one %s (%d), not %s"
                        % ("chip count per side" if what == "chips" else "score per player", n, repr(v)[:40]))
    for x in v:
        if type(x) is not int or x < low or x > high:
            raise RuleError("a starting %s must be a whole number from %d to %d, not %r" % (what, low, high, x))
    if goal is not None and v:
        best = max(v)
        if best >= goal and v.count(best) == 1:
            raise RuleError("a start of %d, alone on top at or past the goal of %d, is a game already won"
                            " (a tie at the top would play on)" % (best, goal))
    return list(v)
