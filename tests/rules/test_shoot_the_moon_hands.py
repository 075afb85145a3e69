"""Shoot the Moon with the hands entered: following colour is enforced
(issue: "if hands are given, it checks follow-suit"), and the deal is checked."""

from _support import raises
from _stm_kit import G, play
from shared_rules.util import clone


def test_known_hands_enforce_following_colour():
    hands = [["G1", "G2", "R3", "BM", "P4"], ["G5", "B6", "B7", "B8", "B9"], ["R1", "R2", "LM", "P1", "P2"]]
    s = G.apply(G.new(["a", "b", "c"], {}), {"type": "deal", "hands": hands})
    s = play(s, (1, "G5"), (2, "R1"))  # c has no green: anything goes
    assert sorted(G.legal(s)["moves"]["play"]["values"]) == ["BM", "G1", "G2"]
    before = clone(s)
    raises(G.apply, s, {"type": "play", "player": 0, "card": "R3"}, match="a must follow green (G1 G2 BM); if that card was really played, enter an illegal play")
    raises(G.apply, s, {"type": "play", "player": 0, "card": "B6"}, match="a does not hold B6 (holds G1 G2 R3 BM P4)")
    assert s == before
    s = play(s, (0, "G2"))
    assert s["leader"] == 2 and s["held"][0] == ["G1", "R3", "BM", "P4"]
    raises(G.apply, s, {"type": "trick", "winner": 0}, match="this round is being entered card by card: enter the trick's cards with play events")


def test_deal_is_checked():
    s = G.new(["a", "b", "c"], {})
    ok = [["G1", "G2", "G3", "G4", "G5"], ["P1", "P2", "P3", "P4", "P5"], ["BM", "BM", "LM", "LM", "R1"]]
    raises(G.apply, s, {"type": "deal", "hands": ok[:2]}, match="a deal is one list of 5 cards for each of the 3 players, in seat order")
    raises(G.apply, s, {"type": "deal", "hands": [ok[0], ok[1], ["BM", "BM", "BM", "LM", "R1"]]}, match="BM is dealt 3 times, but the deck has two")
    raises(G.apply, s, {"type": "deal", "hands": [ok[0], ok[0], ok[2]]}, match="G1 is dealt 2 times, but the deck has one")
    raises(G.apply, s, {"type": "deal", "hands": [ok[0], ok[1], ["R1"]]}, match="one list of 5 cards")
    s = G.apply(s, {"type": "deal", "hands": ok})
    raises(G.apply, s, {"type": "deal", "hands": ok}, match="this round's hands are already dealt in, so it is entered card by card")
