"""Moon dominoes: set-up, options and the bids allowed."""

from _support import raises
from _moon_kit import G, P, bad, pas


def bid(s, p, v):
    return G.apply(s, {"type": "bid", "player": p, "bid": v} if v else pas(p))


def test_new_game_three_players_and_options():
    s = G.new(P, {})
    assert s["players"] == P and s["scores"] == [0, 0, 0]
    assert s["round"] == 0 and s["phase"] == "bidding" and not s["over"]
    assert s["target"] == 21 and G.legal(s)["moves"]["pass"] == {"players": [0]} and G.winner(s) is None
    assert G.new(P, None)["target"] == 21
    s = G.new(P, {"target": 50, "first_bidder": 2})
    assert s["target"] == 50 and G.legal(s)["moves"]["pass"] == {"players": [2]}
    raises(G.new, ["Ann", "Bob"], {}, match="Moon is a game for exactly 3 players, not 2")
    raises(G.new, P + ["Dee"], {}, match="exactly 3 players, not 4")
    raises(G.new, P, {"target": 0}, match="the target must be a whole number of points from 1 to 999999, not 0")
    raises(G.new, P, {"first_bidder": 3}, match="first_bidder must be the seat of a player, 0-2 (Ann, Bob, Cy), not 3")
    raises(G.new, P, {"targt": 30}, match="unknown option 'targt'")
    raises(G.new, P, [1], match="moon's options must be an object")


def test_bidding_goes_clockwise_one_bid_each_from_first_bidder():
    s = G.new(P, {"first_bidder": 1})
    m = G.legal(s)["moves"]
    assert m["bid"] == {"players": [1], "values": [4, 5, 6, 7, 21]}
    assert m["pass"] == {"players": [1]}
    s = bid(s, 1, 4)
    assert G.legal(s)["moves"]["bid"] == {"players": [2], "values": [5, 6, 7, 21]}
    s = bid(bid(s, 2, 0), 0, 6)
    assert s["phase"] == "trump" and s["bidder"] == 0 and s["bid"] == 6
    assert s["bids"] == [6, 4, 0]


def test_bid_must_beat_the_standing_bid():
    s = bid(G.new(P, {}), 0, 6)
    bad(s, {"type": "bid", "player": 1, "bid": 6}, "bid 6 must be higher than the standing bid 6 (Ann's)")
    bad(s, {"type": "bid", "player": 1, "bid": 5}, "bid 5 must be higher than the standing bid 6 (Ann's)")
    s = bid(s, 1, 7)
    # only shooting the moon outbids a 7
    assert G.legal(s)["moves"]["bid"]["values"] == [21]
    s = bid(s, 2, 21)
    assert s["bidder"] == 2 and s["bid"] == 21


def test_bid_values_are_pass_4_to_7_or_21():
    s = G.new(P, {})
    for v in (3, 8, 20, 22, 0, "5", True, 4.0, None):
        bad(s, {"type": "bid", "player": 0, "bid": v}, "a bid is 4, 5, 6, 7 or 21")
    bad(s, {"type": "bid", "player": 0}, "needs a 'bid' field")


def test_21_closes_bidding_at_once():
    s = bid(G.new(P, {}), 0, 21)
    assert s["phase"] == "trump" and s["bidder"] == 0 and s["bids"] == [21, None, None]
    assert "bid" not in G.legal(s)["moves"]
    bad(s, {"type": "bid", "player": 1, "bid": 21}, "cannot bid now: the bidding is over and Ann is to name trump")
    bad(s, {"type": "pass", "player": 1}, "cannot pass now: the bidding is over")
