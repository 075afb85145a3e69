"""Replays an example game from tests/data and reads the standings worked
out by hand for it (docs/games/<game>.md), for the rules tests of every
game that keeps example logs. Its name starts with _, so neither pytest
nor tests/upy_runner.py looks for tests in it."""

import json

from _support import data_path
from shared_rules.log import replay_file


def replay_example(stem):
    """(the Replay of tests/data/<stem>.jsonl, its <stem>.expected.json)."""
    rep = replay_file(data_path(stem + ".jsonl"))
    with open(data_path(stem + ".expected.json")) as f:
        want = json.load(f)
    return rep, want


def check_example(stem):
    """The replay ends at the expected scores, per-round scores and winner
    (by name; null when nobody has won), with only undo left to do.
    Returns the finished Match for any checks a game adds."""
    rep, want = replay_example(stem)
    m = rep.match
    assert m.state["scores"] == want["scores"], (stem, m.state["scores"])
    assert rep.rounds == want["rounds"], (stem, rep.rounds)
    w = m.winner()
    assert (None if w is None else m.header["players"][w]) == want["winner"], stem
    assert list(m.legal()["moves"]) == ["undo"], stem  # finished: only undo is left
    return m
