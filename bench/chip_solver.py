"""The best-possible solve on the stock Pico firmware (emulated RP2040,
tests/board/harness.py): each set-up of the adversarial corpus
(bench/solver_corpus.jsonl: the hardest a search found, one per class),
solved on the chip by the same rules core the device runs, in emulated
time. The device runs it in slices across its loop passes (so no pass
waits for it); the figure here is the solve's CPU time alone, the sum of
its slices, which is what delays the result screen's number.

    .venv/bin/python bench/chip_solver.py [--json] [--random N [--seed S]]

Each line: the class, the solver's units of work, emulated ms, and the
best (checked against the corpus's stored optimum). With --random N it
solves instead N random Game 7 and N random Game 8 set-ups (7 moons, 7
dice, the device's own roll of seeds S to S + N - 1:
shared_rules.moonstar.setup.random_situation) and prints each game's median, 99th percentile
and worst, with the worst's seed; each best is checked against CPython's
solve of the same set-up.
"""

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "board")]

import harness  # noqa: E402

CORPUS = ROOT / "bench" / "solver_corpus.jsonl"
GOAL_MS = 1000  # issue 24: the chip's worst case

# Run on the chip as its main.py, in place of the app (the rules core and
# the rest of the image as `moontable flash` lays them out).
SCRIPT = """\
import gc, json, time
from shared_rules.moonstar.solver import Solver
# every solver module loaded before the first clock starts, so that each
# figure is a solve's own work, not a module's loading
import shared_rules.moonstar.assign, shared_rules.moonstar.piles
import shared_rules.moonstar.piles_start, shared_rules.moonstar.pairs, shared_rules.moonstar.piles_plan
SITS = %s
for name, sit in SITS:
    gc.collect()
    t = time.ticks_us()
    s = Solver(sit, True)
    r = None
    while r is None:
        r = s.step(16)
    us = time.ticks_diff(time.ticks_us(), t)
    print("SOLVE %%s|%%d|%%d|%%d" %% (name, s.units, us, r["best"]))
    s = r = None
print("DONE")
"""


def random_sits(first, count):
    """[class, situation, best]: N random Game 7 and N Game 8 set-ups, the
    device's roll of each seed, with CPython's best."""
    from shared_rules.moonstar.setup import random_situation
    from shared_rules.moonstar.solver import solve

    out = []
    for game, scoring in ((7, "squares"), (8, "chains")):
        for seed in range(first, first + count):
            sit = random_situation({"planets": [], "moons": 7, "dice": 7, "scoring": scoring,
                                    "movement": "standard", "favorite": False}, seed)
            out.append(["Game %d seed %d" % (game, seed), sit, solve(sit)["best"]])
    return out


def measure(random=0, seed=1):
    if random:
        cases = random_sits(seed, random)
    else:
        entries = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
        cases = [[e["class"], e["sit"], e["best"]] for e in entries]
    wants = {c[0]: c[2] for c in cases}
    files = harness.flash_files()
    files["main.py"] = (SCRIPT % repr([c[:2] for c in cases])).encode()
    p = harness.Pico(harness.build_image(files))
    try:
        limit = 120000 + 2000 * 2 * random
        if not p.run_until(lambda: "DONE" in p.serial_text() or "Traceback" in p.serial_text(), limit, step_ms=50) \
                or "Traceback" in p.serial_text():
            raise SystemExit("no answer from the chip in %d s of emulated time:\n%s" % (limit // 1000, p.serial_text()[-2000:]))
        out = []
        for m in re.finditer(r"^SOLVE (.*)\|(\d+)\|(\d+)\|(\d+)\r?$", p.serial_text(), re.M):
            cls, units, us, best = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
            out.append({"class": cls, "units": units, "ms": round(us / 1000, 1), "best": best, "exact": best == wants[cls]})
        return out
    finally:
        p.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON list")
    ap.add_argument("--random", type=int, default=0, metavar="N",
                    help="N random Game 7 and N random Game 8 set-ups instead of the corpus")
    ap.add_argument("--seed", type=int, default=1, help="--random: the first seed (default 1)")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    rows = measure(args.random, args.seed)
    if args.json:
        print(json.dumps(rows))
        return 0 if all(r["exact"] for r in rows) else 1
    if args.random:
        for game in (7, 8):
            got = sorted((r for r in rows if r["class"].startswith("Game %d " % game)), key=lambda r: r["ms"])
            ms = [r["ms"] for r in got]
            print("Game %d, %d random set-ups: median %.1f ms, p99 %.1f ms, worst %.1f ms (%s, %d units)" % (
                game, len(ms), ms[len(ms) // 2], ms[min(len(ms) - 1, len(ms) * 99 // 100)], ms[-1], got[-1]["class"], got[-1]["units"]))
        wrong = [r["class"] for r in rows if not r["exact"]]
        if wrong:
            print("NOT CPython's best: " + ", ".join(wrong))
        print("wall time: %d s" % (time.monotonic() - t0))
        return 1 if wrong else 0
    for r in rows:
        print("%-28s %6d units %8.1f ms  best %d%s" % (r["class"], r["units"], r["ms"], r["best"], "" if r["exact"] else "  (NOT the corpus's optimum)"))
    worst = max(rows, key=lambda r: r["ms"])
    print("worst: %s, %.1f ms (goal %d ms): %s" % (worst["class"], worst["ms"], GOAL_MS, "PASS" if worst["ms"] <= GOAL_MS else "FAIL"))
    print("wall time: %d s" % (time.monotonic() - t0))
    return 0 if all(r["exact"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
