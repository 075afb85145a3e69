"""Moonstar's variants: which of Games 1-12 are played, with which numbers
of moons, dice and planets, and what that means for a round (its config)."""

from shared_rules.errors import RuleError
from shared_rules.util import is_int

# (a, b, why): variants that cannot be played in the same round.
INCOMPATIBLE = (
    (7, 8, "both replace the scoring"),
    (6, 7, "Game 7 has no planet for the Favorite Star"),
    (6, 8, "Game 8 has no planet for the Favorite Star"),
    (5, 7, "Game 7 uses no planets"),
    (5, 8, "Game 8 uses no planets"),
    (2, 3, "each sets the numbers of moons and dice"),
    (2, 4, "each sets the numbers of moons and dice"),
    (3, 4, "each sets the numbers of moons and dice"),
)

# Game -> (moons low, high, dice low, high, relation): the rule text's ranges.
COUNTS = (
    (2, 7, 11, 7, 11, "equal"),
    (3, 8, 15, 7, 11, "moons"),
    (4, 7, 10, 8, 11, "dice"),
)


def label(g):
    return "Game %d" % g


def check_games(games, what):
    """A list of distinct variant numbers 2-11 that can be played together."""
    if not isinstance(games, list) or len(games) > 10:
        raise RuleError("%s must be a list of game numbers 2-11, each at most once" % what)
    for g in games:
        if not is_int(g) or g < 2 or g > 11:
            raise RuleError("%s can combine only Games 2-11, not %r" % (what, g))
        if games.count(g) > 1:
            raise RuleError("Game %d is named twice" % g)
    for a, b, why in INCOMPATIBLE:
        if a in games and b in games:
            raise RuleError("%s cannot be combined with %s: %s" % (label(a), label(b), why))
    return sorted(games)


def _range(value, what, low, high, g):
    if not is_int(value):
        raise RuleError("%s must be a whole number, not %r" % (what, value))
    if value < low or value > high:
        raise RuleError("%s uses %d-%d %s, not %d" % (label(g), low, high, what, value))


def _counts(games, source, where):
    for g, mlo, mhi, dlo, dhi, rel in COUNTS:
        if g in games:
            for key in ("moons", "dice"):
                if key not in source:
                    raise RuleError("%s needs the numbers of moons and dice (%s)" % (label(g), key))
            moons = source["moons"]
            dice = source["dice"]
            _range(moons, "moons", mlo, mhi, g)
            _range(dice, "dice", dlo, dhi, g)
            if rel == "equal" and moons != dice:
                raise RuleError("Game 2 uses as many dice as moons, not %d moons and %d dice" % (moons, dice))
            if rel == "moons" and moons <= dice:
                raise RuleError("Game 3 uses more moons than dice, not %d moons and %d dice" % (moons, dice))
            if rel == "dice" and dice <= moons:
                raise RuleError("Game 4 uses more dice than moons, not %d dice and %d moons" % (dice, moons))
            return moons, dice
    for key in ("moons", "dice"):
        if key in source:
            raise RuleError("%s is set only by Games 2-4, not in %s" % (key, where))
    return 7, 7


def _planets(games, source, where):
    if 5 not in games:
        if "planets" in source:
            raise RuleError("planets are chosen only in Game 5, not in %s" % where)
        return [] if (7 in games or 8 in games) else [5, 5, 10, 10]
    planets = source.get("planets")
    if not isinstance(planets, list) or not planets or len(planets) > 6:
        raise RuleError("Game 5 uses 1-6 planets, given as a list of values, not %r" % (planets,))
    for v in planets:
        if not is_int(v) or v < 1 or v > 1000:
            raise RuleError("a planet's value must be a whole number from 1 to 1000, not %r" % (v,))
    return list(planets)


def config(games, source, where):
    """A round's rules from its variants and their parameters (moons, dice
    and planets, read from `source`: the options or a Game 12 event)."""
    moons, dice = _counts(games, source, where)
    return {
        "games": games,
        "moons": moons,
        "dice": dice,
        "planets": _planets(games, source, where),
        "scoring": "squares" if 7 in games else ("chains" if 8 in games else "planets"),
        "movement": "more" if 9 in games else "standard",
        "favorite": 6 in games,
        "challenges": 10 in games,
        "side_bets": 11 in games,
        "timed_play": 8 not in games,
    }
