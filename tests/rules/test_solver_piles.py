"""Hand-made squares and chains cases for the Moonstar solver (the
shared_rules.moonstar.piles half), each small enough to check on paper.
Runs under pytest and MicroPython."""

import gc

from shared_rules.moonstar.solver import Solver, solve

gc.collect()  # the heap is small under MicroPython: free the compiler's garbage first
import shared_rules.moonstar.piles  # noqa: E402,F401  (the squares/chains half, loaded by solve anyway)
from shared_rules.moonstar.plan import plan_score


def sit(moons, dice, scoring="squares", movement="standard"):
    return {"stars": 12, "planets": [], "moons": list(moons), "dice": list(dice),
            "scoring": scoring, "movement": movement, "favorite_star": False}


def checked(s):
    """solve(s), after checking its plan is complete, legal and scores best."""
    r = solve(s)
    assert plan_score(s, r["plan"], r["favorite"]) == r["best"], r
    assert r["favorite"] is None
    return r


def test_squares_piles_up():
    # three moons on 0, 2, 4 with 4, 2, 4: no star takes all three; 2 + 1 moons
    r = checked(sit([0, 2, 4], [4, 2, 4]))
    assert r["best"] == 5 and r["favorite"] is None


def test_squares_all_on_one_star():
    # moons on 1, 2, 3 with 3, 2, 1 all reach star 4 (clockwise) or star 0
    # (counter-clockwise): 3 squared
    r = checked(sit([1, 2, 3], [3, 2, 1]))
    assert r["best"] == 9
    assert [m["to"] for m in r["plan"]] in ([4, 4, 4], [0, 0, 0])


def test_chains_order_the_moves_star_by_star():
    # moons 0 and 2 meet on 1, moons 6 and 8 on 7 (all with 1s): chains
    # score 3 + 3, but only if each pile moves in a row
    s = sit([0, 6, 2, 8], [1, 1, 1, 1], "chains")
    r = checked(s)
    assert r["best"] == 6
    stars = [m["to"] for m in r["plan"]]
    assert stars[0] == stars[1] and stars[2] == stars[3]
    s["scoring"] = "squares"
    assert checked(s)["best"] == 8


def test_game9_die_of_one_stays_put():
    # standard: a moon on 3 goes to 2 or 4, one on 4 to 3 or 5: they never meet.
    # Game 9: a 1 moved counter-clockwise goes 1//2 = 0 stars, so one moon
    # can stay and the other join it.
    assert checked(sit([3, 4], [1, 1]))["best"] == 2
    r = checked(sit([3, 4], [1, 1], movement="more"))
    assert r["best"] == 4
    assert r["plan"][0]["to"] == r["plan"][1]["to"]


def test_game9_three_moons_one_star_only_with_a_stay():
    # moons on 2, 4, 5 with 1, 2, 2. Standard: only star 3 is in reach of
    # all three, and that needs two 1s: 4 + 1. Game 9: on star 4, the moon
    # on 2 goes +2, the moon on 5 goes half of 2 back, the moon on 4 stays
    # with the 1: 9.
    assert checked(sit([2, 4, 5], [1, 2, 2]))["best"] == 5
    r = checked(sit([2, 4, 5], [1, 2, 2], movement="more"))
    assert r["best"] == 9 and len(set(m["to"] for m in r["plan"])) == 1


def test_more_moons_than_dice_squares_picks_the_moons():
    # four moons, two 1s: only the moons on 5 and 3 can meet (on 4); the
    # other two stay out
    r = checked(sit([0, 5, 9, 3], [1, 1]))
    assert r["best"] == 4
    assert sorted(m["moon"] for m in r["plan"]) == [1, 3]


def test_more_dice_than_moons_squares_picks_the_dice():
    # moons on 0 and 2 meet on 3 (3 and 1), 5 (5 and 3), 9 or 11; the
    # unused dice are left over
    r = checked(sit([0, 2], [6, 5, 1, 3]))
    assert r["best"] == 4 and len(r["plan"]) == 2


def test_solver_in_slices_matches_solve():
    s = sit([0, 1, 1, 3, 5, 5, 8, 9, 9, 11], [1, 2, 3, 3, 4, 6, 6, 2], movement="more")
    whole = solve(s)
    solver = Solver(s)
    steps = 0
    result = None
    while result is None:
        result = solver.step(1)
        steps += 1
        assert steps < 100000
    assert steps > 1 and result["best"] == whole["best"]
    assert solver.step(1) is result  # asking again after the end is harmless
    assert plan_score(s, result["plan"], None) == result["best"]


def test_the_solver_modules_ring_is_the_boards():
    """piles.py and piles_start.py fold the ring's size in as a
    compile-time constant (_STARS, which MicroPython does not keep as a
    name: checked under CPython only); it must be board.STARS."""
    import sys

    if sys.implementation.name != "cpython":
        return
    from shared_rules.moonstar import board, piles, piles_plan, piles_start

    assert piles._STARS == piles_start._STARS == piles_plan._STARS == board.STARS == 12
    assert piles._SKIP == piles_plan._SKIP

