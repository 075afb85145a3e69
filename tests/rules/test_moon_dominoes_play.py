"""Moon dominoes: tiles played one at a time from a recorded deal, with
suits followed and winners found by the core."""

from _moon_kit import DEAL, G, bad


def play(s, p, tile):
    return G.apply(s, {"type": "play", "player": p, "tile": tile})


def fives_by_bob():
    """Bob bids 5, swaps 0-0 for the spare 1-4 and names fives trump."""
    s = G.new(["Ann", "Bob", "Cy"], {})
    for e in ({"type": "deal", "hands": DEAL}, {"type": "bid", "player": 0, "bid": 4},
              {"type": "bid", "player": 1, "bid": 5}, {"type": "pass", "player": 2},
              {"type": "swap", "player": 1, "tile": "0-0"}, {"type": "trump", "player": 1, "trump": 5}):
        s = G.apply(s, e)
    return s


def test_trump_lead_must_be_followed_with_trump():
    s = play(fives_by_bob(), 1, "5-6")
    assert G.legal(s)["moves"] == {"play": {"players": [2], "values": ["2-5"]}}
    bad(s, {"type": "play", "player": 2, "tile": "1-6"}, "Cy must follow trumps: play 2-5")
    bad(s, {"type": "play", "player": 0, "tile": "4-5"}, "it is Cy's turn to play, not Ann's")
    bad(s, {"type": "play", "player": 2, "tile": "6-5"}, "5-6 has already been played this hand")
    bad(s, {"type": "play", "player": 2, "tile": "5-5"}, "Cy does not hold 5-5")
    bad(s, {"type": "play", "player": 2, "tile": "0-3"}, "tile 0-3 is not in the Moon set")
    bad(s, {"type": "play", "player": 2}, "needs a 'tile' field")
    bad(s, {"type": "trick", "winner": 1}, "a trick is under way (1 of its 3 tiles played): enter the rest tile by tile")
    bad(s, {"type": "totals", "tricks": [0, 7, 0]}, "a trick is under way (1 of its 3 tiles played): enter the rest tile by tile")
    s = play(s, 2, "2-5")
    assert G.legal(s)["moves"]["play"]["values"] == ["4-5", "5-5"]
    s = play(s, 0, "4-5")
    # 5-6 ranks 6 in fives, above 4-5 and 2-5: Bob takes it and leads
    assert s["tricks"] == [0, 1, 0] and s["leader"] == 1 and s["trick"] == []
    assert [t for t in ("5-6", "2-5", "4-5", "6-6") if s["tiles"][G.dt.index(t)] == "p"] == ["5-6", "2-5", "4-5"]


def test_plain_lead_takes_its_higher_end_and_the_double_wins():
    s = fives_by_bob()
    for p, t in ((1, "5-6"), (2, "2-5"), (0, "4-5"), (1, "4-6")):
        s = play(s, p, t)
    # 4-6 is not a trump, so it leads sixes
    assert G.legal(s)["moves"]["play"]["values"] == ["1-6", "3-6"]
    s = play(s, 2, "1-6")
    assert G.legal(s)["moves"]["play"]["values"] == ["2-6", "6-6"]
    s = play(s, 0, "6-6")
    assert s["tricks"] == [1, 1, 0] and s["leader"] == 0
    # void in sixes (5-6 would be a trump anyway), Bob may play anything
    s = play(s, 0, "2-6")
    assert G.legal(s)["moves"]["play"]["values"] == ["2-2", "1-3", "1-4", "1-5", "3-5"]
    s = play(play(s, 1, "3-5"), 2, "3-6")
    assert s["tricks"] == [1, 2, 0] and s["leader"] == 1
