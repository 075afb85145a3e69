import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from _support import raises
from test_moonstar__kit import M, NAMES


def test_game_2_counts():
    assert M.new(NAMES, {"game": 2, "moons": 9, "dice": 9})["cfg"]["dice"] == 9
    raises(M.new, NAMES, {"game": 2, "moons": 9, "dice": 8}, match="as many dice as moons")
    raises(M.new, NAMES, {"game": 2, "moons": 12, "dice": 12}, match="Game 2 uses 7-11 moons, not 12")
    raises(M.new, NAMES, {"game": 2, "moons": 9}, match="needs the numbers of moons and dice")


def test_game_3_and_4_counts():
    M.new(NAMES, {"game": 3, "moons": 15, "dice": 11})
    raises(M.new, NAMES, {"game": 3, "moons": 8, "dice": 8}, match="more moons than dice")
    raises(M.new, NAMES, {"game": 3, "moons": 16, "dice": 8}, match="8-15 moons, not 16")
    M.new(NAMES, {"game": 4, "moons": 7, "dice": 11})
    raises(M.new, NAMES, {"game": 4, "moons": 9, "dice": 9}, match="more dice than moons")
    raises(M.new, NAMES, {"game": 4, "moons": 10, "dice": 12}, match="Game 4 uses 8-11 dice")


def test_game_5_planets():
    assert M.new(NAMES, {"game": 5, "planets": [3, 7, 7, 20, 1, 2]})["cfg"]["planets"][3] == 20
    raises(M.new, NAMES, {"game": 5, "planets": [1] * 7}, match="Game 5 uses 1-6 planets")
    raises(M.new, NAMES, {"game": 5, "planets": [5, 0]}, match="whole number from 1 to 1000, not 0")
    raises(M.new, NAMES, {"game": 5}, match="Game 5 uses 1-6 planets")
    raises(M.new, NAMES, {"game": 6, "planets": [5]}, match="planets are chosen only in Game 5")


def test_combinations_refuse_incompatible_games():
    raises(M.new, NAMES, {"game": [7, 8]}, match="Game 7 cannot be combined with Game 8")
    raises(M.new, NAMES, {"game": [2, 4]}, match="Game 2 cannot be combined with Game 4")
    raises(M.new, NAMES, {"game": [12]}, match="combine only Games 2-11")
