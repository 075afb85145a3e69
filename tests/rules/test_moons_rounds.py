"""Moons rounds (RULINGS.md "End of a round", "End of the game"): most
tricks, zero tricks, the first player passes left, the game ends when
every player has dealt once."""

from _support import raises
from _moons_kit import G, J, N, S, U, tableaux


def test_most_tricks_take_any_planet_ties_all_take_and_zero_takes_tableau():
    s = tableaux(G.new(["a", "b", "c", "d"], {}), [[J, J, J], [S, S, S], [N, N, N], [U, N, U]])
    for w in (0, 1, 0, 1, 2):
        s = G.apply(s, {"type": "trick", "winner": w})
    raises(G.apply, s, {"type": "end", "take": [U, S, N, None]}, match="c took some tricks but not the most, so takes no token")
    raises(G.apply, s, {"type": "end", "take": [U, S, None, None]}, match="d must choose a token: neptune or uranus")
    raises(G.apply, s, {"type": "end", "take": [U, S, None, J]}, match="d cannot take jupiter: Jupiter is not in his tableau; d may take neptune or uranus")
    s = G.apply(s, {"type": "end", "take": [U, S, None, N]})
    assert s["tokens"] == [[2, 0, 0, 1], [0, 3, 0, 0], [0, 0, 1, 0], [0, 0, 1, 0]]
    assert s["round"] == 1 and s["first"] == 1 and s["leader"] == 1 and s["phase"] == "tableau"
    assert s["tableaux"] == [None] * 4 and s["tricks"] == [0] * 4


def test_first_player_chosen_once_then_passes_left():
    s = G.new(["a", "b", "c"], {})
    s = G.apply(s, {"type": "first", "player": 2})
    s = tableaux(s, [[J, J, J], [S, S, S], [N, N, N]])
    assert s["leader"] == 2
    s = G.apply(s, {"type": "trick", "cards": [[N, 4], [J, 1], [S, 9]]})  # 2, 0, 1 play
    assert s["tricks"] == [0, 0, 1] and s["tokens"][0] == [1, 0, 0, 0]
    raises(G.apply, s, {"type": "first", "player": 0}, match="the first player is entered before the first trick of the game")
    s = G.apply(s, {"type": "end", "take": [None, None, U]})
    assert s["first"] == 0
    raises(G.apply, s, {"type": "first", "player": 1}, match="since then it has passed to the left each round")
