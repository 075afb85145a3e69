"""Moon dominoes: the tile set, tile notation, trump choices and the
special trumps (shared_rules.moon_dominoes.tricks)."""

from _support import raises
from shared_rules.moon_dominoes import tricks as dt


def test_set_is_double_six_without_0_1_to_0_6_keeping_0_0():
    tiles = dt.all_tiles()
    assert len(tiles) == 22 and len(set(tiles)) == 22
    assert "0-0" in tiles and "6-6" in tiles and "1-6" in tiles
    for n in range(1, 7):
        assert "0-%d" % n not in tiles


def test_notation_normalises_lower_end_first():
    assert dt.parse_tile("6-2") == "2-6"
    assert dt.parse_tile("2-6") == "2-6"
    assert dt.parse_tile("0-0") == "0-0"


def test_tiles_that_do_not_exist_are_refused():
    raises(dt.parse_tile, "0-3", match="tile 0-3 is not in the Moon set (0-1 to 0-6 are taken out; 0-0 stays)")
    raises(dt.parse_tile, "3-0", match="tile 3-0 is not in the Moon set")
    raises(dt.parse_tile, "7-1", match="tile 7-1 does not exist: the ends of a double-six set run from 0 to 6")
    raises(dt.parse_tile, "26", match="'26' is not a tile: write a tile as its two ends with a dash, like 2-6")
    raises(dt.parse_tile, 26, match="26 is not a tile: write")
    raises(dt.parse_tile, "a-b", match="'a-b' is not a tile")


def test_trump_choices():
    assert dt.parse_trump(0) == 0 and dt.parse_trump(6) == 6
    assert dt.parse_trump("doubles") == "doubles"
    assert dt.parse_trump("follow-me") == "follow-me"
    for bad in (7, -1, True, "sixes", None):
        raises(dt.parse_trump, bad, match="trump must be")


def test_zero_trump_has_only_the_double_blank():
    assert dt.is_trump("0-0", 0)
    assert [t for t in dt.all_tiles() if dt.is_trump(t, 0)] == ["0-0"]
    assert dt.trick_winner(["6-6", "0-0", "5-6"], 0) == 1


def test_doubles_trump_runs_six_six_down_to_blank():
    doubles = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
    ranks = [dt.rank(t, dt.TRUMP, "doubles") for t in doubles]
    assert ranks == [6, 5, 4, 3, 2, 1, 0]
    assert dt.trick_winner(["1-1", "0-0", "6-6"], "doubles") == 2
    assert dt.trick_winner(["5-6", "0-0", "6-6"], "doubles") == 2
    # under doubles trump, a non-double lead takes its higher end
    assert dt.led_suit("2-5", "doubles") == 5
    assert dt.legal_plays(["5-5", "1-5"], ["2-5"], "doubles") == ["1-5"]


def test_follow_me_has_no_trump_and_doubles_are_high():
    assert not [t for t in dt.all_tiles() if dt.is_trump(t, "follow-me")]
    assert dt.trick_winner(["1-6", "6-6", "5-5"], "follow-me") == 1
    assert dt.legal_plays(["1-1", "2-2"], [], "follow-me") == ["1-1", "2-2"]
