"""Moons tricks (RULINGS.md "Each trick"): the winner's tableau token,
the single lowest off-suit card's token, ties for lowest."""

from _support import raises
from _moons_kit import G, J, N, S, U, tableaux
from shared_rules.moons.tricks import resolve


def ready(n=3, sets=None):
    """n players, their tableaux entered (each J, S, S unless given)."""
    return tableaux(G.new(["a", "b", "c", "d", "e", "f"][:n], {}), sets or [[J, S, S]] * n)


def test_resolver_highest_of_led_planet_and_single_lowest_off_suit():
    assert resolve([[0, 5], [1, 2], [3, 3]]) == (0, 1)
    assert resolve([[0, 5], [0, 9], [2, 1], [0, 7]]) == (1, 2)
    assert resolve([[0, 5], [1, 2], [3, 2]]) == (0, None)  # tie for lowest: nobody
    assert resolve([[0, 5], [1, 2], [3, 2], [2, 1]]) == (0, 3)  # a lower card breaks the tie
    assert resolve([[2, 4], [2, 6]]) == (1, None)  # nobody off suit


def test_winner_takes_a_tableau_planet_and_chooses_when_several():
    s = ready()
    raises(G.apply, s, {"type": "trick", "winner": 1}, match="b must choose a token: jupiter or saturn")
    raises(G.apply, s, {"type": "trick", "winner": 1, "take": U},
           match="b cannot take uranus: Uranus is not in his tableau; b may take jupiter or saturn")
    s = G.apply(s, {"type": "trick", "winner": 1, "take": S})
    assert s["tokens"][1] == [0, 1, 0, 0] and s["supply"] == [17, 16, 17, 17] and s["leader"] == 1


def test_single_option_is_taken_without_asking_and_empty_supply_gives_nothing():
    s = ready(2, [[U, U, U], [N, J, J]])
    s = G.apply(s, {"type": "trick", "winner": 0})
    assert s["tokens"][0] == [0, 0, 0, 1]
    s["supply"][3] = 0
    s = G.apply(s, {"type": "trick", "winner": 0, "low": 1, "low_suit": S})
    assert s["tokens"][0] == [0, 0, 0, 1] and s["tokens"][1] == [0, 1, 0, 0]
    raises(G.apply, s, {"type": "trick", "winner": 0, "take": U},
           match="a cannot take uranus: the supply has no Uranus token left; he takes nothing, so leave 'take' out")


def test_low_off_suit_card_by_cards_and_by_outcome():
    s = ready()  # seat 0 leads
    s = G.apply(s, {"type": "trick", "cards": [[N, 4], [U, 1], [N, 9]], "take": J})
    assert s["tokens"][2] == [1, 0, 0, 0] and s["tokens"][1] == [0, 0, 0, 1] and s["leader"] == 2
    s = G.apply(s, {"type": "trick", "cards": [[S, 3], [J, 1], [U, 1]], "take": S})  # 2 leads: tie, nobody
    assert s["tokens"][0] == [0, 0, 0, 0] and s["tokens"][1] == [0, 0, 0, 1] and s["tokens"][2] == [1, 1, 0, 0]
    s = G.apply(s, {"type": "trick", "winner": 0, "take": J, "low": 2, "low_suit": N, "led": S})
    assert s["tokens"][2] == [1, 1, 1, 0] and s["tricks"] == [1, 0, 2]
    raises(G.apply, s, {"type": "trick", "winner": 0, "take": J, "low": 0, "low_suit": N}, match="the winner played on suit, so cannot also play the lowest off-suit card")
    raises(G.apply, s, {"type": "trick", "winner": 0, "take": J, "low": 1, "low_suit": N, "led": N}, match="the lowest off-suit card cannot be of the led planet, Neptune")
    raises(G.apply, s, {"type": "trick", "cards": [[S, 3], [J, 1], [U, 1]], "winner": 1, "take": S}, match="the cards give this trick to a, not b")
