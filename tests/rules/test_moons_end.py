"""Moons game end and round order (RULINGS.md "End of the game"): the game
ends when every player has dealt once; tableaux come before tricks."""

from _support import raises
from shared_rules import get_game

G = get_game("moons")
import shared_rules.moons_tricks  # noqa: E402,F401  (compiled now, while the heap is tidy)
J, S, N, U = "jupiter", "saturn", "neptune", "uranus"


def tableaux(s, sets):
    for i in range(len(sets)):
        s = G.apply(s, {"type": "tableau", "player": i, "suits": sets[i]})
    return s


def test_game_ends_when_everyone_has_dealt_once():
    s = G.new(["a", "b"], {})
    for r in range(2):
        assert not s["over"]
        s = tableaux(s, [[J, S, N], [U, U, U]])
        s = G.apply(s, {"type": "trick", "winner": 1})
        s = G.apply(s, {"type": "end", "take": [J, U]})
    assert s["over"] and s["round"] == 2 and G.winner(s) == 1
    assert s["scores"] == [2, 4] and G.legal(s)["moves"] == {}
    raises(G.apply, s, {"type": "trick", "winner": 0}, match="game is over")


def test_round_needs_tricks_and_tableaux():
    s = G.new(["a", "b"], {})
    raises(G.apply, s, {"type": "trick", "winner": 0}, match="missing: a, b")
    s = tableaux(s, [[J, S, N], [U, U, U]])
    raises(G.apply, s, {"type": "end"}, match="no trick")
    s = G.apply(s, {"type": "tableau", "player": 0, "suits": [J, J, J]})  # corrected before play
    s = G.apply(s, {"type": "trick", "winner": 0})
    raises(G.apply, s, {"type": "tableau", "player": 0, "suits": [J, J, J]}, match="before the first trick")


def test_bad_tricks_leave_the_state_unchanged():
    from shared_rules.util import clone
    s = tableaux(G.new(["a", "b", "c"], {}), [[J, S, N], [U, U, U], [J, J, J]])
    before = clone(s)
    for event, words in (
        ({"type": "trick", "cards": [[J, 3], [S, 4]]}, "one card per player"),
        ({"type": "trick", "cards": [[J, 3], [S, 4], [J, 3]]}, "twice"),
        ({"type": "trick", "cards": [[J, 3], [S, 4], ["pluto", 1]]}, "card's planet"),
        ({"type": "trick", "winner": 3}, "seat from 0 to 2"),
        ({"type": "trick", "winner": 1, "low_suit": S}, "needs 'low'"),
        ({"type": "tableau", "player": 0, "suits": [J, S]}, "3 cards"),
        ({"type": "end", "take": [J]}, "no trick"),
        ({"type": "bid", "player": 0}, "unknown event"),
    ):
        raises(G.apply, s, event, match=words)
        assert s == before
