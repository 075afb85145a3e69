"""Moon dominoes: the example games in tests/data replayed through
shared_rules.log must end as worked out by hand in docs/games/moon.md.

Under MicroPython the undo stack is cut to 4 states for these replays: a
full stack of Moon states (about 650 bytes each there) does not fit the
72K test heap beside the rules, the log reader and the wire codec. The
logs undo at most one step, so the outcome is the same; CPython replays at
the full depth."""

import sys

from _moon_kit import G
from _replay_kit import replay_example
from shared_rules import match

if sys.implementation.name == "micropython":
    match.UNDO_DEPTH = 4


def check(name):
    r, want = replay_example("moon-" + name)
    assert r.match.winner() == want["winner"], (name, r.match.winner())
    assert r.match.standings() == want["standings"], (name, r.match.standings())
    assert r.rounds == want["rounds"], (name, r.rounds)
    assert r.match.state["over"] and G.legal(r.match.state)["moves"] == {}


def test_per_trick_entry_with_tiles_and_winners():
    check("per-trick")


def test_per_hand_totals():
    check("totals")


def test_a_made_moon():
    check("moon21")


def test_all_pass_redeals():
    check("allpass")


def test_bidder_goes_out_after_a_tie_plays_on():
    check("bidder-out")
