"""Power cuts: the simulated board's flash as a power cut at 200+ random
points of scripted games leaves it (the board stopped there and its flash
copied, powercut.cuts), each restarted, checking that it never crashes,
that the journal is a prefix of the clean run's (replayable), that no
event whose confirmation was drawn is lost, and that a running timer comes
back paused with the time it had. Restarts run two at a time (two cores)."""

import random
from multiprocessing import get_context

import powercut

KILLS = {"moonstar": 150, "stm": 60}


def test_power_cuts_at_random_points(tmp_path):
    rng = random.Random(2026)
    jobs = []
    for name, count in KILLS.items():
        total, events = powercut.reference(tmp_path, name)
        assert events, "the clean %s run journaled nothing" % name
        if name == "moonstar":
            kinds = [e["type"] for e in events]
            assert kinds == ["roll_for_setter", "setup", "bid", "bid", "time_up", "result", "setup", "bid", "undo"], kinds
        points = sorted(rng.sample(range(1, total), count))
        kept = set()
        for folder, k, confirmed in powercut.cuts(tmp_path, name, points):
            jobs.append((folder, name, k, confirmed, events))
            kept.add(len(powercut.journal(folder)[1]))
        assert len(kept) >= 4, "the %s cuts landed at too few points of the game: %s" % (name, sorted(kept))
    with get_context("fork").Pool(2) as pool:
        results = pool.map(powercut.trial, jobs, chunksize=4)
    problems = [p for r in results for p in r]
    assert len(jobs) >= 200
    assert not problems, "\n".join(problems[:10])
