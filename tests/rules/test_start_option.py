"""'Starting from paper': every game's "start" option carries each
player's (or side's) score or chips over, checked, and visible in the
state as start_scores (Moonstar: test_moonstar_start.py)."""

from _support import drop_games, raises
from shared_rules import get_game


def test_shoot_the_moon_starts_from_chips_per_side():
    G = get_game("shoot-the-moon")
    s = G.new(["a", "b", "c"], {"start": [5, 0, 3]})
    assert s["chips"] == [5, 0, 3] and s["scores"] == [5, 0, 3] and s["start_scores"] == [5, 0, 3]
    s = G.new(["a", "b", "c", "d"], {"teams": 2, "start": [4, 1]})
    assert s["scores"] == [4, 1, 4, 1] and s["start_scores"] == [4, 1, 4, 1]
    assert G.new(["a", "b"], {})["start_scores"] == [2, 2]  # the box's 2 chips each
    raises(G.new, ["a", "b", "c", "d"], {"teams": 2, "start": [4, 1, 0, 0]}, match="one chip count per side (2)")
    raises(G.new, ["a", "b"], {"start": [7, 0]}, match="a start of 7, alone on top at or past the goal of 7, is a game already won")
    raises(G.new, ["a", "b"], {"start": [100001, 0]}, match="starting chips must be a whole number from 0 to 100000")
    raises(G.new, ["a", "b"], {"start": [-1, 0]}, match="not -1")
    raises(G.new, ["a", "b"], {"target": 10, "start": [9.0, 0]}, match="not 9.0")
    drop_games()  # one game's rules at a time, as on the board: the file fits 72K


def test_moon_dominoes_starts_from_points():
    G = get_game("moon")
    s = G.new(["a", "b", "c"], {"start": [12, -7, 0]})
    assert s["scores"] == [12, -7, 0] and s["start_scores"] == [12, -7, 0]
    raises(G.new, ["a", "b", "c"], {"start": [21, 0, 0]}, match="a start of 21, alone on top at or past the goal of 21")
    raises(G.new, ["a", "b", "c"], {"start": [0, 1001, 0]}, match="from -1000 to 1000, not 1001")
    raises(G.new, ["a", "b", "c"], {"start": [0, 0]}, match="one score per player (3)")
    raises(G.new, ["a", "b", "c"], {"start": [True, 0, 0]}, match="not True")
    drop_games()


def test_moons_start_adds_to_what_the_tokens_score():
    G = get_game("moons")
    s = G.new(["a", "b"], {"start": [30, 4]})
    assert s["scores"] == [30, 4] and s["start_scores"] == [30, 4]
    s = G.apply(s, {"type": "move", "from": "supply", "to": 1, "planet": "saturn", "count": 2})
    assert s["scores"] == [30, 6]
    raises(G.new, ["a", "b"], {"start": [10000, 0]}, match="from 0 to 9999, not 10000")
    raises(G.new, ["a", "b"], {"start": "30,4"}, match="one score per player (2)")

