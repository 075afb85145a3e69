"""Replays every tests/data/moonstar-*.jsonl game and compares it with the
standings worked out by hand in its .expected.json (derivations in
docs/games/moonstar.md). Uses Match directly: shared_rules.log and its
wire codec do not fit beside the rules in the 64K MicroPython heap when
compiled from source; tests/host/test_replay_cli.py replays the same
files through `moontable replay`. Match's 32-state undo stack does not
fit either, so this keeps the last few states for the logs' undos.
"""

# The rules modules first, biggest first (see test_moonstar__kit).
import shared_rules.moonstar_board  # noqa: F401
import shared_rules.moonstar  # noqa: F401
import shared_rules.moonstar_setup  # noqa: F401
import shared_rules.moonstar_result  # noqa: F401
import shared_rules.moonstar_bid  # noqa: F401
import json
import os

from _support import data_path
from shared_rules import moonstar as M


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


def test_example_games_match_the_hand_worked_results():
    folder = data_path("")
    names = sorted([n for n in os.listdir(folder) if n.startswith("moonstar-") and n.endswith(".jsonl")])
    assert len(names) >= 9
    for name in names:
        header, state, rounds = replay(folder + name)
        with open(folder + name[:-6] + ".expected.json") as f:
            want = json.load(f)
        w = M.winner(state)
        assert header["game"] == "moonstar" and state["scores"] == want["scores"], name
        assert (None if w is None else header["players"][w]) == want["winner"], name
        assert rounds == want["rounds"], name
        header = state = rounds = None
