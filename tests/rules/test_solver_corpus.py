"""The solver on the hardest set-ups bench/solver.py --adversarial has found
(bench/solver_corpus.jsonl, one per class of set-up): each solve gives the
corpus's stored optimum with a legal, complete plan scoring it, the rules'
result check refuses the optimum + 1 (naming it) and accepts the optimum,
and the work stays within a fixed number of solver units (docs/solver.md:
search nodes, matchings and assignment rows, the same on every machine),
so a slower solver fails here rather than freezing a board. Runs under
pytest and MicroPython (the board's 72K heap)."""

import gc
import json

from shared_rules import RuleError
from _support import data_path

# Each test imports the rules' modules it uses itself: under MicroPython's
# 72K the runner lets a test's modules go after it (tests/upy_child.py), so
# the solves do not carry the result check's code, nor the check the plan's.

# The most units one solve of any corpus set-up may take: the worst the
# hill-climbs have found takes 1,707 (chains, 12 moons, 11 dice; some
# 35 ms of CPU time under CPython on the loaded 2-core development
# machine; bench/solver.py --adversarial prints the times), which a
# board's result check spreads over its loop passes.
UNIT_CAP = 2000


def corpus():
    with open(data_path("../../bench/solver_corpus.jsonl")) as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def check(points, sit):
    from shared_rules.moonstar.result import PointsCheck

    c = PointsCheck(sit, points)
    while c.step(16) is None:
        pass
    return c.best


def test_every_class_has_a_corpus_set_up():
    names = [e["class"] for e in corpus()]
    for scoring in ("planets", "squares", "chains"):
        assert [n for n in names if n.startswith(scoring)], names
    assert len(names) >= 8, names


def test_the_corpus_optima_and_the_work_they_take():
    from shared_rules.moonstar.solver import Solver
    from shared_rules.moonstar.plan import plan_score

    for e in corpus():
        sit = e["sit"]
        gc.collect()
        s = Solver(sit)
        r = None
        while r is None:
            r = s.step(64)
        assert r["best"] == e["best"], (e["class"], r["best"], e["best"])
        assert s.units <= UNIT_CAP, (e["class"], s.units)
        assert plan_score(sit, r["plan"], r["favorite"]) == e["best"], e["class"]
        # the work does not depend on the slices it is done in, and no
        # slice does more than its budget (what a board's pass relies on)
        units = s.units
        s = Solver(sit)
        while s.step(1 << 20) is None:
            pass
        assert s.units == units, (e["class"], s.units, units)
        s = Solver(sit)
        before = 0
        while s.step(1) is None:
            assert s.units - before <= 1, (e["class"], before, s.units)
            before = s.units
        assert s.units == units, (e["class"], s.units, units)
        s = r = None


def test_the_result_check_on_the_corpus():
    for e in corpus():
        sit = e["sit"]
        gc.collect()
        got = check(e["best"], sit)
        assert got is None or got == e["best"], (e["class"], got)
        try:
            check(e["best"] + 1, sit)
        except RuleError as err:
            assert ("best possible %d" % e["best"]) in str(err), str(err)
        else:
            raise AssertionError("%s: %d accepted" % (e["class"], e["best"] + 1))
