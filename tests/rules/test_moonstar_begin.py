"""moonstar.begin (issue 24): apply() in slices, so that a device checks a
result against the best possible over its loop passes instead of inside
one call. What can be decided at once is (a bad event is refused by
begin() itself, any other event is applied there); a result as points on
a known set-up is decided step by step, each step doing about its budget
of solver units, with the same state (or the same refusal) apply() gives.
Runs under pytest and MicroPython."""

import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import SIT, UP, M, bid, plan, pts, run, start
from _support import raises
from shared_rules import RuleError

# Game 12's mix of Games 3 and 8 (15 moons, 11 dice, chains): the kind of
# set-up the issue found taking 21.8 s to refuse best + 1. Best 33.
HARD = {"type": "setup", "planets": [], "moons": [3, 10, 0, 10, 6, 2, 9, 11, 8, 7, 6, 2, 1, 4, 5],
        "dice": [6, 6, 6, 4, 6, 1, 4, 2, 6, 6, 3]}
HARD_BEST = 33


def hard_round():
    s = start(2, {"game": 12})
    s = M.apply(s, {"type": "variants", "games": [3, 8], "moons": 15, "dice": 11})
    return run(s, HARD, bid(1, 20), UP)


def slices(state, event, budget):
    """begin(), stepped to the end: (new state, steps taken)."""
    job = M.begin(state, event)
    steps = 1
    r = job.step(budget)
    while r is None:
        steps += 1
        assert steps < 100000
        r = job.step(budget)
    return r, steps


def test_a_result_checked_in_slices_equals_apply():
    s = hard_round()
    done, steps = slices(s, pts(HARD_BEST), 1)
    assert steps > 8  # far more than one slice's work
    once = M.apply(s, pts(HARD_BEST))
    assert done["last"] == once["last"] and done["scores"] == once["scores"]
    assert done["last"]["points"] == HARD_BEST and done["last"]["made"]
    assert s["last"] is None or s["last"] != done["last"]  # the state it started from is untouched


def test_a_result_above_the_best_is_refused_by_a_slice():
    s = hard_round()
    job = M.begin(s, pts(HARD_BEST + 1))
    steps = 0
    try:
        while job.step(8) is None:
            steps += 1
    except RuleError as e:
        assert "34 is more than this set-up allows (best possible 33)" in str(e), str(e)
    else:
        raise AssertionError("best + 1 accepted")
    assert steps > 2  # decided over several slices, not in begin()


def test_what_needs_no_solve_is_decided_by_begin():
    s = run(start(3), SIT, bid(1, 30), UP)
    # refused at once: no slice runs
    raises(M.begin, s, pts(-1), match="points must be a whole number from 0 to")
    raises(M.begin, s, {"type": "result", "points": 3, "moves": plan()}, match="as points or as moves, not both")
    raises(M.begin, s, {"type": "result"}, match="needs 'points' or 'moves'")
    raises(M.begin, s, {"type": "bid", "player": 0, "amount": 40}, match="no bid now")
    # decided at once: the first step, with no budget at all, has the state
    for ev in ({"type": "result", "moves": plan()}, pts(0)):
        got = M.begin(s, ev).step(0)
        assert got is not None and got["last"] == M.apply(s, ev)["last"]
    # any other event is apply() itself
    s2 = run(start(3), SIT)
    got = M.begin(s2, bid(1, 30)).step(0)
    assert got["bid"] == 30 and got["bidder"] == 1


def test_an_unknown_setup_takes_points_at_once():
    s = run(start(3), {"type": "setup"}, bid(1, 30), UP)
    got = M.begin(s, pts(70)).step(0)
    assert got["last"]["points"] == 70 and got["last"]["sit"] is None
