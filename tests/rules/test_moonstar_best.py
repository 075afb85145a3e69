import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import SIT, UP, M, bid, plan, pts, refused, run, start


def test_a_result_above_the_best_of_a_known_setup_is_refused():
    s = run(start(3), SIT, bid(1, 30), UP)  # SIT allows 65 at best
    refused(s, pts(70), "70 is more than this set-up allows (best possible 65)")
    done = M.apply(s, pts(65))
    assert done["last"]["points"] == 65 and done["last"]["made"]
    # Moves are a plan the rules check move by move: the same round
    moved = M.apply(s, {"type": "result", "moves": plan()})
    assert moved["last"] == done["last"] and moved["scores"] == done["scores"]
    # the state keeps no best: how the points were proved leaves no trace
    assert "best" not in done["last"]


def test_unknown_setup_takes_any_points_up_to_the_bound():
    s = run(start(3), {"type": "setup"}, bid(1, 30), UP)
    done = M.apply(s, pts(70))
    assert done["last"]["points"] == 70 and done["last"]["sit"] is None
    refused(s, pts(71), "points must be a whole number from 0 to 70")
