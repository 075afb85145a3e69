"""The device's own plan as the proof that accepts a result (moonstar.begin's
`plan`): the points entry has usually solved the set-up before its OK, so
the check needs no search when the rules find that plan legal and reaching
the points; a hint that proves nothing leaves the check to the search, and
never lets points above the best through. Runs under pytest and
MicroPython."""

import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import SIT, UP, M, bid, plan, pts, run, start
from shared_rules import RuleError


def test_a_plan_the_device_has_accepts_the_points_without_a_search():
    # the device's solver answer for the set-up, passed to begin(): a legal
    # plan reaching the points is the proof, so the check needs no search,
    # and the state is apply()'s
    from shared_rules.moonstar.plan import reaches

    s = run(start(3), SIT, bid(1, 30), UP)
    hint = {"plan": plan(), "favorite": None}  # scores 65, the best
    for n in (65, 40):
        assert reaches(s, hint, n)
        job = M.begin(s, pts(n), hint)
        assert job.check is None  # decided in begin(): no solver was built
        got = job.step(0)
        assert got is not None and got["last"] == M.apply(s, pts(n))["last"]


def test_a_hint_that_proves_nothing_leaves_the_check_to_the_search():
    from shared_rules.moonstar.plan import reaches

    s = run(start(3), SIT, bid(1, 30), UP)
    short = plan([0, 0, 6, 6, 6, 9, 10])  # the last moon lands on no planet: 56
    wrong = [{"moon": 0, "die": 0, "to": 5}]  # die 0 (a 1) cannot take moon 0 (star 1) to star 5
    want = M.apply(s, pts(65))["last"]
    for hint in ({"plan": short, "favorite": None}, {"plan": wrong}, {"plan": "garbage"}, {"favorite": 99}, []):
        assert not reaches(s, hint, 65)
        job = M.begin(s, pts(65), hint)
        r = job.step(1 << 20)
        job = None  # one solver at a time (MicroPython's 72K heap)
        assert r is not None and r["last"] == want


def test_no_hint_lets_points_above_the_best_through():
    s = run(start(3), SIT, bid(1, 30), UP)
    job = M.begin(s, pts(66), {"plan": plan(), "favorite": None})
    try:
        while job.step(8) is None:
            pass
    except RuleError as e:
        assert "66 is more than this set-up allows (best possible 65)" in str(e), str(e)
    else:
        raise AssertionError("best + 1 accepted with a hint")
