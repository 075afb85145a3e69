import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
import shared_rules.moonstar.allowed  # noqa: F401
from test_moonstar__kit import SIT, UP, M, bid, run, start


def test_first_setup_and_bidding_specs():
    s = M.new(["A", "B", "C"], {})
    assert M.legal(s)["moves"]["roll_for_setter"]["players"] == [0, 1, 2]
    s = start(3, {"game": 10})
    spec = M.legal(s)["moves"]["setup"]
    assert spec["players"] == [0] and spec["moons"] == 7 and spec["planets"] == [5, 5, 10, 10]
    s = run(s, SIT, bid(1, 40))
    m = M.legal(s)["moves"]
    assert m["bid"] == {"players": [0, 1, 2], "min": 41, "max": 70}
    assert m["challenge"] == {"players": [0, 2]}
    assert m["time_up"] == {"seconds": 60, "closed": False, "next": "playing"}
    assert "bid" not in M.legal(M.apply(s, bid(2, 70)))["moves"]


def test_play_and_result_specs():
    s = run(start(3, {"game": 6}), SIT, bid(1, 40), UP)
    m = M.legal(s)["moves"]
    assert m["result"]["players"] == [1] and m["result"]["max"] == 140
    assert m["result"]["moves"] is True and m["result"]["favorite"] == [0, 3, 6, 9]
    assert m["time_up"] == {"seconds": 60}
    r = M.legal(M.apply(s, UP))
    assert r["phase"] == "result" and r["moves"]["result"]["complete"] is False
    assert "time_up" not in r["moves"]


def test_betting_spec_and_sit_out():
    s = start(3, {"game": 11})
    s["scores"] = [15, 0, 40]
    s = run(s, {"type": "setup"}, bid(1, 30), UP)
    m = M.legal(s)["moves"]
    assert m["bet"]["limits"] == [15, 0, 40] and m["bet"]["max"] == 40 and "start_play" in m
    s = run(s, {"type": "start_play"}, {"type": "result", "points": 0}, {"type": "setup"})
    assert M.legal(s)["moves"]["bid"]["players"] == [0, 2]


def test_over_has_no_moves():
    s = start(2)
    s["scores"] = [195, 0]
    s = run(s, {"type": "setup"}, bid(0, 20), UP, {"type": "result", "points": 20})
    assert M.legal(s) == {"phase": "over", "moves": {}}
