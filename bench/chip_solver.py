"""The best-possible solve on the stock Pico firmware (emulated RP2040,
tests/board/harness.py): each set-up of the adversarial corpus
(bench/solver_corpus.jsonl: the hardest a search found, one per class),
solved on the chip by the same rules core the device runs, in emulated
time. The device runs it in slices across its loop passes (so no pass
waits for it); the figure here is the solve's CPU time alone, the sum of
its slices, which is what delays the result screen's number.

    .venv/bin/python bench/chip_solver.py [--json]

Each line: the class, the solver's units of work, emulated ms, and the
best (checked against the corpus's stored optimum).
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


def measure():
    entries = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    files = harness.flash_files()
    files["main.py"] = (SCRIPT % repr([[e["class"], e["sit"]] for e in entries])).encode()
    p = harness.Pico(harness.build_image(files))
    try:
        if not p.run_until(lambda: "DONE" in p.serial_text() or "Traceback" in p.serial_text(), 120000, step_ms=50) \
                or "Traceback" in p.serial_text():
            raise SystemExit("no answer from the chip in 120 s of emulated time:\n" + p.serial_text()[-2000:])
        out = []
        for m in re.finditer(r"^SOLVE (.*)\|(\d+)\|(\d+)\|(\d+)\r?$", p.serial_text(), re.M):
            cls, units, us, best = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
            want = next(e["best"] for e in entries if e["class"] == cls)
            out.append({"class": cls, "units": units, "ms": round(us / 1000, 1), "best": best, "exact": best == want})
        return out
    finally:
        p.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON list")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    rows = measure()
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        print("%-28s %6d units %8.1f ms  best %d%s" % (r["class"], r["units"], r["ms"], r["best"], "" if r["exact"] else "  (NOT the corpus's optimum)"))
    worst = max(rows, key=lambda r: r["ms"])
    print("worst: %s, %.1f ms (goal %d ms): %s" % (worst["class"], worst["ms"], GOAL_MS, "PASS" if worst["ms"] <= GOAL_MS else "FAIL"))
    print("wall time: %d s" % (time.monotonic() - t0))
    return 0 if all(r["exact"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
