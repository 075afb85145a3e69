"""turn(state) for Moons: the round's first player leads."""

from shared_rules import get_game


def test_moons_first_player_leads():
    G = get_game("moons")
    s = G.new(["a", "b", "c"], {})
    s = G.apply(s, {"type": "first", "player": 1})
    assert G.turn(s) == {"leader": 1, "to_act": None} and s["first_leader"] == 1  # tableaux: all at once
    for p in range(3):
        s = G.apply(s, {"type": "tableau", "player": p, "suits": ["jupiter", "saturn", "saturn"]})
    assert G.turn(s) == {"leader": 1, "to_act": 1}
