import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import NAMES, SIT, UP, M, bid, refused, run, start


def test_roll_off_keeps_every_throw():
    s = M.new(NAMES[:3], {})
    s = M.apply(s, {"type": "roll_for_setter", "rolls": [[6, 6, 1, 1], [1, 1, 1, 1], [5, 5, 2, 2]]})
    s = M.apply(s, {"type": "roll_for_setter", "rolls": [[3, 3, 3, 3], None, [3, 3, 3, 3]]})
    s = M.apply(s, {"type": "roll_for_setter", "seed": 7})
    rolls = s["rolls"]
    assert len(rolls) == 3 and rolls[0]["dice"][1] == [1, 1, 1, 1] and rolls[0]["totals"] == [14, 4, 14]
    assert rolls[1]["totals"] == [12, None, 12] and rolls[2]["dice"][1] is None
    last = rolls[2]
    assert s["first_leader"] == s["setter"] and last["totals"][s["setter"]] == max([t for t in last["totals"] if t])
    for d, t in zip(last["dice"], last["totals"]):
        assert (d is None and t is None) or (len(d) == 4 and sum(d) == t)


def test_seventy_closes_bidding_and_legal_says_the_playing_minute_is_next():
    s = run(start(3), SIT, bid(1, 30))
    assert M.legal(s)["moves"]["time_up"]["closed"] is False
    s = M.apply(s, bid(2, 70))
    m = M.legal(s)["moves"]
    assert "bid" not in m and m["time_up"]["closed"] is True and m["time_up"]["next"] == "playing"
    refused(s, bid(0, 70), "bidding is closed: 70 is the maximum bid; the playing minute is next")
    assert M.apply(s, UP)["phase"] == "playing"
    s = run(start(3, {"game": 11}), SIT, bid(1, 70))
    assert M.legal(s)["moves"]["time_up"]["next"] == "betting"
    assert M.legal(run(start(3), SIT))["moves"]["time_up"]["next"] == "setup"
