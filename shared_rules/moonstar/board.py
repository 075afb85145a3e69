"""Moonstar's board: the 12-star ring, where a moon may move, and the
planets' values. Shared by the game rules and the solver (best possible
round). What a plan and its landings score is in moonstar/plan.py: the
solver scores with the planets' values alone and never needs it, and it
runs when the board's memory is tightest.

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
