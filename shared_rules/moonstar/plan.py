"""Moonstar's plans: a plan (moonstar/board.py says what one is) checked
move by move, and what its landings score. Used by the result entry
(shared_rules/moonstar/result.py) and the device's result screen, so a
landing is scored in exactly one place."""

from shared_rules.errors import RuleError
from shared_rules.moonstar.board import STARS, _star, _whole, destinations, planet_values


def score_landings(sit, landings, favorite=None):
    """Points for moons that landed on `landings` (stars, in move order).

    planets: a moon scores its star's planet value, or 1 on an empty star;
    on the Favorite Star it scores double. squares (Game 7): a star with n
    moons scores n*n. chains (Game 8): each moon scores the length of the
    run of consecutive moves on the same star, so a run of k scores
    k(k+1)/2."""
    scoring = sit["scoring"]
    if scoring == "planets":
        values = planet_values(sit)
        total = 0
        for star in landings:
            v = values[star] or 1
            total += 2 * v if star == favorite else v
        return total
    if scoring == "squares":
        count = [0] * STARS
        for star in landings:
            count[star] += 1
        return sum(n * n for n in count)
    total = 0
    run = 0
    prev = -1
    for star in landings:
        run = run + 1 if star == prev else 1
        total += run
        prev = star
    return total


def check_favorite(sit, favorite):
    """The Favorite Star must be on a star with a planet (Game 6) and is only
    used when the situation says so."""
    if not sit["favorite_star"]:
        if favorite is not None:
            raise RuleError("this round has no Favorite Star")
        return None
    if favorite is None:
        raise RuleError("Game 6: the player must place the Favorite Star")
    _star(favorite, "the Favorite Star")
    if not planet_values(sit)[favorite]:
        raise RuleError("the Favorite Star must go on a star with a planet; star %d has none" % favorite)
    return favorite


def plan_landings(sit, plan, complete=True):
    """Check a plan move by move and return its landing stars in order.

    Each moon and each die is used at most once, and every move must be one
    the die allows. With `complete`, every die is placed (more moons than
    dice) or every moon gets a die (more dice than moons); without it (time
    ran out) fewer moves are allowed, and unmoved moons score nothing."""
    if not isinstance(plan, list):
        raise RuleError("moves must be a list")
    moons = sit["moons"]
    dice = sit["dice"]
    used_moon = [False] * len(moons)
    used_die = [False] * len(dice)
    landings = []
    for k, move in enumerate(plan):
        if not isinstance(move, dict):
            raise RuleError("move %d must be an object {moon, die, to}" % (k + 1))
        for key in ("moon", "die", "to"):
            if key not in move:
                raise RuleError("move %d has no %r" % (k + 1, key))
        m = move["moon"]
        d = move["die"]
        to = move["to"]
        # Fast path for the usual well-formed move; messages are built only
        # when something is wrong (this runs once per move in every replay).
        if type(m) is not int or type(d) is not int or type(to) is not int or not 0 <= to < STARS:
            m = _whole(m, "move %d's moon" % (k + 1))
            d = _whole(d, "move %d's die" % (k + 1))
            to = _star(to, "move %d's landing" % (k + 1))
        if m < 0 or m >= len(moons):
            raise RuleError("move %d: there is no moon %d (moons are 0-%d)" % (k + 1, m, len(moons) - 1))
        if d < 0 or d >= len(dice):
            raise RuleError("move %d: there is no die %d (dice are 0-%d)" % (k + 1, d, len(dice) - 1))
        if used_moon[m]:
            raise RuleError("move %d: moon %d has already moved" % (k + 1, m))
        if used_die[d]:
            raise RuleError("move %d: die %d is already used" % (k + 1, d))
        if to not in destinations(moons[m], dice[d], sit["movement"]):
            raise RuleError("move %d: a %d cannot take moon %d from star %d to star %d" % (k + 1, dice[d], m, moons[m], to))
        used_moon[m] = True
        used_die[d] = True
        landings.append(to)
    need = min(len(moons), len(dice))
    if complete and len(landings) != need:
        raise RuleError("a finished round moves %d moons, not %d" % (need, len(landings)))
    return landings


def plan_score(sit, plan, favorite=None, complete=True):
    """Points a legal plan scores; RuleError if the plan is not legal."""
    favorite = check_favorite(sit, favorite)
    return score_landings(sit, plan_landings(sit, plan, complete), favorite)


def reaches(state, plan, points):
    """Whether `plan` ({"plan", "favorite"}: a solver's answer the device
    already has for this round's set-up, or None) is a plan the rules find
    legal, as the moves entry would, that scores `points` or more: the
    proof that accepts them, so no search is needed. A plan that is not
    legal proves nothing (False): it is the device's hint, not the
    player's entry, and the search decides."""
    if not isinstance(plan, dict):
        return False
    try:
        return plan_score(state["sit"], plan.get("plan"), plan.get("favorite"), not state["timeout"]) >= points
    except (RuleError, TypeError, KeyError, IndexError, ValueError):
        return False
