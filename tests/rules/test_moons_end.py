"""Moons game end and round order (RULINGS.md "End of the game"): the game
ends when every player has dealt once; tableaux come before tricks."""

from _support import raises
from _moons_kit import G, J, N, S, U, tableaux


def test_game_ends_when_everyone_has_dealt_once():
    s = G.new(["a", "b"], {})
    for r in range(2):
        assert not s["over"]
        s = tableaux(s, [[J, S, N], [U, U, U]])
        s = G.apply(s, {"type": "trick", "winner": 1})
        s = G.apply(s, {"type": "end", "take": [J, U]})
    assert s["over"] and s["round"] == 2 and G.winner(s) == 1
    assert s["scores"] == [2, 4] and G.legal(s)["moves"] == {}
    raises(G.apply, s, {"type": "trick", "winner": 0}, match="the game is over: b won")


def test_round_needs_tricks_and_tableaux():
    s = G.new(["a", "b"], {})
    raises(G.apply, s, {"type": "trick", "winner": 0}, match="missing: a, b")
    s = tableaux(s, [[J, S, N], [U, U, U]])
    raises(G.apply, s, {"type": "end"}, match="a round ends after its tricks, and no trick has been entered this round")
    s = G.apply(s, {"type": "tableau", "player": 0, "suits": [J, J, J]})  # corrected before play
    s = G.apply(s, {"type": "trick", "winner": 0})
    raises(G.apply, s, {"type": "tableau", "player": 0, "suits": [J, J, J]}, match="a tableau is entered before the first trick of the round")


def test_bad_tricks_leave_the_state_unchanged():
    from shared_rules.util import clone
    s = tableaux(G.new(["a", "b", "c"], {}), [[J, S, N], [U, U, U], [J, J, J]])
    before = clone(s)
    for event, words in (
        ({"type": "trick", "cards": [[J, 3], [S, 4]]}, "a trick needs 3 cards, one per player in play order from the leader, got 2"),
        ({"type": "trick", "cards": [[J, 3], [S, 4], [J, 3]]}, "Jupiter 3 is played twice in one trick"),
        ({"type": "trick", "cards": [[J, 3], [S, 4], ["pluto", 1]]}, "a card's planet must be one of jupiter, saturn, neptune, uranus, not 'pluto'"),
        ({"type": "trick", "winner": 3}, "seat 3 does not exist: seats are 0-2 (a, b, c)"),
        ({"type": "trick", "winner": 1, "low_suit": S}, "low_suit needs 'low': the seat of the lowest off-suit card"),
        ({"type": "tableau", "player": 0, "suits": [J, S]}, "a tableau is 3 cards: give 'suits' as a list of 3 planets"),
        ({"type": "end", "take": [J]}, "no trick"),
        ({"type": "bid", "player": 0}, "moons has no 'bid' event (events: tableau, first, trick, end, move, undo)"),
    ):
        raises(G.apply, s, event, match=words)
        assert s == before
