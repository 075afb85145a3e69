"""What the rules' best-possible check costs a result (issue #11): applying
a Moonstar result to a known set-up solves it (shared_rules.moonstar.solver) to
refuse points above the best. This times that apply, under CPython and
under the real MicroPython (unix port, rules compiled to .mpy as on the
board), against the same apply with the set-up unknown (no solve), for the
basic game and the worst variants: squares (Game 7) and chains (Game 8),
alone and with Game 3's 15 moons and 11 dice and Game 9's extra moves.

    .venv/bin/python bench/rules_best.py [--count 200] [--heap 190K] [--no-upy]

Each set-up is a seeded one (the rules' own `setup` with a seed), the bid
20, the result 0 points. Per class: median, p99 and worst time of the
result's apply in ms, the worst solver units, and the same apply with the
set-up unknown. The board is some 50x slower than the unix port (see
docs/solver.md): multiply the MicroPython column for a Pico.
"""

import json
import os
import sys

try:
    import time

    _now = time.perf_counter
    _ms = 1000.0
except AttributeError:  # MicroPython's time has no perf_counter
    _now = None

MICRO = sys.implementation.name == "micropython"

CLASSES = (
    ("basic 7m 7d", {"game": 1}),
    ("squares 7m 7d (Game 7)", {"game": 7}),
    ("chains 7m 7d (Game 8)", {"game": 8}),
    ("squares 15m 11d more moves (3+7+9)", {"game": [3, 7, 9], "moons": 15, "dice": 11}),
    ("chains 15m 11d more moves (3+8+9)", {"game": [3, 8, 9], "moons": 15, "dice": 11}),
)


def _clock():
    if MICRO:
        import time as t

        return t.ticks_us, lambda a, b: t.ticks_diff(b, a) / 1000.0
    return _now, lambda a, b: (b - a) * _ms


def measure(options, count):
    """([ms per result apply, set-up known], [solver units], [ms, set-up
    unknown]). Units are counted on a second solve of the same set-up,
    outside the timing, on CPython only (the same code counts the same
    units on both; the rules drop the solver after each result under
    MicroPython, and a second copy held here would only cost heap)."""
    from shared_rules import moonstar as M

    tick, diff = _clock()
    # Lists made whole first: growing them between solver loads would
    # fragment the heap the way the board's never is (it keeps no lists).
    known = [0.0] * count
    plain = [0.0] * count
    most = []
    for seed in range(count):
        s = M.new(["Ann", "Bob"], options)
        s = M.apply(s, {"type": "choose_setter", "player": 0})
        for sit, out in ((True, known), (False, plain)):
            t = M.apply(s, {"type": "setup", "seed": seed + 1} if sit else {"type": "setup"})
            t = M.apply(t, {"type": "bid", "player": 1, "amount": 20})
            t = M.apply(t, {"type": "time_up"})  # the bidding minute: now playing
            a = tick()
            M.apply(t, {"type": "result", "points": 0})
            out[seed] = diff(a, tick())
            if sit and not MICRO:  # units are the same on both: counted once, on CPython
                from shared_rules.moonstar.solver import Solver

                solver = Solver(t["sit"], True)
                while solver.step(1 << 20) is None:
                    pass
                most.append(solver.units)
                solver = None
    return known, most, plain


def _pct(values, p):
    """The p-quantile of values, which must be sorted (in place: no copy)."""
    return values[min(len(values) - 1, int(p * len(values)))]


def child(count):
    for name, options in CLASSES:
        known, most, plain = measure(options, count)
        # Figures only: a long line of raw times is a big allocation, and
        # the heap is fragmented after hundreds of solver loads.
        known.sort()
        plain.sort()
        print(json.dumps({"name": name, "known": [_pct(known, 0.5), _pct(known, 0.99), known[-1]],
                          "plain": [_pct(plain, 0.5)]}))
        known = plain = None
        import gc

        gc.collect()


def main():
    import argparse
    import subprocess
    import tempfile

    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    sys.path.insert(0, root)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--heap", default="190K", help="MicroPython heap (the board has ~190 KB)")
    ap.add_argument("--no-upy", action="store_true")
    args = ap.parse_args()
    rows = {}
    for name, options in CLASSES:
        rows[name] = {"py": measure(options, args.count)}
    if not args.no_upy:
        sys.path.insert(0, os.path.join(root, "tests"))
        from upy_build import build

        exe = os.path.join(os.path.dirname(sys.executable), "micropython")
        with tempfile.TemporaryDirectory() as lib:
            build(lib)
            proc = subprocess.run([exe, "-X", "heapsize=" + args.heap, os.path.abspath(__file__), "--child",
                                   str(args.count), lib], capture_output=True, text=True, timeout=3600)
            if proc.returncode:
                sys.exit("micropython failed:\n" + proc.stdout + proc.stderr)
            for line in proc.stdout.splitlines():
                r = json.loads(line)
                rows[r["name"]]["upy"] = r
    print("result apply, ms (%d seeded set-ups per class; bid 20, result 0 points)" % args.count)
    head = "%-36s %6s | %-28s | %-28s" % ("class", "units", "CPython known: med p99 max", "MicroPython known: med p99 max")
    print(head)
    print("-" * len(head))
    for name, _ in CLASSES:
        py = rows[name]["py"]
        upy = rows[name].get("upy")
        cols = []
        for m in (py, upy):
            if isinstance(m, dict):  # MicroPython's figures, worked out in the child
                k = m["known"]
                cols.append("%7.2f %7.2f %7.2f (%5.2f)" % (k[0], k[1], k[2], m["plain"][0]))
            elif m is None:
                cols.append("%-28s" % "-")
            else:
                m[0].sort()
                m[2].sort()
                cols.append("%7.2f %7.2f %7.2f (%5.2f)" % (_pct(m[0], 0.5), _pct(m[0], 0.99), max(m[0]), _pct(m[2], 0.5)))
        print("%-36s %6d | %s | %s" % (name, max(py[1]), cols[0], cols[1]))
    print("(in brackets: the median apply with the set-up unknown, no solve)")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        sys.path.insert(0, sys.argv[3])
        child(int(sys.argv[2]))
    else:
        main()
