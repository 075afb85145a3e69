"""Moons (trick-taking card game with planet tokens): the supply, each
round's tableaux, round-end tokens, Asteroid moves and set scoring. The
default scoring table is the rulings', not the reference card's. See
docs/games/moons.md. Tricks and legal() are in moons_tricks, imported
only when needed, and notes are comments rather than docstrings: both
keep the compile within the board's small heap.
"""

from shared_rules.errors import RuleError
from shared_rules.util import check_players, whole

PLANETS = ("jupiter", "saturn", "neptune", "uranus")
ALL = (0, 1, 2, 3)


def planet(value, what="planet"):
    # Index 0-3 of a planet name; RuleError naming the four.
    if value in PLANETS:  # the usual case, without a new string
        return PLANETS.index(value)
    if isinstance(value, str) and value.lower() in PLANETS:
        return PLANETS.index(value.lower())
    raise RuleError("%s must be one of %s, not %r" % (what, ", ".join(PLANETS), value))


def set_score(tokens, table):
    # Points for token counts [j, s, n, u]. Tokens are grouped by taking
    # one of every planet the player still has, again and again, so groups
    # are as large as they can be; a group of k planets scores table[k-1].
    # Default table: 1 a token, and 10 (not 4) per complete set.
    total = 0
    taken = 0
    k = 4
    for c in sorted(tokens):
        total += (c - taken) * table[k - 1]
        taken = c
        k -= 1
    return total


def new(players, options=None):
    players = check_players(players, 2, 6)
    o = options or {}
    for key in o:
        if key not in ("scoring", "first"):
            raise RuleError("unknown option %r for moons (known: scoring, first)" % (key,))
    table = o.get("scoring") or [1, 2, 3, 10]
    if not isinstance(table, list) or len(table) != 4:
        raise RuleError("scoring must list 4 values: points for a group of 1, 2, 3 and 4 different planets")
    for v in table:
        whole({"v": v}, "v", 0, 1000, "a scoring value")
    n = len(players)
    s = {"players": players, "scores": [0] * n, "round": 0, "over": False, "winner": None,
         "winners": [], "scoring": list(table), "supply": [17] * 4,
         "tokens": [[0] * 4 for _ in players], "first": whole(o, "first", 0, n - 1) if o.get("first") else 0}
    _start_round(s)
    return s


def _start_round(s):
    n = len(s["players"])
    s["tableaux"] = [None] * n
    s["tricks"] = [0] * n
    s["leader"] = s["first"]
    s["phase"] = "tableau"


def seat(state, value, what):
    n = len(state["players"])
    if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value >= n:
        raise RuleError("%s must be a seat from 0 to %d, not %r" % (what, n - 1, value))
    return value


def apply(state, event):
    if state["over"]:
        raise RuleError("the game is over")
    kind = event.get("type")
    if kind == "trick":
        from shared_rules.moons_tricks import trick
        return trick(state, event)
    if kind == "move":
        return _move(state, event)
    if kind == "end":
        return _end(state, event)
    if kind not in ("tableau", "first"):
        raise RuleError("unknown event type %r for moons" % (kind,))
    if sum(state["tricks"]) or (kind == "first" and state["round"]):
        raise RuleError("%s comes before the first trick of %s" % (kind, "the game" if kind == "first" else "the round"))
    who = seat(state, event.get("player"), "player")
    s = fork(state)
    if kind == "first":
        s["first"] = s["leader"] = who
        return s
    suits = event.get("suits")
    if not isinstance(suits, list) or len(suits) != 3:
        raise RuleError("a tableau is 3 cards: give 'suits' as a list of 3 planets")
    s["tableaux"][who] = [planet(p, "a tableau suit") for p in suits]
    if None not in s["tableaux"]:
        s["phase"] = "tricks"
    return s


def fork(state):
    # A copy of `state` to change: the dict and its lists that events
    # change in place. Players, the table and each seat's tokens (copied
    # when they change) stay shared with `state`, which is never changed,
    # so the undo stack's states cost little memory.
    s = dict(state)
    for key in ("supply", "scores", "tokens", "tricks", "tableaux"):
        s[key] = list(state[key])
    return s


def options(supply, allowed):
    # The planets in `allowed` the supply still has.
    return [i for i in ALL if supply[i] and i in allowed]


def choose(choice, opts, who, why):
    # The planet a player takes: his choice if allowed, the only option
    # if he named none, None when there is nothing to take.
    if choice is None and len(opts) < 2:
        return opts[0] if opts else None
    i = -1 if choice is None else planet(choice)
    if i not in opts:
        raise RuleError("%s %s: %s (%s)" % (who, "must choose a token" if i < 0 else "cannot take " + PLANETS[i],
                                            " or ".join([PLANETS[i] for i in opts]) or "the supply has none", why))
    return i


def give(s, p, who, count=1):
    # Move `count` of planet p from the supply to seat `who` (negative:
    # back to the supply), rescoring him; ends the game on an empty supply.
    s["supply"][p] -= count
    t = list(s["tokens"][who])  # copied here: the old state may share it
    t[p] += count
    s["tokens"][who] = t
    s["scores"][who] = set_score(s["tokens"][who], s["scoring"])
    if not sum(s["supply"]):
        _finish(s)


def _end(state, event):
    if not sum(state["tricks"]):
        raise RuleError("a round ends after its tricks: no trick has been entered")
    n = len(state["players"])
    takes = event.get("take") or [None] * n
    if not isinstance(takes, list) or len(takes) != n:
        raise RuleError("take must list one planet (or null) per player: %d entries" % n)
    s = fork(state)
    tricks = s["tricks"]
    top = max(tricks)
    # most tricks first (any planet), then no tricks (a tableau planet),
    # each clockwise from the first player
    for most in (True, False):
        for i in range(n):
            who = (s["first"] + i) % n
            if tricks[who] == (top if most else 0):
                p = choose(takes[who], options(s["supply"], ALL if most else s["tableaux"][who]),
                           s["players"][who], "most tricks" if most else "no tricks: a tableau planet")
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
    places = []
    for key in ("from", "to"):
        v = event.get(key)
        places.append(v if v == "supply" else seat(state, v, key + ' (a seat or "supply")'))
    if places[0] == places[1]:
        raise RuleError("a move needs two different places, not %r twice" % (places[0],))
    p = planet(event.get("planet"))
    count = 1 if event.get("count") is None else whole(event, "count", 1, 68)
    src = places[0]
    have = state["supply"][p] if src == "supply" else state["tokens"][src][p]
    if have < count:
        raise RuleError("%s has %d %s, not %d" % ("the supply" if src == "supply" else state["players"][src], have, PLANETS[p], count))
    s = fork(state)
    for i in (0, 1):
        if places[i] != "supply":
            give(s, p, places[i], count if i else -count)
    return s


def _finish(s):
    # Highest score wins; a tie goes to the most tokens; a tie on both is
    # a shared win (all in "winners"; winner() names the first seat).
    keys = [(s["scores"][i], sum(s["tokens"][i])) for i in range(len(s["players"]))]
    best = max(keys)
    s["winners"] = [i for i in range(len(keys)) if keys[i] == best]
    s["winner"] = s["winners"][0]
    s["over"] = True
    s["phase"] = "over"


def legal(state):
    from shared_rules.moons_tricks import legal_moves
    return legal_moves(state)


def standings(state):
    sc = state["scores"]
    return [[state["players"][i], sc[i]] for i in sorted(range(len(sc)), key=lambda i: (-sc[i], i))]


def winner(state):
    return state["winner"]
