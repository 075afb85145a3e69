import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import SIT, UP, M, bid, plan, refused, run, start


def test_a_setup_is_corrected_until_the_result_is_in():
    wrong = dict(SIT, dice=[1, 1, 1, 1, 1, 1, 1])
    s = run(start(3), wrong, bid(1, 30))
    fix = dict(SIT, type="fix_situation")
    t = M.apply(s, fix)
    assert t["phase"] == "bidding" and t["sit"]["dice"] == SIT["dice"] and s["sit"]["dice"] == wrong["dice"]
    assert M.legal(s)["moves"]["fix_situation"]["players"] == [0]
    t = run(t, UP, {"type": "result", "moves": plan()})
    assert t["last"]["points"] == 65
    refused(t, fix, "no set-up correction now: this is the set-up")
    refused(s, dict(fix, dice=[1, 2]), "this round uses 7 dice, not 2")
    # forgetting the set-up (situation unknown) is a correction too
    assert M.apply(run(s, UP), {"type": "fix_situation"})["sit"] is None

