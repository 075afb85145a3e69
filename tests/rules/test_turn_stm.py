"""turn(state) for Shoot the Moon: the dealer, and the hand to play next."""

from shared_rules import get_game


def test_shoot_the_moon_dealer_leads_off_left():
    G = get_game("shoot-the-moon")
    s = G.new(["a", "b", "c"], {"dealer": 1})
    assert G.turn(s) == {"leader": 1, "to_act": 2} and s["first_leader"] == 1
    s = G.apply(s, {"type": "play", "player": 2, "card": "G5"})
    assert G.turn(s) == {"leader": 1, "to_act": 0}
    s2 = G.new(["a", "b"], {"dealer": 0})
    assert G.turn(s2) == {"leader": 0, "to_act": 1}  # the non-dealer leads; the dummy plays third
    s2 = G.apply(G.apply(s2, {"type": "play", "player": 1, "card": "G5"}), {"type": "play", "player": 0, "card": "G7"})
    assert G.turn(s2) == {"leader": 0, "to_act": None}  # the dummy's card
