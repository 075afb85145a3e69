"""Power cuts: SIGKILL the simulated board at 200+ random points of
scripted games, restart it, and check that it never crashes, that the
journal is a prefix of the clean run's (replayable), that no event whose
confirmation was drawn is lost, and that a running timer comes back
paused with the time it had. Trials run two at a time (two cores)."""

import random
from multiprocessing import get_context

import powercut

KILLS = {"moonstar": 150, "stm": 60}


def test_power_cuts_at_random_points(tmp_path):
    rng = random.Random(2026)
    jobs = []
    for name, count in KILLS.items():
        total, marks, events = powercut.reference(tmp_path, name)
        assert events, "the clean %s run journaled nothing" % name
        if name == "moonstar":
            kinds = [e["type"] for e in events]
            assert kinds == ["roll_for_setter", "setup", "bid", "bid", "time_up", "result", "setup", "bid", "undo"], kinds
        points = sorted(rng.sample(range(1, total), count))
        for n, k in enumerate(points):
            jobs.append((str(tmp_path), name, k, events, n))
    powercut.template(tmp_path)
    with get_context("fork").Pool(2) as pool:
        results = pool.map(powercut.trial, jobs, chunksize=4)
    problems = [p for r in results for p in r]
    assert len(jobs) >= 200
    assert not problems, "\n".join(problems[:10])
