"""The solver against the exhaustive search (test_solver_brute.brute) on
every small case class: each scoring, each movement rule, with and without
the Favorite Star, and every count of 1-4 moons against 1-4 dice (so equal
counts, more moons than dice, and more dice than moons). Runs under pytest
and MicroPython; the CPython-only properties go further (5 x 5, hypothesis).
"""

import gc

from shared_rules.moonstar.solver import solve

gc.collect()  # from source, the heap is small under MicroPython: free the compiler's garbage first
import shared_rules.moonstar.piles  # noqa: E402,F401  (the squares/chains half, loaded by solve anyway)

gc.collect()
from shared_rules.moonstar.plan import plan_score  # noqa: E402
from shared_rules.util import Rng  # noqa: E402
from test_solver_brute import brute, random_situation  # noqa: E402

CLASSES = (
    ("planets", "standard", False),
    ("planets", "standard", True),
    ("planets", "more", False),
    ("planets", "more", True),
    ("squares", "standard", False),
    ("squares", "more", False),
    ("chains", "standard", False),
    ("chains", "more", False),
)


def compare(seed, scoring, movement, favorite, per_size):
    rng = Rng(seed)
    checked = 0
    for moons in range(1, 5):
        for dice in range(1, 5):
            for _ in range(per_size):
                planets = 1 + rng.below(4) if scoring == "planets" else 0
                sit = random_situation(rng, moons, dice, planets, scoring, movement, favorite)
                r = solve(sit)
                want = brute(sit)
                assert r["best"] == want, (sit, r, want)
                assert plan_score(sit, r["plan"], r["favorite"]) == want, (sit, r)
                checked += 1
    return checked


def test_planets_standard():
    assert compare(11, "planets", "standard", False, 2) == 32


def test_planets_standard_favorite_star():
    assert compare(12, "planets", "standard", True, 2) == 32


def test_planets_game9():
    assert compare(13, "planets", "more", False, 2) == 32


def test_planets_game9_favorite_star():
    assert compare(14, "planets", "more", True, 1) == 16


def test_squares_standard():
    assert compare(15, "squares", "standard", False, 2) == 32


def test_squares_game9():
    assert compare(16, "squares", "more", False, 2) == 32


def test_chains_standard():
    assert compare(17, "chains", "standard", False, 2) == 32


def test_chains_game9():
    assert compare(18, "chains", "more", False, 2) == 32


def test_every_class_is_covered():
    names = set(name[5:] for name in globals() if name.startswith("test_"))
    for scoring, movement, favorite in CLASSES:
        name = scoring + "_" + ("game9" if movement == "more" else "standard") + ("_favorite_star" if favorite else "")
        assert name in names, name
