"""Moon dominoes: turns to bid, redeals, the rotation of the first bidder
and recorded deals."""

from _support import raises
from _moon_kit import G, P, bad, pas, run


def test_wrong_seat_and_second_bid_are_refused():
    s = run(G.new(P, {}), {"type": "bid", "player": 0, "bid": 4})
    bad(s, {"type": "bid", "player": 2, "bid": 5}, "it is Bob's turn to bid, not Cy's")
    bad(s, {"type": "bid", "player": 0, "bid": 5}, "Ann has already bid 4 this hand; each player bids once")
    s = run(s, pas(1))
    bad(s, pas(1), "Bob has already passed this hand")
    bad(s, {"type": "bid", "player": 3, "bid": 5}, "seat 3 does not exist: seats are 0-2 (Ann, Bob, Cy)")
    bad(s, {"type": "bid", "player": True, "bid": 5}, "player must be a seat, 0-2 (Ann, Bob, Cy), not True")
    bad(s, {"type": "bid", "bid": 5}, "needs a 'player' field")
    bad(s, {"type": "shout"}, "moon has no 'shout' event (events: bid, pass")
    bad(s, {"bid": 5}, "an event needs a \"type\": one of bid, pass")
    bad(s, {"type": "trump", "player": 0, "trump": 3}, "cannot name trump now: the players are still bidding")
    raises(G.apply, s, ["bid"], match="an event must be an object with a \"type\"")


def test_all_pass_redeals_and_first_bidder_moves_left():
    s = G.new(P, {"first_bidder": 2})
    s = run(s, pas(2), pas(0), pas(1))
    assert s["phase"] == "bidding" and s["first"] == 0 and G.legal(s)["moves"]["pass"] == {"players": [0]}
    assert s["bids"] == [None, None, None] and s["round"] == 0
    assert s["scores"] == [0, 0, 0] and s["bidder"] is None
    s = run(s, pas(0), pas(1), pas(2))
    assert s["first"] == 1 and G.legal(s)["moves"]["pass"] == {"players": [1]}


def test_first_bidder_rotates_each_hand():
    s = G.new(P, {})
    for first in (0, 1, 2, 0):
        assert s["first"] == first and G.legal(s)["moves"]["pass"]["players"] == [first]
        tricks = [0, 0, 0]
        tricks[first] = 4
        tricks[(first + 1) % 3] = 3
        s = run(s, {"type": "bid", "player": first, "bid": 4}, pas((first + 1) % 3), pas((first + 2) % 3),
                {"type": "trump", "player": first, "trump": 1}, {"type": "totals", "tricks": tricks})
    assert s["round"] == 4 and s["scores"] == [11, 10, 7]


def test_events_ignore_unknown_fields():
    s = run(G.new(P, {}), {"type": "bid", "player": 0, "bid": 5, "t": 1234})
    assert s["bid"] == 5 and s["bidder"] == 0
