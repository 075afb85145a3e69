"""Moon dominoes: recording the deal (seeded or given tiles)."""

from _moon_kit import G, P, bad, pas


def test_deal_is_optional_once_before_the_first_bid():
    s = G.new(P, {})
    assert G.legal(s)["moves"]["deal"] == {"optional": True}
    d = G.apply(s, {"type": "deal", "seed": 7})
    hands = [G.dt.hand(d, p) for p in range(3)]
    assert [len(h) for h in hands] == [7, 7, 7] and d["tiles"].count("s") == 1
    assert sorted(d["tiles"]) == sorted("0000000111111122222223".replace("3", "s"))
    assert G.apply(s, {"type": "deal", "seed": 7}) == d  # seeded: same deal again
    assert "deal" not in G.legal(d)["moves"]
    bad(d, {"type": "deal", "seed": 8}, "this hand's deal is already recorded")
    bad(G.apply(s, pas(0)), {"type": "deal", "seed": 8}, "a deal is recorded before the hand's first bid, and bidding has begun")
    bad(s, {"type": "deal", "seed": -1}, "a deal's seed must be a whole number from 0 to 4294967295, not -1")
    bad(s, {"type": "deal"}, "needs a 'hands' field")
    # an all-pass redeal forgets the old tiles
    for p in range(3):
        d = G.apply(d, pas(p))
    assert d["tiles"] == "." * 22 and "deal" in G.legal(d)["moves"]


def test_recorded_deal_is_checked():
    t = G.dt.all_tiles()
    s = G.new(P, {})
    d = G.apply(s, {"type": "deal", "hands": [t[14:21], t[7:14], t[0:7]]})
    assert d["tiles"][21] == "s" and G.dt.hand(d, 2) == t[0:7]
    d = G.apply(s, {"type": "deal", "hands": [t[0:7], t[7:14], t[14:21]], "spare": "6-6"})
    bad(s, {"type": "deal", "hands": [t[0:7], t[7:14]]}, "a deal needs 3 hands of 7 tiles, one per seat")
    bad(s, {"type": "deal", "hands": [t[0:7], t[7:13], t[14:21]]}, "a deal needs 3 hands of 7 tiles, one per seat")
    bad(s, {"type": "deal", "hands": [t[0:7], t[6:13], t[14:21]]}, "tile 3-3 is dealt twice: the set has one of each tile")
    bad(s, {"type": "deal", "hands": [t[0:7], t[7:14], t[14:20] + ["0-4"]]}, "tile 0-4 is not in the Moon set (0-1 to 0-6 are taken out")
    bad(s, {"type": "deal", "hands": [t[0:7], t[7:14], t[14:21]], "spare": "0-0"}, "the spare must be 6-6, the one tile in no hand, not 0-0")
