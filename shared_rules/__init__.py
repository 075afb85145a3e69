"""moontable's rules core: the only place a game rule lives.

The same files run under CPython on the PC and under MicroPython on the
board, so this package keeps to what both interpreters share: no typing,
dataclasses, enum, abc or functools at run time, and no work at import.

Every game module has the same contract, modelled on a state API
(legal actions, apply, history) and on "pure moves, the log is the truth":

    new(players, options) -> state        plain JSON-able data
    apply(state, event)   -> next state   the input state is never changed
    legal(state)          -> description of what may happen next
    standings(state)      -> [[name, score], ...], best first
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


def game_names():
    """The names a game can be looked up by, in menu order."""
    return ["moonstar", "shoot-the-moon", "moon", "moons"]


def get_game(name):
    """The rules module for a game name; RuleError for an unknown name."""
    modname = _MODULES.get(name)
    if modname is None:
        raise RuleError("unknown game %r (known: %s)" % (name, ", ".join(game_names())))
    module = __import__(modname)
    for part in modname.split(".")[1:]:
        module = getattr(module, part)
    return module


__all__ = ["RuleError", "RULES_VERSION", "game_names", "get_game"]
