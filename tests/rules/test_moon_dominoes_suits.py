"""Moon dominoes: suits and the trick resolver (shared_rules.moon_dominoes.tricks),
with the published examples."""

from shared_rules.moon_dominoes import tricks as dt


def test_twos_rank_double_then_by_other_end():
    # Published: [2-2] > [2-6] > [2-5] > [2-4] > [2-3] > [2-1] (follow-me)
    order = ["2-2", "2-6", "2-5", "2-4", "2-3", "1-2"]
    ranks = [dt.rank(t, 2, "follow-me") for t in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 6
    # in play: 1-2 leads twos; of any two later twos the higher wins
    for i in range(5):
        for j in range(i + 1, 5):
            assert dt.trick_winner(["1-2", order[j], order[i]], "follow-me") == 2
            assert dt.trick_winner(["1-2", order[i], order[j]], "follow-me") == 1


def test_double_is_high_within_led_suit():
    # a double led belongs to its number
    assert dt.led_suit("2-2", 5) == 2 and dt.led_suit("6-6", "follow-me") == 6
    # 2-3 led (suit 3); 3-3 beats 3-6 and 2-3 under follow-me
    assert dt.trick_winner(["2-3", "3-6", "3-3"], "follow-me") == 2
    assert dt.trick_winner(["1-4", "4-4", "4-6"], 0) == 1


def test_fours_trump_double_four_beats_the_other_fours():
    # Published: with fours trump, [4-4] beats [2-4], [3-4] and [4-6]
    for other in ("2-4", "3-4", "4-6"):
        assert dt.trick_winner([other, "4-4"], 4) == 1
        assert dt.trick_winner(["4-4", other], 4) == 0
    assert dt.trick_winner(["2-4", "3-4", "4-6"], 4) == 2


def test_sixes_trump_five_three_led_sets_fives_and_six_five_is_only_trump():
    # Published: sixes trump, [5-3] led -> suit 5; [6-5] counts only as trump
    assert dt.led_suit("3-5", 6) == 5
    assert dt.is_trump("5-6", 6)
    assert not dt.follows("5-6", 5, 6)
    hand = ["5-6", "1-5", "2-2"]
    assert dt.legal_plays(hand, ["3-5"], 6) == ["1-5"]
    # void in (non-trump) fives: anything, and 6-5 then wins as trump
    assert dt.legal_plays(["5-6", "2-2"], ["3-5"], 6) == ["5-6", "2-2"]
    assert dt.trick_winner(["3-5", "5-5", "5-6"], 6) == 2


def test_trump_tile_led_is_trump_not_its_higher_end():
    # threes trump: 3-6 led is a trump lead, so 6-6 does not follow
    assert dt.led_suit("3-6", 3) == dt.TRUMP
    assert dt.legal_plays(["6-6", "1-3"], ["3-6"], 3) == ["1-3"]
    assert dt.legal_plays(["6-6", "1-2"], ["3-6"], 3) == ["6-6", "1-2"]
    assert dt.trick_winner(["3-6", "6-6", "1-3"], 3) == 0


def test_highest_trump_wins_otherwise_led_suit():
    assert dt.trick_winner(["4-6", "6-6", "1-2"], 1) == 2   # 1-2 is a trump
    assert dt.trick_winner(["4-6", "6-6", "1-2"], 5) == 1   # no trump: 6-6
    assert dt.trick_winner(["4-6", "1-1", "2-2"], 5) == 0   # off-suit never wins
