"""Checking a Moonstar situation against the set-up rules (RULINGS.md
"Set-up"): apart from board.py so that scoring a result, and the
best-possible solve that goes with it, do not hold these checks and their
messages in the board's small heap."""

from shared_rules.errors import RuleError
from shared_rules.moonstar.board import MOVEMENTS, PLANET_MAX, SCORINGS, STARS, MAX_MOONS_PER_STAR, _star, _whole


def check_situation(sit):
    """Raise RuleError naming the first way `sit` breaks the set-up rules;
    return it (with defaults filled in) when it is sound."""
    if not isinstance(sit, dict):
        raise RuleError("a situation must be a JSON object")
    stars = sit.get("stars", STARS)
    if stars != STARS:
        raise RuleError("the board has 12 stars, not %r" % (stars,))
    scoring = sit.get("scoring", "planets")
    if scoring not in SCORINGS:
        raise RuleError("scoring must be one of %s, not %r" % ("/".join(SCORINGS), scoring))
    movement = sit.get("movement", "standard")
    if movement not in MOVEMENTS:
        raise RuleError("movement must be standard or more, not %r" % (movement,))
    favorite = sit.get("favorite_star", False)
    if favorite not in (True, False):
        raise RuleError("favorite_star must be true or false")
    planets = sit.get("planets", [])
    moons = sit.get("moons")
    dice = sit.get("dice")
    if not isinstance(planets, list) or not isinstance(moons, list) or not isinstance(dice, list):
        raise RuleError("planets, moons and dice must be lists")
    if scoring != "planets" and planets:
        raise RuleError("%s scoring (Game %d) uses no planets" % (scoring, 7 if scoring == "squares" else 8))
    if favorite and scoring != "planets":
        raise RuleError("the Favorite Star (Game 6) needs planets to sit on")
    if favorite and not planets:
        raise RuleError("the Favorite Star (Game 6) needs at least one planet")
    if len(planets) > 6:
        raise RuleError("at most 6 planets, not %d" % len(planets))
    taken = [0] * STARS
    for i, p in enumerate(planets):
        if not isinstance(p, list) or len(p) != 2:
            raise RuleError("planet %d must be [star, value]" % i)
        s = _star(p[0], "planet %d" % i)
        v = _whole(p[1], "planet %d's value" % i)
        if v < 1 or v > PLANET_MAX:
            raise RuleError("planet %d's value must be from 1 to %d, not %d" % (i, PLANET_MAX, v))
        if taken[s]:
            raise RuleError("a second planet on star %d (only one planet per star)" % s)
        taken[s] = 1
    if not moons:
        raise RuleError("there must be at least one moon")
    if len(moons) > 15:
        raise RuleError("at most 15 moons, not %d" % len(moons))
    count = [0] * STARS
    for i, m in enumerate(moons):
        s = _star(m, "moon %d" % i)
        count[s] += 1
        if count[s] > MAX_MOONS_PER_STAR:
            raise RuleError("a 4th moon on star %d (at most 3 moons per star)" % s)
    if not dice:
        raise RuleError("there must be at least one die")
    if len(dice) > 11:
        raise RuleError("at most 11 dice, not %d" % len(dice))
    for i, d in enumerate(dice):
        _whole(d, "die %d" % i)
        if d < 1 or d > 6:
            raise RuleError("die %d shows %d, but a die shows 1-6" % (i, d))
    return {
        "stars": STARS, "planets": planets, "moons": moons, "dice": dice,
        "scoring": scoring, "movement": movement, "favorite_star": favorite,
    }
