"""Each board test in a fork of its runner, from a chip booted once.

Why: a boot of the emulated Pico to Home costs some 20 s of this
machine's CPU, and rp2040py has no way to save or copy a running chip.
A fork copies one: the runner boots a chip once (`chip(name)`, in the
runner's own process, before the first test that asks for it forks),
and each test that starts from it gets a copy as it was, in a child
process, whatever an earlier test did to its own copy. The child sends
its reports back, and pytest reports them as if the test ran here.

pytest-xdist hands the tests to its workers a class at a time
(tests/board/run.py, --dist loadscope), so the tests that fork from one
chip, one class, run in one worker and that worker boots it once.

What one class's chip leaves for a test of another class goes across
workers (`hand_over`, `handed`): the test boots its own chip from it,
so the two chips run at once, each in its worker, rather than one after
the other in the same worker.
"""

import os
import pickle
import traceback
from pathlib import Path

import pytest
from _pytest.runner import runtestprotocol

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


HANDOFF = "MOONTABLE_BOARD_HANDOFF"  # the folder (set by run.py) where workers hand data over
HANDOFF_WAIT_S = 1800  # a guard against a hang (the maker's worker died), not a measure
_HANDED = {}  # name -> what this process made or was handed


def hand_over(name, value):
    """Give `value` (picklable; None: making it failed) to the tests that
    wait for `name` in other workers (`handed`), and to this process's."""
    _HANDED[name] = value
    folder = os.environ.get(HANDOFF)
    if folder:
        path = Path(folder) / (name + ".pickle")
        part = path.with_suffix(".part")
        part.write_bytes(pickle.dumps(value))
        part.rename(path)  # whole or not at all for the reader


def handed(name, session, chip_name):
    """What the maker of the chip `chip_name` hands over as `name`: made
    here already, or (with run.py's folder) waited for while another
    worker makes it, when a test of this session starts from that chip;
    else made here (chip(chip_name))."""
    if name not in _HANDED:
        folder = os.environ.get(HANDOFF)
        makers = [i for i in session.items if chip_name in getattr(i.get_closest_marker("starts_from"), "args", ())]
        if folder and makers:
            from simtools import wait_for

            path = Path(folder) / (name + ".pickle")
            if not wait_for(path.exists, HANDOFF_WAIT_S):
                raise TimeoutError("%s never came from %s" % (name, makers[0].nodeid))
            _HANDED[name] = pickle.loads(path.read_bytes())
        else:
            chip(chip_name)
    if _HANDED[name] is None:
        raise RuntimeError("the chip %r, which hands over %s, failed to start: its own test says why"
                           % (chip_name, name))
    return _HANDED[name]


GIVE_WAY_NICE = 3  # the niceness of a worker whose class is marked `gives_way`


def _nice(item):
    """The longest chain of chips is TestProbed's Moonstar game up to the
    bidding minute, then the reset test's chip booted from its flash.
    Every other class is marked `gives_way`: its worker runs at a higher
    niceness, so that on two cores shared with pytest the chain gets more
    of the tier's share, and the tier's last test ends with the rest of
    `make test` rather than alone after it (when the workers shared alike,
    the reset test ended 27 s after pytest, alone on one core)."""
    if item.get_closest_marker("gives_way") is not None and os.nice(0) < GIVE_WAY_NICE:
        os.nice(GIVE_WAY_NICE - os.nice(0))


def _warm(item):
    """Make, in the runner, the chips the test's `starts_from` mark names."""
    mark = item.get_closest_marker("starts_from")
    if mark is not None:
        for name in mark.args:
            chip(name)


def _in_child(item, w):
    """Run the test here (the child) and send its reports."""
    try:
        reports = runtestprotocol(item, log=False, nextitem=None)
        data = [item.config.hook.pytest_report_to_serializable(config=item.config, report=r) for r in reports]
        payload = pickle.dumps(("ok", data))
    except BaseException:  # noqa: BLE001  (the parent reports it)
        payload = pickle.dumps(("crash", traceback.format_exc()))
    with os.fdopen(w, "wb") as out:
        out.write(payload)


def start_forked(item):
    """Start the test in a forked child: (its pid, the pipe its reports
    come on) for `reports`."""
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
    return pid, r


def reports(item, pid, r):
    """The forked test's reports, as pytest report objects, once it ended."""
    with os.fdopen(r, "rb") as f:
        payload = f.read()
    _, status = os.waitpid(pid, 0)
    if not payload:
        raise RuntimeError("the test's process ended without a word (wait status %d)" % status)
    kind, data = pickle.loads(payload)
    if kind == "crash":
        raise RuntimeError("the test's process failed outside the test:\n" + data)
    return [item.config.hook.pytest_report_from_serializable(config=item.config, data=d) for d in data]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    try:
        _nice(item)
        _warm(item)
        child = start_forked(item)
        if nextitem is not None:
            # The next test's chip is made while this test runs in its
            # child, which has its own copy of the chips: a class's chips
            # are made one after another, and each waited for the test
            # before it. Should making it fail, the next test makes it
            # again, and fails saying why.
            try:
                _warm(nextitem)
            except Exception:  # noqa: BLE001
                pass
        got = reports(item, *child)
    except Exception:  # noqa: BLE001  (a chip that failed to start, a child that died): the test fails
        from _pytest.reports import TestReport

        got = [TestReport(item.nodeid, item.location, {}, "failed", traceback.format_exc(), "call", [], 0.0)]
    for rep in got:
        item.ihook.pytest_runtest_logreport(report=rep)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True
