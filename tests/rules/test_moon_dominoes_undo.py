"""Moon dominoes under shared_rules.match.Match: undo steps back exactly,
and a refused event changes nothing. Under MicroPython the undo stack is
cut to 5 states: a full stack of Moon states does not fit the 72K test
heap beside the rules (see test_moon_dominoes_logs.py); CPython runs at
the full depth."""

import sys

from _support import raises
from _moon_kit import G
from shared_rules import match
from shared_rules.match import Match
from shared_rules.util import clone

if sys.implementation.name == "micropython":
    match.UNDO_DEPTH = 5


def test_undo_restores_each_previous_state_exactly():
    m = Match("moon", ["Ann", "Bob", "Cy"], {"target": 30})
    for e in ({"type": "deal", "seed": 11}, {"type": "bid", "player": 0, "bid": 5},
              {"type": "pass", "player": 1}, {"type": "pass", "player": 2}):
        m.apply(e)
    m.apply({"type": "swap", "player": 0, "tile": G.dt.hand(m.state, 0)[0]})
    m.apply({"type": "trump", "player": 0, "trump": "doubles"})
    seen = [clone(m.state)]
    while G.legal(m.state)["phase"] == "play" and m.state["round"] == 0:
        spec = m.legal()["moves"]["play"]
        m.apply({"type": "play", "player": spec["players"][0], "tile": spec["values"][0]})
        seen = seen[-3:] + [clone(m.state)]
    assert m.state["round"] == 1 and m.state["scores"] != [0, 0, 0] and len(seen) == 4
    for back in range(2, -1, -1):
        m.apply({"type": "undo"})
        assert m.state == seen[back]
    assert "undo" in m.legal()["moves"]


def test_refused_event_leaves_the_match_unchanged():
    m = Match("moon", ["Ann", "Bob", "Cy"])
    m.apply({"type": "bid", "player": 0, "bid": 4})
    before = clone(m.state)
    raises(m.apply, {"type": "bid", "player": 0, "bid": 5}, match="Ann has already bid 4")
    raises(m.apply, {"type": "bid", "player": 1, "bid": 4}, match="higher than the standing bid 4")
    assert m.state == before and m.count == 1
    m.apply({"type": "undo"})
    assert m.state == G.new(["Ann", "Bob", "Cy"], {})
