# Helpers for the Moonstar rules tests (no tests of its own). The fixed
# situation: 10-planets on stars 0 and 6, 5-planets on 3 and 9. (Comments,
# not a docstring: a docstring still costs parser heap under MicroPython.)
import sys

from shared_rules import moonstar as _M
from shared_rules.errors import RuleError
from shared_rules.util import clone
from _support import unload

# Under MicroPython, M sheds the rules' on-demand modules (the phase
# handlers, the board, the solver) after every event, as the device's
# Session does: the 72K test heap holds the resident rules (the package
# and what it imports as it loads) and one event's modules at a time,
# like the board, not all of them at once.
_KEEP = ("shared_rules.moonstar", "shared_rules.util", "shared_rules.errors", "shared_rules.dispatch",
         "shared_rules.places")


def shed():
    unload(_KEEP)


class _Shedding:
    def __getattr__(self, name):
        return getattr(_M, name)

    def apply(self, state, event):
        import gc

        gc.collect()  # a clean heap for the event's modules (the solver is the biggest)
        try:
            return _M.apply(state, event)
        finally:
            shed()

    def legal(self, state):
        try:
            return _M.legal(state)
        finally:
            shed()


M = _Shedding() if sys.implementation.name == "micropython" else _M


def fixed_round():
    """The fixed round, played with moves: 65 points make Bob's bid of 30."""
    s = run(start(), SIT, bid(1, 30), UP, {"type": "result", "moves": plan()})
    assert s["last"]["points"] == 65 and s["scores"] == [0, 30, 0]


NAMES = ["Ann", "Bob", "Cy", "Dee"]
SIT = {"type": "setup", "planets": [[0, 10], [3, 5], [6, 10], [9, 5]],
       "moons": [1, 2, 4, 5, 7, 8, 11], "dice": [1, 2, 2, 1, 1, 1, 1]}
# Moon i carries die i to TO[i]: six moons on a 10, one on a 5 = 65.
TO = [0, 0, 6, 6, 6, 9, 0]
UP = {"type": "time_up"}


def plan(to=TO):
    return [{"moon": i, "die": i, "to": t} for i, t in enumerate(to)]


def start(n=3, options=None, setter=0):
    s = M.new(NAMES[:n], options or {})
    return M.apply(s, {"type": "choose_setter", "player": setter})


def run(state, *events):
    for e in events:
        state = M.apply(state, e)
    return state


def bid(p, amount):
    return {"type": "bid", "player": p, "amount": amount}


def play(options, setup, moves, fav=None):
    """A 2-player round with these options and setup, bid 20 by Ann, then
    these moves (and Favorite Star) as its result."""
    s = run(start(2, options), setup, bid(0, 20), UP)
    ev = {"type": "result", "moves": moves}
    if fav is not None:
        ev["favorite"] = fav
    return M.apply(s, ev)


def pts(n):
    return {"type": "result", "points": n}


def refused(state, event, match):
    """RuleError naming `match`, and the state exactly as before. (Not
    _support.raises: one module less to compile in the 72K heap.)"""
    before = clone(state)
    try:
        M.apply(state, event)
    except RuleError as e:
        assert match in str(e), "message %r does not contain %r" % (str(e), match)
    else:
        raise AssertionError("%r was not refused" % (event,))
    assert state == before
