"""Replays every tests/data/moonstar-*.jsonl game and compares it with the
standings worked out by hand in its .expected.json (derivations in
docs/games/moonstar.md). Uses Match directly: shared_rules.log and its
wire codec do not fit beside the rules in the 72K MicroPython heap when
compiled from source; tests/host/test_replay_cli.py replays the same
files through `moontable replay`. Match's 32-state undo stack does not
fit either, so this keeps the last few states for the logs' undos.
The kit's M sheds the on-demand rules modules after each event under
MicroPython, as the device does, so the solver fits when a result meets a
known set-up.
"""

import json
import os

from _support import data_path
from test_moonstar__kit import M


def replay(path):
    """(header, final state, scores after each round)."""
    header = state = None
    back = []
    rounds = []
    with open(path) as f:
        for line in f:
            obj = json.loads(line)
            if header is None:
                header = obj
                state = M.new(obj["players"], obj["options"])
            elif obj["type"] == "undo":
                state = back.pop()
            else:
                back = back[-3:] + [state]
                state = M.apply(state, obj)
            while len(rounds) < state["round"]:
                rounds.append(list(state["scores"]))
    return header, state, rounds


def check(names):
    folder = data_path("")
    for name in names:
        header, state, rounds = replay(folder + name)
        with open(folder + name[:-6] + ".expected.json") as f:
            want = json.load(f)
        w = M.winner(state)
        assert header["game"] == "moonstar" and state["scores"] == want["scores"], name
        assert (None if w is None else header["players"][w]) == want["winner"], name
        assert rounds == want["rounds"], name
        header = state = rounds = None


def example_names(squares_and_chains):
    """The example logs; Games 7 and 8 (whose best possible the squares
    and chains half of the solver works out) apart: each half runs in a
    file of its own, so in its own 72K MicroPython heap."""
    names = sorted([n for n in os.listdir(data_path("")) if n.startswith("moonstar-") and n.endswith(".jsonl")])
    assert len(names) >= 9
    return [n for n in names if (n in ("moonstar-squares.jsonl", "moonstar-chains.jsonl")) == squares_and_chains]


# Two halves, each in its own MicroPython heap (the runner starts a child
# interpreter per test): seven games' solves in one 72K heap fragmented it
# past use when the rules were loaded from a long folder path.
def test_example_games_match_the_hand_worked_results():
    check(example_names(False)[:4])


def test_example_games_match_the_hand_worked_results_second_half():
    names = example_names(False)
    assert len(names) > 4
    check(names[4:])
