import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from shared_rules.util import Rng
from test_moonstar__kit import M, fixed_round, NAMES, refused


def test_highest_of_four_dice_sets_up_the_first_round():
    s = M.new(NAMES[:3], {})
    s = M.apply(s, {"type": "roll_for_setter", "rolls": [[1, 2, 3, 4], [6, 6, 1, 1], [2, 2, 2, 2]]})
    assert s["setter"] == 1 and s["phase"] == "setup"


def test_a_tie_rolls_off_among_the_tied_only():
    s = M.new(NAMES[:3], {})
    s = M.apply(s, {"type": "roll_for_setter", "rolls": [[6, 6, 1, 1], [1, 1, 1, 1], [5, 5, 2, 2]]})
    assert s["phase"] == "first" and s["rolloff"] == [0, 2]
    refused(s, {"type": "roll_for_setter", "rolls": [[1, 1, 1, 1], [6, 6, 6, 6], [2, 2, 2, 2]]}, "Bob is not in the roll-off")
    s = M.apply(s, {"type": "roll_for_setter", "rolls": [[1, 1, 1, 1], None, [2, 2, 2, 2]]})
    assert s["setter"] == 2 and s["rolloff"] is None


def test_seeded_roll_is_four_rng_dice_per_player():
    rng = Rng(99)
    rolls = [[1 + rng.below(6) for _ in range(4)] for _ in range(3)]
    s = M.new(NAMES[:3], {})
    a = M.apply(s, {"type": "roll_for_setter", "seed": 99})
    b = M.apply(s, {"type": "roll_for_setter", "rolls": rolls})
    assert a == b


def test_bad_rolls_and_explicit_choice():
    s = M.new(NAMES[:2], {})
    refused(s, {"type": "roll_for_setter", "rolls": [[1, 2, 3], [1, 2, 3, 4]]}, "Ann must roll four dice")
    refused(s, {"type": "roll_for_setter", "rolls": [[1, 2, 3, 7], [1, 2, 3, 4]]}, "Ann's die shows 7")
    refused(s, {"type": "roll_for_setter", "seed": -1}, "seed must be a whole number")
    refused(s, {"type": "choose_setter", "player": 2}, "player must be a seat from 0 to 1")
    refused(s, {"type": "setup"}, "no set-up now: this is the choice of the first setter")
    assert M.apply(s, {"type": "choose_setter", "player": 1})["setter"] == 1


def test_fixed_round_by_moves():
    fixed_round()
