"""Shoot the Moon: whole-round entry, winning and the deal (RULINGS.md
"Chips per round", "Winning"; the issue's "whole round at once")."""

from _support import raises
from _stm_kit import G, run, tr


def test_whole_round_at_once():
    s = G.new(list("abcd"), {"teams": 2})
    s = G.apply(s, {"type": "round", "tricks": [2, 1, 1, 1], "big": [1, 0, 0, 1], "little": [0, 2, 0, 0]})
    # team 0 (seats 0, 2): 3 tricks +1, BIG +1 -> 4; team 1: 2 tricks, BIG 1 - LITTLE 2 -> 1
    assert s["chips"] == [4, 1] and s["scores"] == [4, 1, 4, 1] and s["round"] == 1 and s["dealer"] == 1
    raises(G.apply, s, {"type": "round", "tricks": [2, 2, 0, 0]}, match="a round's tricks must add up to 5, not 4")
    raises(G.apply, s, {"type": "round", "tricks": [2, 2, 1, 0], "big": [0, 0, 0, 1]}, match="d won no trick, so cannot have won a moon card")
    raises(G.apply, s, {"type": "round", "tricks": [2, 2, 1, 0], "big": [1, 1, 1, 0]}, match="the deck has only 2 BIG MOONs and 2 LITTLE MOONs, not 3 and 0")
    raises(G.apply, s, {"type": "round", "tricks": [2, 2, 1]}, match="a round gives tricks as one number per hand, 4 in all (a, b, c, d), not [2, 2, 1]")


def test_winner_needs_seven_and_strictly_more_at_round_end():
    s = G.new(list("abc"), {})
    s["chips"] = [6, 6, 2]
    s["start"] = list(s["chips"])
    s = run(s, [tr(0, big=1)])
    assert s["chips"][0] == 7 and not s["over"]  # only checked at the end of the round
    s = run(s, [tr(1), tr(1), tr(1), tr(2)])
    assert s["chips"] == [8, 7, 3] and s["over"] and G.winner(s) == 0
    assert G.legal(s)["moves"] == {}
    raises(G.apply, s, tr(0), match="the game is over: a won")


def test_tie_at_seven_plays_on():
    s = G.new(list("abc"), {})
    s["chips"] = [6, 6, 2]
    s["start"] = list(s["chips"])
    s = run(s, [tr(0), tr(1), tr(2), tr(2), tr(2)])
    assert s["chips"] == [7, 7, 3] and not s["over"] and G.winner(s) is None and s["round"] == 1


def test_team_win_names_the_first_seat_of_the_team():
    s = G.new(list("abcd"), {"teams": 2})
    s["chips"] = [2, 6]
    s["start"] = [2, 6]
    s = run(s, [tr(3)] * 5)
    assert s["chips"] == [2, 8] and G.winner(s) == 1
    assert G.standings(s) == [["b", 8], ["d", 8], ["a", 2], ["c", 2]]


def test_dealer_rotates_and_left_of_dealer_leads():
    s = G.new(list("abc"), {"dealer": 2})
    assert G.legal(s)["moves"]["play"]["players"] == [0]
    s = run(s, [tr(0)] * 5)
    assert s["dealer"] == 0 and G.legal(s)["moves"]["play"]["players"] == [1]
