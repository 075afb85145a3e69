"""The example Moons games in tests/data replay through the log reader
to the standings worked out by hand in docs/games/moons.md."""

import json

from _support import data_path
from shared_rules import get_game

# The game's modules compile first, while the heap is emptiest; the log
# reader's smaller modules fit in what is left.
get_game("moons")
import shared_rules.moons_tricks  # noqa: E402,F401
from shared_rules.log import replay_file  # noqa: E402


def check(name):
    rep = replay_file(data_path(name + ".jsonl"))
    with open(data_path(name + ".expected.json")) as f:
        want = json.load(f)
    m = rep.match
    assert m.state["scores"] == want["scores"], (name, m.state["scores"])
    assert rep.rounds == want["rounds"], (name, rep.rounds)
    assert m.header["players"][m.winner()] == want["winner"], name
    assert m.state["over"] and list(m.legal()["moves"]) == ["undo"], name


def test_default_scoring_game():
    check("moons-default")


def test_custom_table_game_ends_when_the_supply_runs_out():
    check("moons-custom-table")

