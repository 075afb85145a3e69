"""The example Shoot the Moon games in tests/data replay through the log
reader to the standings worked out by hand in docs/games/shoot-the-moon.md."""

import json

from _support import data_path
from shared_rules import get_game

# The game's modules compile first, while the heap is emptiest; the log
# reader's smaller modules fit in what is left.
get_game("shoot-the-moon")
import shared_rules.stm_tricks  # noqa: E402,F401
from shared_rules.log import replay_file  # noqa: E402

GAMES = ("individual", "two-players", "pairs", "three-pairs", "two-threes")


def check(name):
    rep = replay_file(data_path(name + ".jsonl"))
    with open(data_path(name + ".expected.json")) as f:
        want = json.load(f)
    m = rep.match
    assert m.state["scores"] == want["scores"], (name, m.state["scores"])
    assert rep.rounds == want["rounds"], (name, rep.rounds)
    w = m.winner()
    assert (None if w is None else m.header["players"][w]) == want["winner"], name
    assert list(m.legal()["moves"]) == ["undo"], name  # finished: only undo is left


def test_example_games_replay_to_the_hand_worked_standings():
    for g in GAMES:
        check("shoot-the-moon-" + g)
