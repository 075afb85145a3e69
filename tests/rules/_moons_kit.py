"""Set-up shared by the Moons rules tests (test_moons_*.py): the rules
module, the planet names and entering every seat's tableau, written once.
Its name starts with _, so neither pytest nor tests/upy_runner.py looks for
tests in it."""

from shared_rules import get_game

G = get_game("moons")
J, S, N, U = "jupiter", "saturn", "neptune", "uranus"


def tableaux(s, sets):
    """Seat i enters sets[i] as its tableau, for every seat in sets."""
    for i in range(len(sets)):
        s = G.apply(s, {"type": "tableau", "player": i, "suits": sets[i]})
    return s
