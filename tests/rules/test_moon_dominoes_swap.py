"""Moon dominoes: the bidder's swap with the spare and naming trump."""

from _moon_kit import DEAL, G, P, bad


def won_by_bob(deal):
    """Ann 4, Bob 5, Cy passes: Bob names trump, with or without a deal."""
    s = G.new(P, {})
    if deal:
        s = G.apply(s, {"type": "deal", "hands": DEAL})
    for e in ({"type": "bid", "player": 0, "bid": 4}, {"type": "bid", "player": 1, "bid": 5},
              {"type": "pass", "player": 2}):
        s = G.apply(s, e)
    return s


def test_bidder_swaps_one_tile_with_the_spare():
    s = won_by_bob(True)
    assert s["phase"] == "trump" and s["tiles"][G.dt.index("1-4")] == "s"
    assert G.legal(s)["moves"]["swap"] == {"players": [1], "optional": True, "values": [t for t in G.dt.all_tiles() if t in DEAL[1]]}
    bad(s, {"type": "swap", "player": 0, "tile": "2-6"}, "it is Bob's turn to swap with the spare, not Ann's")
    bad(s, {"type": "swap", "player": 1, "tile": "6-6"}, "Bob does not hold 6-6, so cannot give it for the spare")
    bad(s, {"type": "swap", "player": 1, "tile": "0-3"}, "tile 0-3 is not in the Moon set")
    bad(s, {"type": "swap", "player": 1}, "needs a 'tile' field")
    s = G.apply(s, {"type": "swap", "player": 1, "tile": "0-0"})
    assert s["tiles"][0] == "s" and "1-4" in G.dt.hand(s, 1) and "0-0" not in G.dt.hand(s, 1)
    assert "swap" not in G.legal(s)["moves"]
    bad(s, {"type": "swap", "player": 1, "tile": "1-4"}, "Bob has already swapped a tile with the spare this hand; only one swap is allowed")


def test_swap_without_a_recorded_deal_is_only_noted():
    s = won_by_bob(False)
    assert G.legal(s)["moves"]["swap"] == {"players": [1], "optional": True}
    bad(s, {"type": "swap", "player": 1, "tile": "7-1"}, "tile 7-1 does not exist: the ends of a double-six set run from 0 to 6")
    t = G.apply(s, {"type": "swap", "player": 1})
    assert t["swapped"] and t["tiles"] == "." * 22
    assert G.apply(s, {"type": "swap", "player": 1, "tile": "2-6"})["swapped"]


def test_bidder_names_trump_and_leads():
    s = won_by_bob(False)
    spec = G.legal(s)["moves"]["trump"]
    assert spec == {"players": [1], "values": [0, 1, 2, 3, 4, 5, 6, "doubles", "follow-me"]}
    bad(s, {"type": "trump", "player": 2, "trump": 3}, "it is Bob's turn to name trump, not Cy's")
    for v in (7, "sixes", True, None):
        bad(s, {"type": "trump", "player": 1, "trump": v}, "trump must be")
    for v in spec["values"]:
        t = G.apply(s, {"type": "trump", "player": 1, "trump": v})
        assert t["phase"] == "play" and t["trump"] == v and t["leader"] == 1
        assert G.legal(t)["moves"]["play"]["players"] == [1]
    bad(t, {"type": "swap", "player": 1}, "cannot swap with the spare now: the hand is being played")
