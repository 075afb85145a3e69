"""Moons (trick-taking card game with planet tokens): the supply, each
round's tableaux, round-end tokens, Asteroid moves and set scoring. The
default scoring table is the rulings', not the reference card's. See
docs/games/moons.md. Tricks and legal() are in tricks.py.

States are copy-on-write: apply copies the top-level dict and replaces the
lists it changes (give() below copies what a token changes), never
changing a nested value in place. A new state shares everything else with
the one before, so a replay does no deep copy per event and the states
of a Match's undo stack cost little memory.
"""

from shared_rules.dispatch import dispatch
from shared_rules.errors import RuleError
from shared_rules import places as pl
from shared_rules.moons.core import ALL, NAMES, PLANETS, _seat_of, _finish, _start_round, choose, give, options, planet, seat, set_score  # noqa: F401

# Event type -> the phases it is legal in (None: any; the handler checks
# what else it needs), and its handler, a function of this module
# (shared_rules/dispatch.py).
EVENTS = (
    ("tableau", None, None, "_opening"),
    ("first", None, None, "_opening"),
    ("trick", ("tricks",), None, "_trick"),
    ("end", None, None, "_end"),
    ("move", None, None, "_move"),
)

_TRICKS = None  # shared_rules.moons.tricks, imported on first use (_tricks)


def _tricks():
    """The tricks' module (a trick, and legal(), asked after every event),
    imported on first use and then held here: no later call imports it
    again."""
    global _TRICKS
    if _TRICKS is None:
        from shared_rules.moons import tricks as moons_tricks
        _TRICKS = moons_tricks
    return _TRICKS


def new(players, options=None):
    """A new game's state (shared_rules/moons/start.py: the options' checks,
    loaded for a game's start only)."""
    from shared_rules.moons.start import new as make

    return make(players, options)


def start_bounds(options):
    """(lowest, highest) starting score from paper (start.py)."""
    from shared_rules.moons.start import start_bounds as bounds

    return bounds(options)


def _over(state):
    w = state["winners"]
    return "the game is over: %s %s" % (
        " and ".join([state["players"][i] for i in w]), "won" if len(w) == 1 else "share the win")


def _not_now(state, kind):
    # a trick, before every tableau is in (EVENTS)
    missing = [state["players"][i] for i in range(len(state["players"])) if state["tableaux"][i] is None]
    return "record every tableau before the first trick (missing: %s)" % ", ".join(missing)


def apply(state, event):
    return dispatch(state, event, EVENTS, __name__, "moons", _over, _not_now)


def _trick(state, event):
    return _tricks().trick(state, event)


def _opening(state, event):
    """A tableau, or the game's first player: both before a trick."""
    kind = event["type"]
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
    n = len(state["players"])
    keys = [(state["scores"][i], sum(state["tokens"][i])) for i in range(n)]
    return pl.order(pl.solo(n), keys, state.get("winners") if state["over"] else None)


def standings(state):
    return pl.rows(state, placings(state))


def winner(state):
    return state["winner"]
