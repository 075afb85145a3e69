import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import M, fixed_round, SIT, refused, start


def test_entered_setup_is_stored_for_the_round():
    s = M.apply(start(), SIT)
    assert s["phase"] == "bidding" and s["sit"]["dice"] == SIT["dice"]
    assert s["sit"]["scoring"] == "planets" and s["sit"]["favorite_star"] is False


def test_setup_may_be_skipped():
    s = M.apply(start(), {"type": "setup"})
    assert s["phase"] == "bidding" and s["sit"] is None


def test_setup_breaking_the_rules_is_refused():
    s = start()
    bad = dict(SIT)
    bad["moons"] = [1, 1, 1, 1, 7, 8, 11]
    refused(s, bad, "a 4th moon on star 1")
    bad = dict(SIT)
    bad["planets"] = [[0, 10], [0, 5], [6, 10], [9, 5]]
    refused(s, bad, "a second planet on star 0")
    bad = dict(SIT)
    bad["dice"] = [1, 2, 3]
    refused(s, bad, "this round uses 7 dice, not 3")
    bad = dict(SIT)
    bad["planets"] = [[0, 10], [3, 10], [6, 10], [9, 5]]
    refused(s, bad, "this round's planets are 5, 5, 10, 10, not 5, 10, 10, 10")
    refused(s, {"type": "setup", "moons": [1]}, "all of planets, moons and dice")
    refused(s, {"type": "setup", "seed": 1, "dice": [1]}, "either a seed or")


def test_fixed_round_by_moves():
    fixed_round()
