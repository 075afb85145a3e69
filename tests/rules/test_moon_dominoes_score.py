"""Moon dominoes: scoring a hand, from totals or from tricks."""

from _support import raises
from _moon_kit import G, hand as _hand
from shared_rules.util import clone


def hand(s, b, v, tricks):
    """Seat b wins the auction with bid v, names trump 2, these totals."""
    return _hand(s, b, v, tricks, 2)


def new():
    return G.new(["Ann", "Bob", "Cy"], {"target": 100})


def test_made_bid_scores_the_bid_others_a_point_a_trick():
    s = hand(new(), 0, 5, [5, 1, 1])
    assert s["scores"] == [5, 1, 1] and s["round"] == 1
    # no extra for tricks over the bid
    assert hand(new(), 0, 4, [6, 1, 0])["scores"] == [4, 1, 0]
    # the next hand: first bidder one seat left, fresh bidding
    assert s["phase"] == "bidding" and s["first"] == 1 and s["tricks"] == [0, 0, 0]


def test_short_bidder_loses_the_bid_and_scores_go_negative():
    s = hand(new(), 1, 6, [1, 5, 1])
    assert s["scores"] == [1, -6, 1]
    s = hand(s, 1, 7, [0, 6, 1])
    assert s["scores"] == [1, -13, 2]


def test_moon_needs_all_seven_and_scores_21():
    s = hand(new(), 2, 21, [0, 0, 7])
    assert s["scores"] == [0, 0, 21]
    s = hand(new(), 2, 21, [1, 0, 6])
    assert s["scores"] == [1, 0, -21]


def test_totals_are_checked():
    s = hand(new(), 0, 5, [5, 1, 1])
    s = G.apply(G.apply(G.apply(G.apply(s, {"type": "bid", "player": 1, "bid": 4}), {"type": "pass", "player": 2}),
                        {"type": "pass", "player": 0}), {"type": "trump", "player": 1, "trump": 0})
    s = G.apply(s, {"type": "trick", "winner": 0})
    assert G.legal(s)["moves"]["totals"] == {"min": 0, "max": 7, "sum": 7, "at_least": [1, 0, 0]}
    for t, words in (([2, 2, 2], "the totals must add up to the hand's 7 tricks, not 6"), ([1, 6], "totals need 3 trick counts, one per seat (Ann, Bob, Cy)"),
                     ("7", "totals need 3 trick counts, one per seat (Ann, Bob, Cy)"), ([0, 7, 0], "Ann has already taken 1 trick this hand, so cannot end it with 0"),
                     ([1, "5", 1], "Bob's tricks must be a whole number"), ([1, 8, -2], "Bob's tricks must be 0-7 (a hand has 7 tricks), not 8")):
        before = clone(s)
        raises(G.apply, s, {"type": "totals", "tricks": t}, match=words)
        assert s == before
    s = G.apply(s, {"type": "totals", "tricks": [1, 4, 2]})
    assert s["scores"] == [6, 5, 3]
