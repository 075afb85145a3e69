"""Moonstar solver benchmark (issue 6): shared_rules.moonstar.solver on random legal
situations, under CPython and under MicroPython, against two baselines timed
in the same run: the exhaustive search the tests use, and a general MILP
(scipy.optimize.milp, i.e. HiGHS).

    .venv/bin/python bench/solver.py [--count 1000] [--seed 6] [--heap 64K]
                                     [--milp-count 100] [--brute-count N]
                                     [--no-milp] [--no-upy]
    .venv/bin/python bench/solver.py --adversarial [--seed 6] [--starts 3] [--steps 150]
                                     [--random 30] [--no-milp]

--adversarial searches for the hardest set-ups instead (bench/solver_hard.py).

scipy is an optional bench dependency (pip install scipy); without it the
MILP columns say so. Situations come from tests/rules/test_solver_brute's
random_situation (the tests' own maker, seeded with shared_rules.util.Rng).

Timing, per situation:
- solver (CPython): best of 3 runs of solve(), time.perf_counter.
- solver (micropython): the same situations (one JSON line each) solved by
  `micropython -X heapsize=HEAP` in a child, best of 3, time.ticks_us
  inside MicroPython. Its answers must equal CPython's.
- MILP: one run of scipy.optimize.milp on a prebuilt model (the model
  building is not timed, which favours the MILP), on the first
  --milp-count situations of each class (HiGHS takes up to seconds on one
  squares situation, so all 1,000 of every class would take hours). Its
  optimum must equal the solver's.
- brute force: one run of the exhaustive search, standard class only, on
  the first --brute-count situations (default: all).
Ratios are of medians over the same situations (and of p99s for the MILP). Targets (issue 6): the
standard game's median <= 0.5 ms and the hardest classes' p99 <= 100 ms on
CPython; every class >= 10x faster than the MILP; the standard game >= 50x
faster than brute force; micropython within 3x of CPython.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "rules"))
sys.path.insert(0, HERE)

from shared_rules.moonstar.board import STARS, destinations, planet_values  # noqa: E402
from shared_rules.moonstar.solver import solve  # noqa: E402
from shared_rules.util import Rng  # noqa: E402
from test_solver_brute import brute, random_situation  # noqa: E402

# name, moons, dice, planets, scoring, movement, favourite, planet values (None: 1-12)
CLASSES = (
    ("standard 7m 7d 4p", 7, 7, 4, "planets", "standard", False, (5, 5, 10, 10)),
    ("favorite star 7m 7d", 7, 7, 4, "planets", "standard", True, None),
    ("more moons 15m 11d", 15, 11, 6, "planets", "standard", False, None),
    ("more dice 8m 11d", 8, 11, 4, "planets", "standard", False, None),
    ("game 9 fav 11m 11d", 11, 11, 6, "planets", "more", True, None),
    ("squares 7m 7d", 7, 7, 0, "squares", "standard", False, None),
    ("chains 7m 7d", 7, 7, 0, "chains", "standard", False, None),
    ("squares g9 11m 11d", 11, 11, 0, "squares", "more", False, None),
    ("hardest squares", 15, 11, 0, "squares", "more", False, None),
    ("hardest chains", 15, 11, 0, "chains", "more", False, None),
)
HARDEST = ("hardest squares", "hardest chains")

UPY_SCRIPT = r"""
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
import shared_rules.moonstar.piles
from shared_rules.moonstar.solver import solve
f = open(sys.argv[2])
for line in f:
    sit = json.loads(line)
    best = None
    for _ in range(3):
        gc.collect()
        t0 = time.ticks_us()
        r = solve(sit)
        us = time.ticks_diff(time.ticks_us(), t0)
        if best is None or us < best:
            best = us
    print(best, r["best"])
f.close()
"""


def make_situations(cls, count, seed):
    name, moons, dice, planets, scoring, movement, favorite, values = cls
    rng = Rng(seed)
    out = []
    for _ in range(count):
        sit = random_situation(rng, moons, dice, planets, scoring, movement, favorite,
                               list(values) if values else None)
        if values:  # Game One's planets: exactly these values
            for p, v in zip(sit["planets"], values):
                p[1] = v
        out.append(sit)
    return out


def time_solver(sits):
    times = []
    bests = []
    for sit in sits:
        t = None
        for _ in range(3):
            t0 = time.perf_counter()
            r = solve(sit)
            dt = time.perf_counter() - t0
            t = dt if t is None or dt < t else t
        times.append(t)
        bests.append(r["best"])
    return times, bests


def time_brute(sits, bests):
    times = []
    for sit, want in zip(sits, bests):
        t0 = time.perf_counter()
        got = brute(sit)
        times.append(time.perf_counter() - t0)
        if got != want:
            raise SystemExit("brute force %d != solver %d on %s" % (got, want, json.dumps(sit)))
    return times


def milp_model(sit):
    """The situation as a MILP for scipy.optimize.milp: (c, constraints,
    integrality, bounds, sign). x[m, j, t] = 1 when moon m takes die j to
    star t. Planets: maximise sum pts(t) x, plus, with the Favorite Star,
    e_s <= value_s * (moons landing on s) and e_s <= value_s * k * z_s with
    one z_s = 1. Squares/chains: a binary y[s, c] per star and count, one
    per star, sum c * y[s, c] = moons landing on s, maximise sum f(c) y."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint

    moons, dice = sit["moons"], sit["dice"]
    k = min(len(moons), len(dice))
    xs = []  # (moon, die, star)
    for m, start in enumerate(moons):
        for j, d in enumerate(dice):
            for t in destinations(start, d, sit["movement"]):
                xs.append((m, j, t))
    nx = len(xs)
    rows = []
    lo = []
    hi = []

    def row(coefs, a, b):
        rows.append(coefs)
        lo.append(a)
        hi.append(b)

    values = planet_values(sit)
    if sit["scoring"] == "planets":
        favs = [s for s in range(STARS) if values[s]] if sit["favorite_star"] else []
        n = nx + 2 * len(favs)  # x, then z_s, then e_s
        c = np.zeros(n)
        for i, (m, j, t) in enumerate(xs):
            c[i] = -(values[t] or 1)
        for q, s in enumerate(favs):
            zi, ei = nx + q, nx + len(favs) + q
            c[ei] = -1
            r = np.zeros(n)
            r[ei] = 1
            for i, (m, j, t) in enumerate(xs):
                if t == s:
                    r[i] = -values[s]
            row(r, -np.inf, 0)
            r = np.zeros(n)
            r[ei] = 1
            r[zi] = -values[s] * k
            row(r, -np.inf, 0)
        if favs:
            r = np.zeros(n)
            r[nx:nx + len(favs)] = 1
            row(r, 1, 1)
        integrality = np.array([1] * (nx + len(favs)) + [0] * len(favs))
        upper = np.array([1] * (nx + len(favs)) + [np.inf] * len(favs))
    else:
        n = nx + STARS * (k + 1)
        c = np.zeros(n)
        for s in range(STARS):
            r = np.zeros(n)
            r2 = np.zeros(n)
            for cnt in range(k + 1):
                yi = nx + s * (k + 1) + cnt
                c[yi] = -(cnt * cnt if sit["scoring"] == "squares" else cnt * (cnt + 1) // 2)
                r[yi] = 1
                r2[yi] = cnt
            for i, (m, j, t) in enumerate(xs):
                if t == s:
                    r2[i] = -1
            row(r, 1, 1)
            row(r2, 0, 0)
        integrality = np.ones(n)
        upper = np.ones(n)
    # each moon moves at most once and each die is used at most once; the
    # side that has no more of them than the other is used in full
    for side, count, other in ((0, len(moons), len(dice)), (1, len(dice), len(moons))):
        for item in range(count):
            r = np.zeros(n)
            for i, x in enumerate(xs):
                if x[side] == item:
                    r[i] = 1
            row(r, 1 if other >= count else 0, 1)
    cons = LinearConstraint(np.array(rows), np.array(lo, dtype=float), np.array(hi, dtype=float))
    return c, cons, integrality, Bounds(np.zeros(n), upper)


def time_milp(sits, bests):
    from scipy.optimize import milp

    times = []
    for sit, want in zip(sits, bests):
        c, cons, integrality, bounds = milp_model(sit)
        t0 = time.perf_counter()
        res = milp(c, constraints=cons, integrality=integrality, bounds=bounds)
        times.append(time.perf_counter() - t0)
        got = int(round(-res.fun))
        if not res.success or got != want:
            raise SystemExit("MILP %s %r != solver %d on %s" % (res.message, got, want, json.dumps(sit)))
    return times


def time_upy(sits, bests, heap, micropython):
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "sits.jsonl")
        script = os.path.join(tmp, "upy_solver_bench.py")
        with open(data, "w") as f:
            for sit in sits:
                f.write(json.dumps(sit) + "\n")
        with open(script, "w") as f:
            f.write(UPY_SCRIPT)
        proc = subprocess.run([micropython, "-X", "heapsize=" + heap, script, ROOT, data],
                              capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit("micropython failed:\n" + proc.stdout[-2000:] + proc.stderr[-2000:])
    times = []
    for line, want in zip(proc.stdout.split("\n"), bests):
        us, got = line.split()
        if int(got) != want:
            raise SystemExit("micropython best %s != CPython %d" % (got, want))
        times.append(int(us) / 1e6)
    if len(times) != len(sits):
        raise SystemExit("micropython answered %d of %d situations" % (len(times), len(sits)))
    return times


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]


def p99(xs):
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * 0.99))]


def ms(x):
    return "-" if x is None else "%.3f" % (x * 1000)


def ratio(a, b):
    return "-" if a is None or b is None else "%.0fx" % (a / b)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1000, help="situations per class (default 1000)")
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--heap", default="64K", help="micropython -X heapsize (default 64K)")
    ap.add_argument("--milp-count", type=int, default=100,
                    help="situations per class also solved by the MILP (default 100)")
    ap.add_argument("--brute-count", type=int, default=None,
                    help="standard situations also solved by brute force (default: all of them)")
    ap.add_argument("--no-milp", action="store_true")
    ap.add_argument("--no-upy", action="store_true")
    ap.add_argument("--adversarial", action="store_true",
                    help="hill-climb for the hardest set-ups of every class, keep them in "
                         "bench/solver_corpus.jsonl, time them beside HiGHS (bench/solver_hard.py)")
    ap.add_argument("--starts", type=int, default=3, help="--adversarial: hill-climbs per class (default 3)")
    ap.add_argument("--steps", type=int, default=150, help="--adversarial: steps per hill-climb (default 150)")
    ap.add_argument("--random", type=int, default=30,
                    help="--adversarial: random set-ups timed per class beside the corpus's (default 30)")
    args = ap.parse_args(argv)
    if args.adversarial:
        import solver_hard

        have = not args.no_milp
        if have:
            try:
                import scipy.optimize  # noqa: F401
            except ImportError:
                print("scipy is not installed: no HiGHS baseline (pip install -e '.[bench]')")
                have = False
        return solver_hard.run(args, milp_model if have else None)
    micropython = os.path.join(os.path.dirname(sys.executable), "micropython")
    have_milp = not args.no_milp
    if have_milp:
        try:
            import scipy.optimize  # noqa: F401
        except ImportError:
            print("scipy is not installed: no MILP baseline (pip install scipy)")
            have_milp = False
    print("moonstar solver bench: %d situations per class, seed %d, micropython heap %s"
          % (args.count, args.seed, args.heap))
    print("times in ms; solver best of 3 per situation, baselines one run; MILP on the first %d, brute force on %s"
          % (args.milp_count, "all" if args.brute_count is None else "the first %d" % args.brute_count))
    print()
    head = ("class", "med", "p99", "milp med", "milp p99", "vs milp", "vs milp p99",
            "brute med", "vs brute", "upy med", "upy p99", "upy/cpy")
    widths = (20, 7, 7, 8, 8, 7, 11, 9, 8, 7, 7, 7)
    print(" ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(head, widths))))
    verdicts = []
    for n, cls in enumerate(CLASSES):
        name = cls[0]
        sits = make_situations(cls, args.count, args.seed * 1000 + n)
        t_cpy, bests = time_solver(sits)
        t_milp = time_milp(sits[:args.milp_count], bests) if have_milp else None
        t_brute = None
        if n == 0:
            k = args.count if args.brute_count is None else args.brute_count
            t_brute = time_brute(sits[:k], bests[:k]) if k else None
        t_upy = None if args.no_upy else time_upy(sits, bests, args.heap, micropython)
        cm, cp = median(t_cpy), p99(t_cpy)
        mm = median(t_milp) if t_milp else None
        mp = p99(t_milp) if t_milp else None
        msol = median(t_cpy[:len(t_milp)]) if t_milp else None  # the same situations
        psol = p99(t_cpy[:len(t_milp)]) if t_milp else None
        bm = median(t_brute) if t_brute else None
        um = median(t_upy) if t_upy else None
        up = p99(t_upy) if t_upy else None
        # the brute ratio compares the same situations
        bsol = median(t_cpy[:len(t_brute)]) if t_brute else None
        cells = (name, ms(cm), ms(cp), ms(mm), ms(mp), ratio(mm, msol), ratio(mp, psol), ms(bm), ratio(bm, bsol),
                 ms(um), ms(up), "-" if um is None else "%.2f" % (um / cm))
        print(" ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))),
              flush=True)
        if n == 0:
            verdicts.append(("standard median <= 0.5 ms", cm <= 0.0005))
            if bm is not None:
                verdicts.append(("standard >= 50x faster than brute force", bm / bsol >= 50))
        if name in HARDEST:
            verdicts.append(("%s p99 <= 100 ms" % name, cp <= 0.1))
        if mm is not None:
            verdicts.append(("%s >= 10x faster than the MILP (median)" % name, mm / msol >= 10))
        if um is not None:
            verdicts.append(("%s micropython within 3x (median)" % name, um / cm <= 3))
    print()
    for what, ok in verdicts:
        print("%s %s" % ("PASS" if ok else "MISS", what))
    return 0 if all(ok for _, ok in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
