"""Moonstar's board: the 12-star ring, where a moon may move, and what a
set of landings scores. Shared by the game rules (result entry) and the
solver (best possible round), so a landing is scored in exactly one place.

A *situation* is plain data (the same JSON the solver reads):

    {"stars": 12, "planets": [[star, value], ...], "moons": [star, ...],
     "dice": [1-6, ...], "scoring": "planets" | "squares" | "chains",
     "movement": "standard" | "more", "favorite_star": bool}

A *plan* is a list of moves {"moon": i, "die": j, "to": star}: moon i
(index into "moons") carries die j (index into "dice") to star `to`.
"""

from shared_rules.errors import RuleError

STARS = 12
MAX_MOONS_PER_STAR = 3
PLANET_MAX = 1000  # "any value" planets (Game 5), bounded so no number in a log is absurd
SCORINGS = ("planets", "squares", "chains")
MOVEMENTS = ("standard", "more")


def _whole(value, what):
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("%s must be a whole number, not %r" % (what, value))
    return value


def _star(value, what):
    _whole(value, what)
    if value < 0 or value >= STARS:
        raise RuleError("%s is star %d, but stars are numbered 0-%d" % (what, value, STARS - 1))
    return value


def check_situation(sit):
    """Raise RuleError naming the first way `sit` breaks the set-up rules;
    return it (with defaults filled in) when it is sound. In its own module
    (moonstar_check), loaded when a set-up is entered or solved from
    outside: scoring a result needs only the moves below."""
    from shared_rules.moonstar_check import check_situation as check

    return check(sit)


def destinations(start, die, movement):
    """The distinct stars a moon on `start` can reach with `die`.

    Standard: die steps either way. Game 9 ("more"): clockwise die or 2*die,
    counter-clockwise die or die//2 (so a 1 may also stay put)."""
    out = [(start + die) % STARS]
    ccw = (start - die) % STARS
    if ccw not in out:
        out.append(ccw)
    if movement == "more":
        for to in ((start + 2 * die) % STARS, (start - die // 2) % STARS):
            if to not in out:
                out.append(to)
    return out


def planet_values(sit):
    """values[star] = planet value on that star, or 0 for none."""
    values = [0] * STARS
    for star, value in sit["planets"]:
        values[star] = value
    return values


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
