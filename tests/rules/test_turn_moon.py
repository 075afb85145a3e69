"""turn(state) for Moon (dominoes), and Match.turn, which asks the game."""

from shared_rules import get_game
from shared_rules.match import Match


def test_moon_dominoes_bidder_then_trump_then_play():
    G = get_game("moon")
    s = G.new(["a", "b", "c"], {"first_bidder": 2})
    assert G.turn(s) == {"leader": 2, "to_act": 2} and s["first_leader"] == 2
    s = G.apply(s, {"type": "bid", "player": 2, "bid": 4})
    assert G.turn(s) == {"leader": 2, "to_act": 0}
    s = G.apply(G.apply(s, {"type": "pass", "player": 0}), {"type": "pass", "player": 1})
    assert G.turn(s) == {"leader": 2, "to_act": 2}  # to name trump
    s = G.apply(s, {"type": "trump", "player": 2, "trump": 3})
    assert G.turn(s) == {"leader": 2, "to_act": 2}  # and to lead
    s = G.apply(s, {"type": "totals", "tricks": [3, 0, 4]})
    assert G.turn(s)["leader"] == 0 and s["first_leader"] == 2


def test_match_turn_uses_the_game():
    m = Match("moon", ["a", "b", "c"], {"first_bidder": 1})
    assert m.turn() == {"leader": 1, "to_act": 1}
    m.apply({"type": "pass", "player": 1})
    assert m.turn() == {"leader": 1, "to_act": 2}
