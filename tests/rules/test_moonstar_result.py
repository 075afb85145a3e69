import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import SIT, TO, UP, M, bid, plan, refused, run, start


def ready(state=None):
    return run(state or start(), SIT, bid(1, 62), UP)


def test_moves_are_checked_and_scored_by_the_core():
    s = M.apply(ready(), {"type": "result", "moves": plan()})
    assert s["last"]["points"] == 65 and s["scores"] == [0, 62, 0]
    to = list(TO)
    to[5] = 7  # moon 5 back to star 7: 1 point instead of 5
    s = M.apply(ready(), {"type": "result", "moves": plan(to)})
    assert s["last"]["points"] == 61 and s["scores"] == [10, 0, 10]


def test_illegal_moves_are_refused():
    s = ready()
    to = list(TO)
    to[0] = 3
    refused(s, {"type": "result", "moves": plan(to)}, "a 1 cannot take moon 0 from star 1 to star 3")
    refused(s, {"type": "result", "moves": plan()[:6]}, "a finished round moves 7 moons, not 6")
    refused(s, {"type": "result", "points": 3, "moves": []}, "as points or as moves, not both")
    refused(s, {"type": "result", "points": 71}, "points must be a whole number from 0 to 70")


def test_after_time_up_unmoved_moons_score_nothing():
    s = M.apply(ready(), UP)
    assert s["phase"] == "result" and s["timeout"] is True
    s = M.apply(s, {"type": "result", "moves": plan()[:4]})
    assert s["last"]["points"] == 40 and s["scores"] == [10, 0, 10]


def test_unknown_situation_takes_points_only():
    s = run(start(), {"type": "setup"}, bid(1, 30), UP)
    refused(s, {"type": "result", "moves": plan()}, "situation is unknown, so enter the result as points")
    assert M.apply(s, {"type": "result", "points": 30})["scores"] == [0, 30, 0]


def _points_check(scoring, planets=(), favorite=False):
    # The check may stop once a plan reaching the points is found; it must
    # still refuse exactly the points above the true best. One kind of
    # scoring per test, on a set-up written out here (no set-up modules
    # loaded): each runs in its own 72K MicroPython heap, and a solve's
    # tables are big there.
    import gc

    from shared_rules.errors import RuleError
    from shared_rules.moonstar.result import check_points
    from shared_rules.moonstar.solver import solve

    sit = {"stars": 12, "planets": [list(p) for p in planets], "moons": [6, 10, 3, 8, 1, 3, 3],
           "dice": [1, 4, 5, 4, 1, 2, 3], "scoring": scoring, "movement": "standard", "favorite_star": favorite}
    gc.collect()
    best = solve(sit)["best"]
    for p in (0, best // 2, best):
        gc.collect()
        got = check_points(sit, p)
        assert got is None or got == best, (scoring, p, got, best)
    gc.collect()
    try:
        check_points(sit, best + 1)
    except RuleError as e:
        assert ("best possible %d" % best) in str(e), str(e)
    else:
        raise AssertionError("%d accepted for a best of %d" % (best + 1, best))


PLANETS = ((4, 5), (9, 5), (10, 10), (6, 10))


def test_points_check_planets():
    _points_check("planets", PLANETS)


def test_points_check_favorite_star():
    _points_check("planets", PLANETS, True)


def test_points_check_squares():
    _points_check("squares")


def test_points_check_chains():
    _points_check("chains")
