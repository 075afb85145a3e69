"""Moon dominoes: the example games in tests/data replayed through
shared_rules.log must end as worked out by hand in docs/games/moon.md.
Loaded by test_moon_dominoes_logs.py (see test_moon_dominoes_load.py).

Under MicroPython the undo stack is cut to 4 states for these replays: 32
Moon states (about 650 bytes each there) do not fit the 64K test heap
beside the rules, the log reader and the wire codec. The logs undo at most
one step, so the outcome is the same; CPython replays at the full depth."""

import json
import sys

from _support import data_path
from shared_rules import match
from shared_rules.log import replay_file

if sys.implementation.name == "micropython":
    match.UNDO_DEPTH = 4

G = None  # the rules module, set by the loader


def check(name):
    r = replay_file(data_path("moon-%s.jsonl" % name))
    with open(data_path("moon-%s.expected.json" % name)) as f:
        want = json.load(f)
    assert r.match.winner() == want["winner"], (name, r.match.winner())
    assert r.match.standings() == want["standings"], (name, r.match.standings())
    assert r.rounds == want["rounds"], (name, r.rounds)
    assert r.match.state["over"] and G.legal(r.match.state)["moves"] == {}


def case_per_trick_entry_with_tiles_and_winners():
    check("per-trick")


def case_per_hand_totals():
    check("totals")


def case_a_made_moon():
    check("moon21")


def case_all_pass_redeals():
    check("allpass")


def case_bidder_goes_out_after_a_tie_plays_on():
    check("bidder-out")
