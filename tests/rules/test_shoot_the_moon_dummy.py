"""Shoot the Moon for two: the dummy (RULINGS.md "Two players")."""

from _support import raises
from _stm_kit import G, play


def test_dummy_plays_third_and_leads_after_winning_then_non_dealer():
    s = G.new(["a", "b"], {"dealer": 1})  # non-dealer a leads
    assert G.legal(s)["moves"]["play"]["players"] == [0]
    s = play(s, (0, "G5"), (1, "G7"), (2, "R1"))
    assert s["leader"] == 2 and s["tricks"] == [0, 0, 1]
    assert G.legal(s)["moves"]["play"]["players"] == [2]
    raises(G.apply, s, {"type": "play", "player": 1, "card": "P1"}, match="it is the dummy's turn to play, not b's")
    s = play(s, (2, "P2"), (0, "P3"))  # the non-dealer plays after the dummy
    assert G.legal(s)["moves"]["play"]["players"] == [1]


def test_dummy_tricks_and_moon_cards_score_for_nobody():
    s = G.new(["a", "b"], {})
    s = G.apply(s, {"type": "trick", "winner": 2, "big": 2})
    assert s["scores"] == [2, 2]
    s = G.apply(s, {"type": "trick", "winner": 2})
    for _ in range(3):
        s = G.apply(s, {"type": "trick", "winner": 0})
    assert s["scores"] == [3, 2] and s["round"] == 1  # a: 3 tricks; dummy's 2 count for nobody
    s = G.apply(s, {"type": "round", "tricks": [0, 0, 5], "big": [0, 0, 1]})
    assert s["scores"] == [3, 2]


def test_dummy_hand_index_and_cards_in_players_hands():
    s = G.new(["a", "b"], {})
    assert G.legal(s)["moves"]["trick"]["dummy"] == 2
    raises(G.apply, s, {"type": "trick", "winner": 3}, match="hand 3 does not exist: hands are 0-2 (a, b, the dummy)")
    raises(G.apply, s, {"type": "illegal", "player": 2}, match="seat 2 does not exist: seats are 0-1 (a, b)")
    hands = [["G1", "G2", "G3", "G4", "G5"], ["P1", "P2", "P3", "P4", "BM"]]
    s = G.apply(s, {"type": "deal", "hands": hands})
    s = play(s, (1, "P1"), (0, "G1"))
    raises(G.apply, s, {"type": "play", "player": 2, "card": "G2"}, match="G2 cannot be the dummy's card: it is in a's dealt hand")
    s = play(s, (2, "BM"))  # the other BIG MOON
    assert s["tricks"] == [0, 0, 1]
