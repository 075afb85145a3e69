import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from _support import raises
from test_moonstar__kit import M, NAMES


def test_new_state_has_the_contract_fields():
    s = M.new(NAMES[:3], {})
    assert s["players"] == ["Ann", "Bob", "Cy"] and s["scores"] == [0, 0, 0]
    assert s["round"] == 0 and s["phase"] == "first" and s["over"] is False
    assert s["bid_seconds"] == 60 and s["play_seconds"] == 60
    assert M.winner(s) is None


def test_targets_are_fixed_by_the_game():
    assert M.new(NAMES, {})["target"] == 200
    assert M.new(NAMES, {"game": 7})["target"] == 100
    assert M.new(NAMES, {"game": 8})["target"] == 50
    assert M.new(NAMES, {"game": [8, 9]})["target"] == 50
    assert M.new(NAMES, {"game": 12})["target"] == 200


def test_timers_are_options_and_game_8_has_no_play_limit():
    s = M.new(NAMES, {"bid_seconds": 90, "play_seconds": 30})
    assert s["bid_seconds"] == 90 and s["play_seconds"] == 30
    raises(M.new, NAMES, {"bid_seconds": 5}, match="bid_seconds must be a whole number of seconds from 10 to 600")
    assert M.new(NAMES, {"game": 8})["play_seconds"] is None
    raises(M.new, NAMES, {"game": 8, "play_seconds": 60}, match="no play time limit")


def test_bad_options_are_named():
    raises(M.new, NAMES, {"gmae": 2}, match="unknown Moonstar option 'gmae'")
    raises(M.new, NAMES, {"game": 13}, match="game must be 1-12")
    raises(M.new, NAMES, {"moons": 8}, match="moons is set only by Games 2-4")
    raises(M.new, NAMES, {"game": 12, "dice": 8}, match="in Game 12 the setter picks the dice")
    raises(M.new, ["Ann"], {}, match="needs 2 to 8 players")
