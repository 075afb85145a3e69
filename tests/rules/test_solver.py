"""Hand-made cases for the Moonstar solver (shared_rules.moonstar.solver), each small
enough to check on paper. Runs under pytest and MicroPython."""

from shared_rules.moonstar.solver import Solver, solve
from shared_rules.moonstar.plan import plan_score
from shared_rules import RuleError
from _support import raises


def sit(moons, dice, planets=(), scoring="planets", movement="standard", favorite=False):
    return {"stars": 12, "planets": [list(p) for p in planets], "moons": list(moons), "dice": list(dice),
            "scoring": scoring, "movement": movement, "favorite_star": favorite}


def checked(s):
    """solve(s), after checking its plan is complete, legal and scores best."""
    r = solve(s)
    assert plan_score(s, r["plan"], r["favorite"]) == r["best"], r
    return r


def test_planets_picks_the_better_side_and_the_better_die():
    # moon on 0: a 5 reaches the 10 on star 5; moon on 1: a 1 reaches the 10 on star 2
    r = checked(sit([0, 1], [1, 5], [(5, 10), (2, 10)]))
    assert r["best"] == 20 and r["favorite"] is None
    assert sorted((m["moon"], m["die"], m["to"]) for m in r["plan"]) == [(0, 1, 5), (1, 0, 2)]


def test_empty_star_scores_one():
    assert checked(sit([0, 0], [2, 4], [(6, 10)]))["best"] == 2


def test_standard_game_all_seven_on_tens():
    # Game One: two 5s and two 10s. Moon k (on star k) with the die 6-k goes
    # to the 10 on star 6, and the moon on 6 takes the other 6 round to the
    # 10 on star 0: 7 x 10, and no plan can beat 7 x 10.
    s = sit([0, 1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 6], [(6, 10), (0, 10), (3, 5), (9, 5)])
    r = checked(s)
    assert r["best"] == 70 and len(r["plan"]) == 7


def test_standard_game_shared_dice():
    # both moons on 0 want the 10 on star 3, but there is one 3: the other
    # die (a 1) takes its moon to 1 or 11, empty stars worth 1
    assert checked(sit([0, 0], [3, 1], [(3, 10), (6, 5)]))["best"] == 11


def test_favorite_star_doubles_the_best_star():
    # both moons on 0 with two 5s: star 5 (value 3) or star 7 (value 4)
    r = checked(sit([0, 0], [5, 5], [(5, 3), (7, 4)], favorite=True))
    assert r["best"] == 16 and r["favorite"] == 7


def test_favorite_star_changes_the_plan():
    # moon 0 with the 3 reaches the 6 on star 3 or the 5 on star 9; moon 7
    # with the 2 reaches 9 (or empty 5). Plain best: 6 + 5 = 11. With the
    # Favorite Star on 9 both go there: 10 + 10 = 20 (on 3 only 12 + 5).
    s = sit([0, 7], [3, 2], [(3, 6), (9, 5)])
    assert checked(s)["best"] == 11
    s["favorite_star"] = True
    r = checked(s)
    assert r["best"] == 20 and r["favorite"] == 9
    assert [m["to"] for m in r["plan"]] == [9, 9]


def test_more_moons_than_dice_places_every_die():
    r = checked(sit([0, 4, 8], [2, 2], [(2, 7), (10, 3), (6, 9)]))
    assert r["best"] == 18 and len(r["plan"]) == 2
    assert sorted(m["moon"] for m in r["plan"]) == [1, 2]


def test_more_dice_than_moons_gives_every_moon_a_die():
    r = checked(sit([0], [1, 2, 6], [(6, 8), (2, 5)]))
    assert r["best"] == 8 and r["plan"] == [{"moon": 0, "die": 2, "to": 6}]


def test_game9_movement_with_planets():
    # a 1 may stay put (1//2 = 0), keeping the moon's own planet
    assert checked(sit([3], [1], [(3, 9)], movement="more"))["best"] == 9
    assert checked(sit([3], [1], [(3, 9)]))["best"] == 1
    # a 6 goes 6 or 12 (= home) clockwise, 6 or 3 counter-clockwise
    assert checked(sit([0], [6], [(0, 7), (9, 4)], movement="more"))["best"] == 7
    assert checked(sit([0], [6], [(9, 4)], movement="more"))["best"] == 4
    assert checked(sit([0], [6], [(9, 4)]))["best"] == 1
    assert checked(sit([0], [5], [(10, 4)], movement="more"))["best"] == 4  # 2 x 5 clockwise


def test_planets_in_slices_one_row_at_a_time():
    s = sit([0, 2, 4, 6, 8], [1, 2, 3, 4, 5, 6], [(3, 5), (7, 10)], favorite=True)
    solver = Solver(s)
    results = [solver.step(1) for _ in range(40)]
    assert results[0] is None
    done = [r for r in results if r is not None]
    assert done and done[0]["best"] == solve(s)["best"]


def test_bad_situations_raise_rule_errors():
    raises(Solver, sit([2, 2, 2, 2], [1]), match="a 4th moon on star 2")
    raises(solve, sit([0], [7]), match="die 0 shows 7")
    raises(solve, sit([0], [0]), match="die 0 shows 0")
    raises(solve, sit([0], []), match="at least one die")
    raises(solve, sit([], [1]), match="at least one moon")
    raises(solve, sit([0], [1], [(3, 5), (3, 6)]), match="second planet on star 3")
    raises(solve, sit([0], [1], [(3, 5)], scoring="squares"), match="uses no planets")
    raises(solve, sit([0], [1], favorite=True), match="needs at least one planet")
    raises(solve, sit([12], [1]), match="moon 0 is star 12")
    raises(solve, "not a situation", match="JSON object")
    assert isinstance(raises(solve, sit([0], [1], movement="fast")), RuleError)
