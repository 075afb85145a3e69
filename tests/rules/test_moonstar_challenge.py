import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import UP, M, bid, pts, refused, run, start

G10 = {"game": 10}
SKIP = {"type": "setup"}


def ch(p):
    return {"type": "challenge", "player": p}


def test_challenge_rules():
    s = run(start(4, G10), SKIP)
    refused(s, ch(1), "there is no bid to challenge yet")
    s = M.apply(s, bid(1, 40))
    refused(s, ch(1), "Bob holds the bid and cannot challenge it")
    s = run(s, ch(2), ch(0))
    refused(s, ch(2), "Cy has already challenged this bid")
    assert s["challengers"] == [2, 0]
    s = M.apply(s, bid(3, 45))  # a new bid voids the challenges
    assert s["challengers"] == []
    refused(run(start(2), SKIP, bid(0, 30)), ch(1), "challenges are part of Game 10")


def test_challenged_bid_made():
    s = run(start(4, G10), SKIP, bid(1, 40), ch(2), ch(3), UP, pts(40))
    assert s["scores"] == [0, 65, -25, -25]


def test_challenged_bid_failed():
    s = run(start(4, G10), SKIP, bid(1, 40), ch(2), UP, pts(39))
    assert s["scores"] == [10, -25, 25, 10] and s["out"] == 1


def test_unchallenged_bid_in_game_10_scores_as_usual():
    s = run(start(3, G10), SKIP, bid(1, 40), UP, pts(39))
    assert s["scores"] == [10, 0, 10]


def test_sitting_out_player_cannot_challenge():
    s = run(start(3, G10), SKIP, bid(1, 40), UP, pts(0), SKIP, bid(0, 30))
    refused(s, ch(1), "Bob sits out this round")
