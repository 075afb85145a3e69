import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import UP, bid, play, refused, run, start


def test_game_7_squares_and_game_8_chains():
    sit = {"type": "setup", "planets": [], "moons": [1, 2, 4], "dice": [1, 2, 4]}
    mv = [{"moon": 0, "die": 0, "to": 0}, {"moon": 1, "die": 1, "to": 0}, {"moon": 2, "die": 2, "to": 8}]
    sit["moons"] = sit["moons"] + [5, 6, 7, 9]
    sit["dice"] = sit["dice"] + [1, 1, 1, 1]
    more = [{"moon": 3 + i, "die": 3 + i, "to": t} for i, t in enumerate([4, 7, 8, 8])]
    assert play({"game": 7}, sit, mv + more)["last"]["points"] == 4 + 1 + 1 + 9
    # chains: 0,0 -> 1+2; 8 -> 1; 4 -> 1; 7 -> 1; 8,8 -> 1+2
    assert play({"game": 8}, sit, mv + more)["last"]["points"] == 9
    s = run(start(2, {"game": 8}), sit, bid(0, 20), UP)
    refused(s, UP, "Game 8 has no play time limit")
