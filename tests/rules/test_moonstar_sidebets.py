import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import UP, M, bid, pts, refused, run, start

SKIP = {"type": "setup"}
GO = {"type": "start_play"}


def bet(p, amount, on):
    return {"type": "bet", "player": p, "amount": amount, "on": on}


def betting(scores):
    s = start(3, {"game": 11})
    s["scores"] = scores
    return run(s, SKIP, bid(1, 30), UP)


def test_bets_are_capped_at_the_current_total():
    s = betting([50, 20, 0])
    assert s["phase"] == "betting"
    s = M.apply(s, bet(0, 30, "made"))
    refused(s, bet(0, 21, "failed"), "Ann can bet at most 20 more (total 50, already bet 30), not 21")
    refused(s, bet(2, 1, "made"), "Cy can bet at most 0 more")
    refused(s, bet(1, 5, "maybe"), "a side bet is on \"made\" or \"failed\"")
    refused(s, bet(1, -5, "made"), "0 or more")
    assert M.apply(s, bet(2, 0, "made"))["bets"][2] == [0, 0]


def test_bets_settle_after_the_round():
    s = run(betting([50, 20, 0]), bet(0, 30, "made"), bet(0, 20, "failed"), bet(1, 20, "made"), GO)
    made = M.apply(s, pts(30))
    assert made["scores"] == [50 + 10, 20 + 30 + 20, 0]
    failed = M.apply(s, pts(29))
    assert failed["scores"] == [50 + 10 - 10, 0, 10]


def test_no_bets_outside_game_11():
    s = run(start(2), SKIP, bid(1, 30), UP)
    refused(s, bet(0, 0, "made"), "no side bet now")
