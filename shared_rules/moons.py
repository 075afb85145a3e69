"""Moons (trick-taking card game with planet tokens): the supply, each
round's tableaux, round-end tokens, Asteroid moves and set scoring. The
default scoring table is the rulings', not the reference card's. See
docs/games/moons.md. Tricks and legal() are in moons_tricks.

States are copy-on-write: apply copies the top-level dict and replaces the
lists it changes (give() below copies what a token changes), never
changing a nested value in place. A new state shares everything else with
the one before, so a replay does no deep copy per event and the states
of a Match's undo stack cost little memory.
"""

from shared_rules.errors import RuleError

PLANETS = ("jupiter", "saturn", "neptune", "uranus")
NAMES = ("Jupiter", "Saturn", "Neptune", "Uranus")  # for messages
ALL = (0, 1, 2, 3)
EVENTS = ("tableau", "first", "trick", "end", "move", "undo")

_TRICKS = None  # moons_tricks, imported on first use: it imports this module


def _tricks():
    global _TRICKS
    if _TRICKS is None:
        from shared_rules import moons_tricks
        _TRICKS = moons_tricks
    return _TRICKS


def planet(value, what="planet"):
    """Index 0-3 of a planet name; RuleError naming the four."""
    if value in PLANETS:  # the usual case, without a new string
        return PLANETS.index(value)
    if isinstance(value, str) and value.lower() in PLANETS:
        return PLANETS.index(value.lower())
    raise RuleError("%s must be one of %s, not %r" % (what, ", ".join(PLANETS), value))


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


def new(players, options=None):
    """A new game's state (shared_rules/moons_new.py: the options' checks,
    loaded for a game's start only)."""
    from shared_rules.moons_new import new as make

    return make(players, options)


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


def apply(state, event):
    if state["over"]:
        w = state["winners"]
        raise RuleError("the game is over: %s %s" % (
            " and ".join([state["players"][i] for i in w]), "won" if len(w) == 1 else "share the win"))
    kind = event.get("type")
    if kind == "trick":
        return _tricks().trick(state, event)
    if kind == "move":
        return _move(state, event)
    if kind == "end":
        return _end(state, event)
    if kind != "tableau" and kind != "first":
        if kind is None:
            raise RuleError("an event needs a \"type\": one of %s" % ", ".join(EVENTS))
        raise RuleError("moons has no %r event (events: %s)" % (kind, ", ".join(EVENTS)))
    if kind == "first" and state["round"]:
        raise RuleError("the first player is entered before the first trick of the game; "
                        "since then it has passed to the left each round")
    if sum(state["tricks"]):
        raise RuleError("%s before the first trick of %s" % (
            "a tableau is entered" if kind == "tableau" else "the first player is entered",
            "the round" if kind == "tableau" else "the game"))
    who = seat(state, event.get("player"), "player")
    s = dict(state)
    if kind == "first":
        s["first"] = s["leader"] = s["first_leader"] = who
        return s
    suits = event.get("suits")
    if not isinstance(suits, list) or len(suits) != 3:
        raise RuleError("a tableau is 3 cards: give 'suits' as a list of 3 planets, not %r" % (suits,))
    tableaux = list(s["tableaux"])
    tableaux[who] = [planet(p, "a tableau suit") for p in suits]
    s["tableaux"] = tableaux
    if None not in tableaux:
        s["phase"] = "tricks"
    return s


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


def _end(state, event):
    if not sum(state["tricks"]):
        raise RuleError("a round ends after its tricks, and no trick has been entered this round")
    n = len(state["players"])
    takes = event.get("take") or [None] * n
    if not isinstance(takes, list) or len(takes) != n:
        raise RuleError("an end's take lists one planet (or null) per player, %d in all, not %r" % (n, takes))
    s = dict(state)
    tricks = s["tricks"]
    top = max(tricks)
    # most tricks first (any planet), then no tricks (a tableau planet),
    # each clockwise from the first player
    for most in (True, False):
        for i in range(n):
            who = (s["first"] + i) % n
            if tricks[who] == (top if most else 0):
                p = choose(takes[who], s["supply"], ALL if most else s["tableaux"][who], s["players"][who])
                if p is not None and not s["over"]:
                    give(s, p, who)
            elif most and tricks[who] and takes[who] is not None:
                raise RuleError("%s took some tricks but not the most, so takes no token" % s["players"][who])
    s["round"] += 1
    if not s["over"]:
        if s["round"] >= n:
            _finish(s)  # everyone has been first player (and dealer) once
        else:
            s["first"] = (s["first"] + 1) % n
            _start_round(s)
    return s


def _move(state, event):
    src = event.get("from")
    dst = event.get("to")
    for key, v in (("from", src), ("to", dst)):
        if v != "supply" and not (type(v) is int and 0 <= v < len(state["players"])):
            raise RuleError("a move's %r is a seat, 0-%d (%s), or \"supply\", not %r"
                            % (key, len(state["players"]) - 1, ", ".join(state["players"]), v))
    if src == dst:
        raise RuleError("a move goes between two different places, not from %r to itself" % (src,))
    p = planet(event.get("planet"))
    count = event.get("count")
    if count is None:
        count = 1
    elif type(count) is not int or not 1 <= count <= 68:
        raise RuleError("a move takes 1 to 68 tokens, not %r" % (count,))
    have = state["supply"][p] if src == "supply" else state["tokens"][src][p]
    if have < count:
        raise RuleError("%s has %d %s token%s, so cannot give %d" % (
            "the supply" if src == "supply" else state["players"][src], have, NAMES[p],
            "" if have == 1 else "s", count))
    s = dict(state)
    if src != "supply":
        give(s, p, src, -count)
    if dst != "supply":
        give(s, p, dst, count)
    return s


def _finish(s):
    """Highest score wins; a tie goes to the most tokens; a tie on both is
    a shared win (all in "winners"; winner() names the first seat)."""
    keys = [(s["scores"][i], sum(s["tokens"][i])) for i in range(len(s["players"]))]
    best = max(keys)
    s["winners"] = [i for i in range(len(keys)) if keys[i] == best]
    s["winner"] = s["winners"][0]
    s["over"] = True
    s["phase"] = "over"


def legal(state):
    return _tricks().legal_moves(state)


def turn(state):
    """{"leader": the round's first player (the dealer's left), "to_act":
    who leads the next trick; None while the tableaux are laid (everyone
    at once) and, for both, once the game is over}."""
    if state["over"]:
        return {"leader": None, "to_act": None}
    act = state["leader"] if state["phase"] == "tricks" else None
    return {"leader": state["first"], "to_act": act}


def placings(state):
    """Places by score, then tokens (the rule's tie-break); a tie on both
    shares the place, and a shared win puts every winner first."""
    from shared_rules import places as pl

    n = len(state["players"])
    keys = [(state["scores"][i], sum(state["tokens"][i])) for i in range(n)]
    return pl.order(pl.solo(n), keys, state.get("winners") if state["over"] else None)


def standings(state):
    from shared_rules.places import rows

    return rows(state, placings(state))


def winner(state):
    return state["winner"]
