"""moontable's rules core: the only place a game rule lives.

The same files run under CPython on the PC and under MicroPython on the
board, so this package keeps to what both interpreters share: no typing,
dataclasses, enum, abc or functools at run time, and no work at import.

Every game module has the same contract, modelled on a state API
(legal actions, apply, history) and on "pure moves, the log is the truth":

    new(players, options) -> state        plain JSON-able data
    apply(state, event)   -> next state   the input state is never changed
    legal(state)          -> description of what may happen next
    placings(state)       -> [[rank, [seat, ...]], ...], best first by the
                             game's win rule (shared_rules.places)
    standings(state)      -> [[name, score], ...], in placing order
    winner(state)         -> seat index or None

Illegal events raise RuleError with a message meant for a person.
Undo lives one level up, in `shared_rules.match`, because it needs the
states before the current one, which a game state never carries.
"""

from shared_rules.errors import RuleError

# Bumped whenever a rule change could change the outcome of a stored log.
RULES_VERSION = 1

# Game name -> module name. Modules load on first use, never at import.
_MODULES = {
    "moonstar": "shared_rules.moonstar",
    "shoot-the-moon": "shared_rules.shoot_the_moon",
    "moon": "shared_rules.moon_dominoes",
    "moons": "shared_rules.moons",
}


# Game name -> the name on the box, which is what a player reads: on the
# device, in every PC listing, in the report and in the exports. The game
# names above are ids for logs and code, never shown.
_DISPLAY = {
    "moonstar": "Moonstar",
    "shoot-the-moon": "Shoot the Moon",
    "moon": "Moon (dominoes)",
    "moons": "Moons",
}


def display_name(name):
    """The box's name for a game id ("shoot-the-moon" -> "Shoot the Moon");
    an unknown id is returned as it is, so a damaged record still shows."""
    return _DISPLAY.get(name, name)


def ranks(scores):
    """Competition ranks for scores listed best first: equal scores share
    a rank and the next rank skips (100, 80, 80, 50 -> 1, 2, 2, 4).
    Accepts plain numbers or standings rows ([name, score])."""
    out = []
    prev = None
    for i in range(len(scores)):
        s = scores[i]
        if isinstance(s, (list, tuple)):
            s = s[1]
        if i == 0 or s != prev:
            rank = i + 1
        out.append(rank)
        prev = s
    return out


def game_names():
    """The names a game can be looked up by, in menu order."""
    return ["moonstar", "shoot-the-moon", "moon", "moons"]


def get_game(name):
    """The rules module for a game name; RuleError for an unknown name."""
    if type(name) is not str:  # a list or object would not even be a dict key
        raise RuleError("the game must be named by text (one of %s), not a %s"
                        % (", ".join(game_names()), type(name).__name__))
    modname = _MODULES.get(name)
    if modname is None:
        raise RuleError("unknown game %r (known: %s)" % (name[:40], ", ".join(game_names())))
    module = __import__(modname)
    for part in modname.split(".")[1:]:
        module = getattr(module, part)
    return module

