import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import M, fixed_round, UP, bid, pts, refused, run, start

SKIP = {"type": "setup"}


def test_made_bid_scores_the_bid():
    s = run(start(), SKIP, bid(1, 30), UP, pts(31))
    assert s["scores"] == [0, 30, 0] and s["round"] == 1
    assert s["last"]["made"] is True and s["out"] is None
    assert s["setter"] == 1  # left of the last setter


def test_failed_bid_gives_every_other_player_10_and_a_round_out():
    s = run(start(4), SKIP, bid(1, 30), UP, pts(29))
    assert s["scores"] == [10, 0, 10, 10] and s["out"] == 1
    # The set-up turn passes Bob by; he may not bid, and gets no 10.
    assert s["setter"] == 2
    refused(M.apply(s, SKIP), bid(1, 40), "Bob sits out this round after failing a bid")
    s = run(s, SKIP, bid(0, 40), UP, pts(0))
    assert s["scores"] == [10, 0, 20, 20] and s["out"] == 0
    assert s["setter"] == 3


def test_a_no_bid_round_is_the_round_out():
    s = run(start(3), SKIP, bid(1, 30), UP, pts(0))
    s = run(s, SKIP, UP)  # nobody bids: Cy (setter) +20
    assert s["scores"] == [10, 0, 30] and s["out"] is None
    assert M.apply(M.apply(s, SKIP), bid(1, 20))["bidder"] == 1


def test_winner_is_decided_at_the_end_of_a_round():
    s = start(2)
    s["scores"] = [190, 150]
    s = run(s, SKIP, bid(0, 20), UP, pts(20))
    assert s["over"] and M.winner(s) == 0 and s["phase"] == "over"
    assert M.standings(s) == [["Ann", 210], ["Bob", 150]]
    refused(s, SKIP, "the game is over: Ann has won")


def test_a_tie_at_the_top_plays_on():
    s = start(3)
    s["scores"] = [180, 200, 150]
    s = run(s, SKIP, bid(0, 20), UP, pts(20))
    assert not s["over"] and M.winner(s) is None
    s = run(s, SKIP, bid(2, 20), UP, pts(0))  # Cy fails: Ann 210, Bob 210
    assert not s["over"]
    s = run(s, SKIP, bid(1, 25), UP, pts(30))
    assert M.winner(s) == 1 and s["scores"] == [210, 235, 150]


def test_fixed_round_by_moves():
    fixed_round()
