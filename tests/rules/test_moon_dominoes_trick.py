"""Moon dominoes: whole tricks entered by winner or by their 3 tiles."""

from _moon_kit import G, bad


def ann_names(trump, deal=None):
    """Ann bids 4, the others pass, Ann names trump and leads."""
    s = G.new(["Ann", "Bob", "Cy"], {})
    if deal:
        s = G.apply(s, {"type": "deal", "seed": deal})
    for e in ({"type": "bid", "player": 0, "bid": 4}, {"type": "pass", "player": 1},
              {"type": "pass", "player": 2}, {"type": "trump", "player": 0, "trump": trump}):
        s = G.apply(s, e)
    return s


def test_trick_by_winner():
    s = ann_names(3)
    assert G.legal(s)["moves"]["trick"] == {"players": [0], "plays": 3, "values": [0, 1, 2]}
    s = G.apply(s, {"type": "trick", "winner": 2})
    assert s["tricks"] == [0, 0, 1] and s["leader"] == 2
    bad(s, {"type": "trick", "winner": 3}, "seat 3 does not exist: seats are 0-2 (Ann, Bob, Cy)")
    bad(s, {"type": "trick"}, "needs a 'winner' field")
    t = ann_names(3, 99)
    assert "values" not in G.legal(t)["moves"]["trick"]
    bad(t, {"type": "trick", "winner": 0}, "tiles are recorded: enter the trick's 3 tiles")


def test_trick_by_tiles_finds_the_winner():
    # published: sixes trump, 5-3 led: the suit is fives, 6-5 is only a trump
    s = G.apply(ann_names(6), {"type": "trick", "plays": ["5-3", "6-5", "5-5"]})
    assert s["tricks"] == [0, 1, 0] and s["leader"] == 1
    assert s["tiles"].count("p") == 3 and s["tiles"][G.dt.index("5-6")] == "p"
    # Bob leads 4-4; with fours trump it beats 2-4 and 4-6 (published)
    t = G.apply(ann_names(4), {"type": "trick", "winner": 1})
    t = G.apply(t, {"type": "trick", "plays": ["4-4", "2-4", "4-6"]})
    assert t["tricks"] == [0, 2, 0]
    t = G.apply(ann_names(4), {"type": "trick", "plays": ["2-4", "4-6", "4-4"]})
    assert t["tricks"] == [0, 0, 1]


def test_bad_tricks_are_refused():
    s = G.apply(ann_names(6), {"type": "trick", "plays": ["5-3", "6-5", "5-5"]})
    bad(s, {"type": "trick", "plays": ["1-1", "2-2"]}, "a trick needs 3 plays, in order from the leader, got 2")
    bad(s, {"type": "trick", "plays": ["1-1", "2-2", "3-3", "4-4"]}, "a trick needs 3 plays, in order from the leader, got 4")
    bad(s, {"type": "trick", "plays": "1-1"}, "a trick's plays are a list of its 3 tiles")
    bad(s, {"type": "trick", "plays": ["1-1", "2-2", "3-5"]}, "3-5 has already been played")
    bad(s, {"type": "trick", "plays": ["1-1", "2-2", "2-2"]}, "2-2 has already been played")
    bad(s, {"type": "trick", "plays": ["1-1", "2-2", "0-6"]}, "tile 0-6 is not in the Moon set")
    bad(s, {"type": "trick", "plays": ["1-1", "2-2", "6-6"], "winner": 1},
        "the tiles give that trick to Ann, not Bob")
    bad(s, {"type": "play", "player": 0, "tile": "1-1"}, "it is Bob's turn to play, not Ann's")
