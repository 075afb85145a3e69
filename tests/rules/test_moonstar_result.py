import shared_rules.moonstar_board  # noqa: F401  (first: the biggest compile, see the kit)
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
