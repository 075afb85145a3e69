import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import UP, M, bid, pts, refused, run, start


def var(games, **kw):
    ev = {"type": "variants", "games": games}
    for k in kw:
        ev[k] = kw[k]
    return ev


def test_setter_picks_the_round_variants():
    s = start(3, {"game": 12})
    assert s["phase"] == "choose" and s["cfg"] is None
    s = M.apply(s, var([3, 10], moons=10, dice=8))
    cfg = s["cfg"]
    assert s["phase"] == "setup" and cfg["moons"] == 10 and cfg["challenges"]
    s = run(s, {"type": "setup", "seed": 3}, bid(0, 20), UP, pts(20))
    assert s["phase"] == "choose" and s["cfg"] is None and s["setter"] == 1


def test_game_8_round_has_no_play_limit_and_no_bid_chooses_again():
    s = run(start(2, {"game": 12}), var([8, 9]), {"type": "setup"}, bid(0, 20), UP)
    refused(s, UP, "Game 8 has no play time limit")
    s = run(start(2, {"game": 12}), var([]), {"type": "setup"}, UP)
    assert s["scores"] == [20, 0] and s["phase"] == "choose" and s["setter"] == 0
