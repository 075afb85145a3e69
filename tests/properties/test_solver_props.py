"""Hypothesis properties of the Moonstar solver (CPython only):
- the plan is always legal and complete, and scores exactly `best`;
- `best` never drops when a planet's value rises;
- the solver equals the exhaustive search (tests/rules/test_solver_brute.py)
  on every small case class and on random small cases;
- solving in slices gives the same answer as solving at once.
"""

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules.moonstar.plan import plan_landings, plan_score
from shared_rules.moonstar.solver import Solver, solve
from shared_rules.util import Rng

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rules"))
from test_solver_brute import brute, random_situation  # noqa: E402

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _spread(stars):
    """Moon stars with at most 3 a star: a full star passes the moon on."""
    count = [0] * 12
    out = []
    for s in stars:
        while count[s] == 3:
            s = (s + 1) % 12
        count[s] += 1
        out.append(s)
    return out


@st.composite
def situations(draw, max_moons=15, max_dice=11, scoring=None):
    scoring = scoring or draw(st.sampled_from(("planets", "squares", "chains")))
    moons = _spread(draw(st.lists(st.integers(0, 11), min_size=1, max_size=max_moons)))
    dice = draw(st.lists(st.integers(1, 6), min_size=1, max_size=max_dice))
    planets = []
    favorite = False
    if scoring == "planets":
        stars = draw(st.lists(st.integers(0, 11), min_size=0, max_size=6, unique=True))
        planets = [[s, draw(st.integers(1, 20))] for s in stars]
        favorite = bool(planets) and draw(st.booleans())
    return {"stars": 12, "planets": planets, "moons": moons, "dice": dice, "scoring": scoring,
            "movement": draw(st.sampled_from(("standard", "more"))), "favorite_star": favorite}


def small_enough(sit):
    """Keep the exhaustive search to about 50,000 plans."""
    k = min(len(sit["moons"]), len(sit["dice"]))
    plans = 1
    for i in range(k):
        plans *= max(len(sit["moons"]), len(sit["dice"])) - i
    return plans * (4 if sit["movement"] == "more" else 2) ** k <= 50000


@SETTINGS
@given(situations())
def test_plan_is_legal_complete_and_scores_best(sit):
    r = solve(sit)
    assert len(plan_landings(sit, r["plan"])) == min(len(sit["moons"]), len(sit["dice"]))
    assert plan_score(sit, r["plan"], r["favorite"]) == r["best"]
    assert (r["favorite"] is not None) == sit["favorite_star"]


@SETTINGS
@given(situations(scoring="planets"), st.data())
def test_best_never_drops_when_a_planet_rises(sit, data):
    if not sit["planets"]:
        return
    before = solve(sit)["best"]
    i = data.draw(st.integers(0, len(sit["planets"]) - 1))
    raised = dict(sit, planets=[list(p) for p in sit["planets"]])
    raised["planets"][i][1] += data.draw(st.integers(1, 30))
    assert solve(raised)["best"] >= before


@settings(deadline=None, max_examples=300)
@given(situations(max_moons=5, max_dice=5))
def test_equals_exhaustive_search_on_random_small_cases(sit):
    if not small_enough(sit):
        return
    assert solve(sit)["best"] == brute(sit)


@SETTINGS
@given(situations(max_moons=12, max_dice=10), st.integers(1, 50))
def test_slices_give_the_same_answer(sit, budget):
    solver = Solver(sit)
    result = None
    while result is None:
        result = solver.step(budget)
    assert result["best"] == solve(sit)["best"]
    assert plan_score(sit, result["plan"], result["favorite"]) == result["best"]


def test_equals_exhaustive_search_on_every_small_class():
    """Every scoring x movement x Favorite Star class, every count of 1-5
    moons against 1-5 dice (within the exhaustive search's reach)."""
    rng = Rng(2024)
    checked = 0
    for scoring in ("planets", "squares", "chains"):
        for movement in ("standard", "more"):
            for favorite in ((False, True) if scoring == "planets" else (False,)):
                for moons in range(1, 6):
                    for dice in range(1, 6):
                        for _ in range(3):
                            planets = 1 + rng.below(6) if scoring == "planets" else 0
                            sit = random_situation(rng, moons, dice, planets, scoring, movement, favorite)
                            if not small_enough(sit):
                                continue
                            r = solve(sit)
                            assert r["best"] == brute(sit), sit
                            assert plan_score(sit, r["plan"], r["favorite"]) == r["best"]
                            checked += 1
    assert checked > 400


@SETTINGS
@given(situations())
def test_what_the_solver_has_reached_is_never_above_the_best(sit):
    # The result check stops as soon as reached() covers the points, so
    # reached() must always be a score some plan makes: at most the best.
    best = solve(sit)["best"]
    solver = Solver(sit)
    r = None
    while r is None:
        assert solver.reached() <= best
        r = solver.step(64)
    assert solver.reached() == r["best"] == best
