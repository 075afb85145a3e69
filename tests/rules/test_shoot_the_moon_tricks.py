"""Shoot the Moon's card notation, trick winner and following colour
(RULINGS.md "Trick winner")."""

from _support import raises
from shared_rules.shoot_the_moon.tricks import full_deck, legal_plays, parse, trick_winner


def test_notation_reads_every_card_and_only_those():
    assert parse("r7") == "R7" and parse("G12") == "G12" and parse("bm") == "BM" and parse("LM") == "LM"
    deck = full_deck()
    assert len(deck) == 52 and deck.count("BM") == 2 and deck.count("LM") == 2 and len(set(deck)) == 50
    for bad in ("R13", "R0", "R07", "X5", "B", "", "MM", 7, None, "G1.5"):
        raises(parse, bad, match="there is no card %r: a card is R, G, P or B" % (bad,))


def test_first_big_moon_wins_even_against_red_and_a_later_big_moon():
    assert trick_winner(["G5", "R12", "BM", "BM"]) == 2
    assert trick_winner(["BM", "R12", "G12"]) == 0
    assert trick_winner(["LM", "G12", "BM"]) == 2


def test_little_moon_lead_highest_number_of_any_colour_red_no_stronger():
    assert trick_winner(["LM", "R3", "G9", "P4"]) == 2
    assert trick_winner(["LM", "R9", "G9", "B9"]) == 1  # tie: first played


def test_red_trumps_then_led_suit():
    assert trick_winner(["G11", "R1", "G12"]) == 1
    assert trick_winner(["G11", "R1", "R2", "G12"]) == 2
    assert trick_winner(["P4", "G12", "P9", "B11"]) == 2
    assert trick_winner(["B4", "B3"]) == 0


def test_little_moon_never_wins():
    assert trick_winner(["G2", "LM", "LM"]) == 0
    assert trick_winner(["LM", "LM", "G1"]) == 2
    raises(trick_winner, ["LM", "LM"], match="never wins")
    raises(trick_winner, [], match="at least one")


def test_following_colour_with_moon_cards_any_time():
    hand = ["G3", "R9", "BM", "LM", "B2"]
    assert legal_plays(hand, []) == hand
    assert sorted(legal_plays(hand, ["G10"])) == ["BM", "G3", "LM"]
    assert sorted(legal_plays(hand, ["B12", "G1"])) == ["B2", "BM", "LM"]
    assert legal_plays(hand, ["P5"]) == hand  # void in purple: anything


def test_no_suit_to_follow_after_a_moon_lead():
    hand = ["G3", "R9", "P1"]
    assert legal_plays(hand, ["BM", "G5"]) == hand
    assert legal_plays(hand, ["LM"]) == hand


def test_blue_is_not_confused_with_big_moon():
    assert legal_plays(["BM", "P1"], ["B5"]) == ["BM", "P1"]  # BM is no blue card
    assert trick_winner(["B5", "B7", "LM"]) == 1
