"""Shoot the Moon illegal play and bad input (RULINGS.md "Illegal play")."""

from _support import raises
from _stm_kit import G
from shared_rules.util import clone


def test_illegal_play_voids_the_hand_and_costs_the_side_one_chip():
    s = G.new(["a", "b", "c", "d"], {"teams": 2, "dealer": 3})
    s = G.apply(s, {"type": "trick", "winner": 1, "big": 2})
    s = G.apply(s, {"type": "trick", "winner": 0, "little": 1})
    assert s["chips"] == [1, 4]
    s = G.apply(s, {"type": "illegal", "player": 3})  # team 1 revoked
    assert s["chips"] == [2, 1] and s["scores"] == [2, 1, 2, 1]
    assert s["dealer"] == 3 and s["tricks"] == [0, 0, 0, 0] and s["moons"] == [0, 0] and s["round"] == 0
    assert s["start"] == [2, 1]  # a second void hand goes back to here


def test_illegal_penalty_never_below_zero_and_mid_trick():
    s = G.new(["a", "b", "c"], {})
    s["chips"] = [0, 2, 2]
    s["start"] = [0, 2, 2]
    s = G.apply(s, {"type": "play", "player": 1, "card": "G4"})
    s = G.apply(s, {"type": "illegal", "player": 0})
    assert s["chips"] == [0, 2, 2] and s["trick"] == [] and s["played"] == []


def test_bad_input_leaves_the_state_unchanged():
    s = G.new(["a", "b", "c"], {})
    s = G.apply(s, {"type": "trick", "winner": 0, "big": 1, "little": 1})
    before = clone(s)
    bad = [
        ({"type": "trick", "winner": 3}, "seat 3 does not exist: seats are 0-2 (a, b, c)"),
        ({"type": "trick", "winner": True}, "winner must be a seat, 0-2 (a, b, c), not True"),
        ({"type": "trick", "winner": 0, "big": 2}, "the deck has only 1 BIG MOON and 1 LITTLE MOON left this round"),
        ({"type": "trick", "winner": 0, "big": -1}, "big must be 0, 1 or 2 (the deck has 2 BIG MOONs), not -1"),
        ({"type": "trick", "winner": 0, "big": 1, "little": 1, "x": 0}, None),
        ({"type": "round", "tricks": [5, 0, 0]}, "a whole round is entered before the first trick of the round, and this round has begun"),
        ({"type": "illegal", "player": 5}, "seat 5 does not exist: seats are 0-2 (a, b, c)"),
        ({"type": "bid", "player": 0}, "shoot-the-moon has no 'bid' event (events: deal, play, trick, round, illegal, undo)"),
    ]
    for event, words in bad:
        if words is None:
            continue
        raises(G.apply, s, event, match=words)
        assert s == before
    s2 = G.new(["a", "b", "c"], {})
    raises(G.apply, s2, {"type": "trick", "winner": 0, "big": 2, "little": 2}, match="a trick of 3 cards cannot hold 2 BIG and 2 LITTLE MOONs")
    raises(G.apply, s2, {"type": "trick", "winner": 0, "little": 3}, match="little must be 0, 1 or 2 (the deck has 2 LITTLE MOONs), not 3")
    raises(G.apply, s2, {"type": "round", "tricks": [1, 2, 2], "little": [0, 0, 3]}, match="a round's little counts are whole numbers from 0 to 2, not 3")
