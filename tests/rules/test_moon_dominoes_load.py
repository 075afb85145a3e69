"""Loads a Moon dominoes test group: the rules first, then its cases.

MicroPython compiles a whole module before running any of it, and under
the suite's 64K heap it cannot compile a test file while also compiling the
Moon rules it imports. So each test_moon_dominoes_<group>.py is a tiny file
that calls load(): the rules are imported (compiled) first, then the cases
module test_moon_dominoes_<group>_cases.py, whose functions are named case_*
(so that, run on its own, that module tests nothing) and are set on the
caller as test_*. setattr, not a globals() dict: it interns the new names,
which MicroPython's dir() needs to list them. The cases get the rules
module as their G. This file itself has no tests."""

import sys

from shared_rules import get_game


def load(into, cases):
    game = get_game("moon")
    module = __import__(cases)
    module.G = game
    target = sys.modules[into]
    for name in dir(module):
        if name.startswith("case_"):
            setattr(target, "test_" + name[5:], getattr(module, name))
