"""What a long loop pass does on the stock Pico firmware (emulated RP2040,
tests/board/harness.py): a probe (as /boot.py) wraps the board's idle()
and, for every pass over LONG_MS of emulated time, prints how long it took
and which modules came into sys.modules and left it during it; the same
for the imports the probe counts (a wrapped __import__ that times each
load of a module not yet in sys.modules), and the time spent in the
methods TIMED names (the pass's drawing, its event, the journal's write).

    .venv/bin/python bench/long_passes.py [moonstar-round|shoot-the-moon-hand|moonstar-game7-round] [--pace MS]

The scripts press as fast as the loop settles; `--pace 1500` leaves a
player's second and a half after each press, in which a device loads the
next event's code ahead (Session.fetch_ahead).
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests" / "sim"), str(ROOT / "tests" / "board")]

import board as bench_board  # noqa: E402
import harness  # noqa: E402

LONG_MS = 30
# methods whose time within a long pass is printed (inclusive of what they
# call): module.Class.method, as the built firmware names them
TIMED = ("app.App.draw", "app.App.serial", "session.Session.submit", "session.Session.after_change",
         "store.journal.Journal.append", "loader.Moment.__exit__")

PROBE = """\
import boards, sys, time, builtins
us = time.ticks_us
d = time.ticks_diff
_imp = builtins.__import__
loads = []
def imp(name, *a):
    if name in sys.modules:
        return _imp(name, *a)
    t = us()
    n = len(sys.modules)
    try:
        return _imp(name, *a)
    finally:
        loads.append((name, d(us(), t), len(sys.modules) - n))
        if name in sys.modules:
            wrap(name)
builtins.__import__ = imp
spent = {}
TIMED = %r
def timed(key, fn):
    def w(*a, **k):
        t = us()
        try:
            return fn(*a, **k)
        finally:
            spent[key] = spent.get(key, 0) + d(us(), t)
    return w
def wrap(name):
    for spec in TIMED:
        mod, cls, meth = spec.rsplit(".", 2)
        if mod == name and mod in sys.modules:
            c = getattr(sys.modules[mod], cls, None)
            if c is not None and meth in c.__dict__:
                setattr(c, meth, timed(cls + "." + meth, c.__dict__[meth]))
_setup = boards.setup
def setup(cfg=None):
    b = _setup(cfg)
    idle = b.idle
    st = [us(), set(sys.modules)]
    def probe_idle(ms):
        t = d(us(), st[0])
        if t > %d000:
            now = set(sys.modules)
            print("PASS %%d new=%%s gone=%%s" %% (t // 1000, sorted(now - st[1]), sorted(st[1] - now)))
            print("LOADS", [(n, t // 1000, k) for n, t, k in loads])
            print("TIMES", sorted((k, v // 1000) for k, v in spent.items()))
        loads.clear()
        spent.clear()
        idle(ms)
        st[0] = us()
        st[1] = set(sys.modules)
    b.idle = probe_idle
    return b
boards.setup = setup
""" % (TIMED, LONG_MS)


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("session", nargs="?", default="moonstar-game7-round", choices=sorted(bench_board.SESSIONS))
    ap.add_argument("--pace", type=int, default=0, metavar="MS",
                    help="ms of emulated time after each press before the next (a player's pace; "
                         "the scripts' own is 100 ms and a settled loop)")
    args = ap.parse_args(argv)
    name = args.session
    files = harness.flash_files()
    files["boot.py"] = PROBE.encode()
    p = harness.Pico(harness.build_image(files))
    if args.pace:
        tap = p.press

        def press(key, hold=80, after=100):
            tap(key, hold, max(after, args.pace))

        p.press = press
    p.wait_panel(lambda t: "New game" in t, 5000)
    p.settle()
    bench_board.SESSIONS[name](p)
    if name == "moonstar-game7-round":
        p.press("ok")
        p.wait_panel(lambda t: re.search(r"best possible:? *\d+", t), 20000)
        p.run(300)
        p.settle()
    print(p.serial_text())
    p.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
