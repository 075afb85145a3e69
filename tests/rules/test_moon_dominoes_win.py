"""Moon dominoes: reaching the target and the bidder-goes-out rule."""

from _support import raises
from _moon_kit import G, hand as _hand


def hand(s, b, v, tricks):
    """Seat b wins the auction with bid v, names trump 6, these totals."""
    return _hand(s, b, v, tricks, 6)


def game(target, scores):
    """A game at these scores, as if earlier hands had been played."""
    s = G.new(["Ann", "Bob", "Cy"], {"target": target})
    s["scores"] = list(scores)
    return s


def test_first_to_the_target_wins_and_the_game_stops():
    s = hand(game(21, [15, 0, 0]), 0, 6, [6, 1, 0])
    assert s["scores"] == [21, 1, 0] and G.winner(s) == 0 and s["over"] and s["phase"] == "over"
    assert G.legal(s) == {"phase": "over", "moves": {}}
    raises(G.apply, s, {"type": "pass", "player": 1}, match="the game is over: Ann won")
    assert G.winner(hand(game(21, [15, 0, 0]), 0, 5, [5, 1, 1])) is None  # 20: play on


def test_bidder_goes_out_even_with_a_lower_total():
    s = hand(game(21, [20, 16, 0]), 1, 5, [2, 5, 0])
    assert s["scores"] == [22, 21, 0] and G.winner(s) == 1
    assert G.standings(s) == [["Bob", 21], ["Ann", 22], ["Cy", 0]]  # the winner first (issue 22)


def test_others_reaching_together_highest_wins_tie_plays_on():
    s = hand(game(21, [18, 18, 0]), 2, 4, [3, 3, 1])
    assert s["scores"] == [21, 21, -4] and G.winner(s) is None and s["phase"] == "bidding"
    assert G.standings(s) == [["Ann", 21], ["Bob", 21], ["Cy", -4]]
    t = hand(s, 2, 5, [2, 1, 4])
    assert t["scores"] == [23, 22, -9] and G.winner(t) == 0
    # a set bidder still above the target (after a play-on) does not go out
    t = hand(game(21, [30, 30, 0]), 0, 4, [2, 3, 2])
    assert t["scores"] == [26, 33, 2] and G.winner(t) == 1
    t = hand(s, 1, 6, [4, 0, 3])
    assert t["scores"] == [25, 15, -1] and G.winner(t) == 0


def test_target_is_an_option():
    s = hand(game(10, [0, 0, 0]), 2, 7, [0, 0, 7])
    assert G.winner(s) is None and s["scores"] == [0, 0, 7]
    assert G.winner(hand(game(10, [0, 0, 7]), 2, 4, [0, 0, 7])) == 2
    s = hand(game(100, [90, 95, 0]), 2, 21, [0, 0, 7])
    assert s["scores"] == [90, 95, 21] and G.winner(s) is None
