"""Moons supply, Asteroid moves and set scoring (RULINGS.md "Supply",
"Token moves", "Set scoring", "End of the game")."""

from _support import raises
from _moons_kit import G
from shared_rules.moons import set_score
from shared_rules.util import clone


def test_supply_is_17_of_each_and_players_2_to_6():
    assert G.new(["a", "b"], {})["supply"] == [17, 17, 17, 17]
    raises(G.new, ["a"], {}, match="this game needs 2 to 6 players, not 1")
    raises(G.new, list("abcdefg"), {}, match="2 to 6")


def test_default_scoring_one_a_token_and_ten_per_complete_set():
    t = [1, 2, 3, 10]
    assert set_score([1, 1, 1, 1], t) == 10
    assert set_score([3, 2, 2, 1], t) == 14  # one set (10) + 4 more tokens
    assert set_score([2, 2, 2, 2], t) == 20  # every complete set counts
    assert set_score([5, 0, 0, 0], t) == 5 and set_score([0, 0, 0, 0], t) == 0


def test_custom_table_groups_by_distinct_planets():
    t = [1, 3, 6, 12]
    assert set_score([3, 2, 2, 1], t) == 12 + 6 + 1  # groups of 4, 3, 1
    s = G.new(["a", "b"], {"scoring": t})
    s = G.apply(s, {"type": "move", "from": "supply", "to": 0, "planet": "saturn", "count": 2})
    s = G.apply(s, {"type": "move", "from": "supply", "to": 0, "planet": "uranus"})
    assert s["scores"] == [4, 0]  # [0, 2, 0, 1]: a group of 2 (3) and a group of 1 (1)
    raises(G.new, ["a", "b"], {"scoring": [1, 2, 3]}, match="scoring must list 4 values: points for a group of 1, 2, 3 and 4 different planets")
    raises(G.new, ["a", "b"], {"scoring": [1, 2, -3, 4]}, match="each scoring value must be a whole number of points from 0 to 1000, not -3")


def test_moves_between_players_and_the_supply():
    s = G.new(["a", "b"], {})
    s = G.apply(s, {"type": "move", "from": "supply", "to": 0, "planet": "neptune", "count": 3})
    s = G.apply(s, {"type": "move", "from": 0, "to": 1, "planet": "neptune"})
    s = G.apply(s, {"type": "move", "from": 1, "to": "supply", "planet": "neptune"})
    assert s["tokens"] == [[0, 0, 2, 0], [0, 0, 0, 0]] and s["supply"] == [17, 17, 15, 17]
    before = clone(s)
    raises(G.apply, s, {"type": "move", "from": 1, "to": 0, "planet": "neptune"}, match="b has 0 Neptune tokens, so cannot give 1")
    raises(G.apply, s, {"type": "move", "from": 0, "to": 0, "planet": "neptune"}, match="a move goes between two different places, not from 0 to itself")
    raises(G.apply, s, {"type": "move", "from": 0, "to": 2, "planet": "neptune"}, match="a move's 'to' is a seat, 0-1 (a, b), or \"supply\", not 2")
    raises(G.apply, s, {"type": "move", "from": 0, "to": 1, "planet": "pluto"}, match="planet must be one of jupiter, saturn, neptune, uranus, not 'pluto'")
    raises(G.apply, s, {"type": "move", "from": "supply", "to": 1, "planet": "saturn", "count": 18}, match="the supply has 17 Saturn tokens, so cannot give 18")
    raises(G.apply, s, {"type": "move", "from": 0, "to": 1, "planet": "saturn", "count": 0}, match="a move takes 1 to 68 tokens, not 0")
    assert s == before


def test_game_ends_the_moment_the_supply_is_out():
    s = G.new(["a", "b", "c"], {})
    for p, who in (("jupiter", 0), ("saturn", 1), ("neptune", 2)):
        s = G.apply(s, {"type": "move", "from": "supply", "to": who, "planet": p, "count": 17})
    s = G.apply(s, {"type": "move", "from": "supply", "to": 2, "planet": "uranus", "count": 16})
    assert not s["over"]
    s = G.apply(s, {"type": "move", "from": "supply", "to": 1, "planet": "uranus"})
    assert s["over"] and s["scores"] == [17, 18, 33] and G.winner(s) == 2


def test_tie_on_score_goes_to_most_tokens_then_shared():
    s = G.new(["a", "b", "c"], {"scoring": [1, 2, 3, 4]})
    s["supply"] = [1, 0, 0, 0]
    s["tokens"] = [[0, 0, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1]]
    s["scores"] = [0, 2, 2]
    s = G.apply(s, {"type": "move", "from": "supply", "to": 0, "planet": "jupiter"})
    assert s["over"] and s["winners"] == [1, 2] and G.winner(s) == 1
