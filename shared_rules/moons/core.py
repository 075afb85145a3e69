"""Moons' shared core: the planets, the seats, the supply and the tokens,
used by the game's contract (shared_rules/moons/__init__.py), a new
game's checks (new.py) and the tricks (tricks.py)."""

from shared_rules.errors import RuleError


PLANETS = ("jupiter", "saturn", "neptune", "uranus")


NAMES = ("Jupiter", "Saturn", "Neptune", "Uranus")  # for messages


ALL = (0, 1, 2, 3)


def planet(value, what="planet"):
    """Index 0-3 of a planet name; RuleError naming the four."""
    if value in PLANETS:  # the usual case, without a new string
        return PLANETS.index(value)
    if isinstance(value, str) and value.lower() in PLANETS:
        return PLANETS.index(value.lower())
    raise RuleError("%s must be one of %s, not %r" % (what, ", ".join(PLANETS), value))


def _start_round(s):
    n = len(s["players"])
    s["tableaux"] = [None] * n
    s["tricks"] = [0] * n
    s["leader"] = s["first"]
    s["phase"] = "tableau"


def _seat_of(players, value, what):
    n = len(players)
    if type(value) is not int or value < 0 or value >= n:
        if type(value) is int:
            raise RuleError("seat %d does not exist: seats are 0-%d (%s)" % (value, n - 1, ", ".join(players)))
        raise RuleError("%s must be a seat, 0-%d (%s), not %r" % (what, n - 1, ", ".join(players), value))
    return value


def seat(state, value, what):
    """`value` as a seat of this game; RuleError naming the seats."""
    if type(value) is int and 0 <= value < len(state["players"]):
        return value
    return _seat_of(state["players"], value, what)


def options(supply, allowed):
    """The planets in `allowed` the supply still has."""
    return [i for i in ALL if supply[i] and i in allowed]


def choose(choice, supply, allowed, who):
    """The planet a player takes among `allowed` (ALL, or his tableau):
    his choice if the supply has it, the only option if he named none,
    None when there is nothing to take."""
    if choice is None:
        opts = options(supply, allowed)
        if len(opts) < 2:
            return opts[0] if opts else None
        raise RuleError("%s must choose a token: %s" % (who, " or ".join([PLANETS[i] for i in opts])))
    i = planet(choice, "the token taken")
    if supply[i] and i in allowed:
        return i
    opts = options(supply, allowed)
    if not supply[i]:
        reason = "the supply has no %s token left" % NAMES[i]
    else:
        reason = "%s is not in his tableau" % NAMES[i]
    if opts:
        reason += "; %s may take %s" % (who, " or ".join([PLANETS[i] for i in opts]))
    else:
        reason += "; he takes nothing, so leave 'take' out"
    raise RuleError("%s cannot take %s: %s" % (who, PLANETS[i], reason))


def give(s, p, who, count=1):
    """Move `count` of planet p from the supply to seat `who` (negative:
    back to the supply), rescoring him; ends the game on an empty supply.
    The supply, the token lists and the scores are replaced, not changed:
    the state before shares them."""
    supply = list(s["supply"])
    supply[p] -= count
    s["supply"] = supply
    tokens = list(s["tokens"])
    t = list(tokens[who])
    t[p] += count
    tokens[who] = t
    s["tokens"] = tokens
    scores = list(s["scores"])
    scores[who] = s["start_scores"][who] + set_score(t, s["scoring"])
    s["scores"] = scores
    if not sum(supply):
        _finish(s)


def set_score(tokens, table):
    """Points for token counts [j, s, n, u]. Tokens are grouped by taking
    one of every planet the player still has, again and again, so groups
    are as large as they can be; a group of k planets scores table[k-1].
    Default table: 1 a token, and 10 (not 4) per complete set."""
    total = 0
    taken = 0
    k = 4
    for c in sorted(tokens):
        total += (c - taken) * table[k - 1]
        taken = c
        k -= 1
    return total


def _finish(s):
    """Highest score wins; a tie goes to the most tokens; a tie on both is
    a shared win (all in "winners"; winner() names the first seat)."""
    keys = [(s["scores"][i], sum(s["tokens"][i])) for i in range(len(s["players"]))]
    best = max(keys)
    s["winners"] = [i for i in range(len(keys)) if keys[i] == best]
    s["winner"] = s["winners"][0]
    s["over"] = True
    s["phase"] = "over"
