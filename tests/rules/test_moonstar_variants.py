import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import SIT, UP, bid, plan, play, refused, run, start


def test_game_6_favorite_star_doubles():
    s = play({"game": 6}, SIT, plan(), 0)  # 3 moons on star 0: 3 x 20
    assert s["last"]["points"] == 95
    s = run(start(2, {"game": 6}), SIT, bid(0, 20), UP)
    refused(s, {"type": "result", "moves": plan()}, "must place the Favorite Star")
    refused(s, {"type": "result", "moves": plan(), "favorite": 1}, "star 1 has none")


def test_game_9_more_movement():
    sit = {"type": "setup", "planets": [[6, 10], [2, 10], [5, 5], [9, 5]],
           "moons": [0, 3, 4, 7, 8, 10, 11], "dice": [3, 5, 1, 1, 1, 1, 1]}
    mv = [{"moon": 0, "die": 0, "to": 6}, {"moon": 1, "die": 1, "to": 1}, {"moon": 2, "die": 2, "to": 4}]
    mv += [{"moon": 3 + i, "die": 3 + i, "to": t} for i, t in enumerate([9, 9, 9, 0])]
    # 3 doubled clockwise 0->6 (10); 5 halved ccw 3->1 (1); 1 halved stays (1)
    assert play({"game": 9}, sit, mv)["last"]["points"] == 10 + 1 + 1 + 15 + 1
    s = run(start(2), sit, bid(0, 20), UP)
    refused(s, {"type": "result", "moves": mv}, "a 3 cannot take moon 0 from star 0 to star 6")
