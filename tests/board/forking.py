"""Each board test in a fork of its runner, from a chip booted once.

Why: a boot of the emulated Pico to Home costs some 20 s of this
machine's CPU, and rp2040py has no way to save or copy a running chip.
A fork copies one: the runner boots a chip once (`chip(name)`, in the
runner's own process, before the first test that asks for it forks),
and each test that starts from it gets a copy as it was, in a child
process, whatever an earlier test did to its own copy. The child sends
its reports back, and pytest reports them as if the test ran here.

A test may leave data for later ones in `SHARED` (a dict of dicts, say
a flash image captured mid-round): the child sends it back with its
reports, and the runner merges it in before the next test forks.

pytest-xdist hands the tests to its workers a class at a time
(tests/board/run.py, --dist loadscope), so the tests that fork from one
chip, one class, run in one worker and that worker boots it once.
"""

import os
import pickle
import traceback

import pytest
from _pytest.runner import runtestprotocol

SHARED = {}
_CHIPS = {}  # name -> the chip booted in this process, for every fork to start from
_MAKERS = {}  # name -> fn() -> a chip at its starting point


def maker(name):
    """Register fn as the way to make the chip `name` (a decorator)."""
    def register(fn):
        _MAKERS[name] = fn
        return fn
    return register


def chip(name):
    """The chip `name`, made once in this process (the runner's, so that
    every fork finds it made)."""
    if name not in _CHIPS:
        _CHIPS[name] = _MAKERS[name]()
    return _CHIPS[name]


def take(name):
    """The chip `name`, no longer kept as that: for a maker that goes on
    from it (a later test that asks for `name` gets a new one made)."""
    found = chip(name)
    del _CHIPS[name]
    return found


def _warm(item):
    """Make, in the runner, the chips the test's `starts_from` mark names."""
    mark = item.get_closest_marker("starts_from")
    if mark is not None:
        for name in mark.args:
            chip(name)


def _in_child(item, w):
    """Run the test here (the child) and send its reports and SHARED."""
    try:
        reports = runtestprotocol(item, log=False, nextitem=None)
        data = [item.config.hook.pytest_report_to_serializable(config=item.config, report=r) for r in reports]
        payload = pickle.dumps(("ok", data, SHARED))
    except BaseException:  # noqa: BLE001  (the parent reports it)
        payload = pickle.dumps(("crash", traceback.format_exc(), {}))
    with os.fdopen(w, "wb") as out:
        out.write(payload)


def run_forked(item):
    """The test in a forked child: its reports, as pytest report objects."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        code = 0
        try:
            _in_child(item, w)
        except BaseException:  # noqa: BLE001
            code = 1
        os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        payload = f.read()
    _, status = os.waitpid(pid, 0)
    if not payload:
        raise RuntimeError("the test's process ended without a word (wait status %d)" % status)
    kind, data, shared = pickle.loads(payload)
    if kind == "crash":
        raise RuntimeError("the test's process failed outside the test:\n" + data)
    for key, value in shared.items():
        if isinstance(value, dict) and isinstance(SHARED.get(key), dict):
            SHARED[key].update(value)
        else:
            SHARED[key] = value
    return [item.config.hook.pytest_report_from_serializable(config=item.config, data=d) for d in data]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    try:
        _warm(item)
        reports = run_forked(item)
    except Exception:  # noqa: BLE001  (a chip that failed to start, a child that died): the test fails
        from _pytest.reports import TestReport

        reports = [TestReport(item.nodeid, item.location, {}, "failed", traceback.format_exc(), "call", [], 0.0)]
    for rep in reports:
        item.ihook.pytest_runtest_logreport(report=rep)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True
