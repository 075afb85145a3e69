"""The solver against the exhaustive search (test_solver_brute.brute) on
every small case class: each scoring, each movement rule, with and without
the Favorite Star, and every count of 1-4 moons against 1-4 dice (so equal
counts, more moons than dice, and more dice than moons). Runs under pytest
and MicroPython; the CPython-only properties go further (5 x 5, hypothesis).
"""

import gc

from shared_rules.moonstar.solver import Solver, solve

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


def in_parts(sit):
    """The squares/chains solve with its search in parts from the start
    and nothing known: the plain search cut to nothing and the first
    plan forgotten, so that every part whose bound is above -1 is
    searched (small set-ups otherwise end before the parts)."""
    s = Solver(sit)
    p = s.work
    while p.prep is not None:  # the tables, the root, the first plan
        s.step(1)
    p.plain = p.units
    p.best = -1
    r = None
    while r is None:
        r = s.step(64)
    assert p.pairbound is not None  # it did search in parts
    return r


def in_parts_finds(sit, best_of):
    """The search in parts finds best_of(sit), with a plan that scores it."""
    r = in_parts(sit)
    want = best_of(sit)
    assert r["best"] == want, (sit, r, want)
    assert plan_score(sit, r["plan"], r["favorite"]) == want, (sit, r)


def test_the_search_in_parts_alone():
    rng = Rng(19)
    checked = 0
    for scoring, movement, _ in CLASSES[4:]:
        for moons in range(2, 6):
            for dice in range(2, 6):
                in_parts_finds(random_situation(rng, moons, dice, 0, scoring, movement, False), brute)
                checked += 1
    assert checked == 64


def test_the_search_in_parts_on_turned_and_mirrored_set_ups():
    # moons a turn of the ring (or a mirror) leaves as they are: only the
    # smallest of the stars it takes to one another gets its parts
    rng = Rng(20)
    checked = 0
    for moons in ([0, 3, 6, 9], [1, 5, 9], [0, 2, 4, 6, 8, 10], [2, 2, 8, 8], [1, 11, 5, 7], [0, 1, 6, 7]):
        for scoring, movement, _ in CLASSES[4:]:
            sit = {"moons": moons, "dice": [1 + rng.below(6) for _ in range(2 + rng.below(4))],
                   "scoring": scoring, "movement": movement, "planets": [], "favorite_star": False, "stars": 12}
            in_parts_finds(sit, brute)
            checked += 1
    assert checked == 24


def test_the_search_in_parts_counts_the_moves_left_out_of_its_piles():
    # the best plans here have moves that land alone (the search leaves
    # those moons out and counts 1 for each move still to make): a part's
    # bound must count them too, beyond what its piles can take
    for moons, dice in (([8, 8, 4, 11, 7, 1], [1] * 6), ([1, 5, 4, 4, 3, 5], [6] * 6),
                        ([8, 5, 3, 3, 2, 4, 11, 10, 1, 10, 1, 11, 3], [6] * 11)):
        sit = {"moons": moons, "dice": dice, "scoring": "chains", "movement": "standard",
               "planets": [], "favorite_star": False, "stars": 12}
        in_parts_finds(sit, brute if len(moons) < 7 else lambda _: 17)  # (9: 3, 4, 5, 7: 2 each, 2 moves alone)


def test_every_class_is_covered():
    names = set(name[5:] for name in globals() if name.startswith("test_") and "parts" not in name)
    for scoring, movement, favorite in CLASSES:
        name = scoring + "_" + ("game9" if movement == "more" else "standard") + ("_favorite_star" if favorite else "")
        assert name in names, name
