"""Shoot the Moon entered card by card: turn order, the core finds the
winner, cards that do not exist or come twice, following colour when the
hands are known (issue: "When a trick is entered card by card ...")."""

from _support import raises
from _stm_kit import G, play
from shared_rules.util import clone


def test_core_finds_the_winner_and_pays_moon_cards():
    s = G.new(["a", "b", "c"], {})  # dealer 0: seat 1 leads
    s = play(s, (1, "G5"), (2, "R2"), (0, "LM"))
    assert s["tricks"] == [0, 0, 1] and s["leader"] == 2 and s["scores"] == [2, 2, 1]
    s = play(s, (2, "P3"), (0, "BM"), (1, "BM"))
    assert s["leader"] == 0 and s["scores"] == [4, 2, 1] and s["moons"] == [2, 1]


def test_turn_order_and_unknown_or_repeated_cards():
    s = play(G.new(["a", "b", "c"], {}), (1, "G5"))
    before = clone(s)
    raises(G.apply, s, {"type": "play", "player": 0, "card": "G6"}, match="it is c's turn to play, not a's")
    raises(G.apply, s, {"type": "play", "player": 2, "card": "G13"}, match="there is no card 'G13': a card is R, G, P or B with a number 1-12 (like R7), BM or LM")
    raises(G.apply, s, {"type": "play", "player": 2, "card": "g5"}, match="G5 has already been played this round")
    raises(G.apply, s, {"type": "play", "player": 2}, match="play event needs a 'card' field")
    s2 = play(s, (2, "BM"), (0, "BM"))
    raises(G.apply, s2, {"type": "play", "player": 2, "card": "BM"}, match="both BIG MOONs have already been played this round")
    raises(G.apply, s, {"type": "trick", "winner": 0}, match="this round is being entered card by card")
    assert s == before
    assert G.legal(s)["moves"]["play"]["players"] == [2]
    assert "G5" not in G.legal(s)["moves"]["play"]["values"]
