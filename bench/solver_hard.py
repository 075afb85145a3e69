"""The adversarial half of bench/solver.py (`--adversarial`, issue 24): a
search for the set-ups that make the Moonstar solver work hardest, a corpus
of the worst found, and their times beside HiGHS.

For each class of set-up the rules allow (every scoring and movement,
with and without the Favorite Star; any 7-15 moons against any 7-11 dice,
which covers Games 1-4 and every Game 12 mix of them), a hill-climb with a
fixed seed: start from random set-ups, change one thing at a time (a moon
to another star, a die to another number, a moon or a die more or fewer,
a planet moved or revalued), keep the change when the solver's units of
work (docs/solver.md: search nodes, matchings, assignment rows; the same
on every machine) do not drop. The worst set-up of each class goes into
the corpus file (bench/solver_corpus.jsonl, one JSON object a line: class,
situation, best, units), merged with what is there already, so the corpus
only gets harder; the tests check the solver against its stored optima.

Then, per class, over the corpus's set-up and the class's random ones:
the solve and the result check (the rules' PointsCheck refusing best + 1,
which needs the whole proof, and accepting best) timed under CPython (CPU
time, time.process_time, which a machine shared with other work inflates
less than the wall clock), the
median and the worst; the same set-ups solved by HiGHS (scipy's milp,
bench/solver.py's model), its median and worst, and the ratios from the
same run. Every HiGHS optimum must equal the solver's.
"""

import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(HERE, "solver_corpus.jsonl")

from shared_rules.errors import RuleError  # noqa: E402
from shared_rules.moonstar.board import STARS  # noqa: E402
from shared_rules.moonstar.result import PointsCheck  # noqa: E402
from shared_rules.moonstar.solver import Solver  # noqa: E402
from shared_rules.util import Rng  # noqa: E402

# name, scoring, movement, favorite star
CLASSES = (
    ("planets", "planets", "standard", False),
    ("planets favorite (G6)", "planets", "standard", True),
    ("planets more movement (G9)", "planets", "more", False),
    ("planets G6+G9", "planets", "more", True),
    ("squares (G7)", "squares", "standard", False),
    ("squares G7+G9", "squares", "more", False),
    ("chains (G8)", "chains", "standard", False),
    ("chains G8+G9", "chains", "more", False),
)
MOONS = (7, 15)
DICE = (7, 11)


def units(sit):
    """The solver's units of work for a whole solve, and its answer."""
    s = Solver(sit)
    r = None
    while r is None:
        r = s.step(1 << 20)
    return s.units, r


def random_sit(rng, scoring, movement, favorite):
    m = MOONS[0] + rng.below(MOONS[1] - MOONS[0] + 1)
    d = DICE[0] + rng.below(DICE[1] - DICE[0] + 1)
    count = [0] * STARS
    moons = []
    while len(moons) < m:
        s = rng.below(STARS)
        if count[s] < 3:
            count[s] += 1
            moons.append(s)
    planets = []
    if scoring == "planets":
        for s in rng.shuffle(list(range(STARS)))[:1 + rng.below(6)]:
            planets.append([s, 1 + rng.below(12)])
    return {"stars": STARS, "planets": planets, "moons": moons, "dice": [1 + rng.below(6) for _ in range(d)],
            "scoring": scoring, "movement": movement, "favorite_star": favorite}


def mutate(rng, sit):
    """One legal change to a copy of `sit`."""
    s = json.loads(json.dumps(sit))
    moons, dice, planets = s["moons"], s["dice"], s["planets"]
    while True:
        k = rng.below(7 if planets else 5)
        if k == 0:
            i = rng.below(len(moons))
            t = rng.below(STARS)
            if moons.count(t) < 3 and t != moons[i]:
                moons[i] = t
                return s
        elif k == 1:
            i = rng.below(len(dice))
            v = 1 + rng.below(6)
            if v != dice[i]:
                dice[i] = v
                return s
        elif k == 2 and len(moons) < MOONS[1]:
            t = rng.below(STARS)
            if moons.count(t) < 3:
                moons.append(t)
                return s
        elif k == 3 and len(moons) > MOONS[0]:
            moons.pop(rng.below(len(moons)))
            return s
        elif k == 4:
            if len(dice) < DICE[1] and rng.below(2):
                dice.append(1 + rng.below(6))
                return s
            if len(dice) > DICE[0]:
                dice.pop(rng.below(len(dice)))
                return s
        elif k == 5:
            p = planets[rng.below(len(planets))]
            t = rng.below(STARS)
            if all(q[0] != t for q in planets):
                p[0] = t
                return s
        elif k == 6:
            planets[rng.below(len(planets))][1] = 1 + rng.below(1000 if rng.below(4) == 0 else 12)
            return s


def climb(cls, seed, starts, steps):
    """The hardest set-up a hill-climb finds for `cls`: (units, sit, best)."""
    _, scoring, movement, favorite = cls
    rng = Rng(seed)
    worst = None
    for _ in range(starts):
        sit = random_sit(rng, scoring, movement, favorite)
        u, r = units(sit)
        for _ in range(steps):
            c = mutate(rng, sit)
            cu, cr = units(c)
            if cu >= u:
                sit, u, r = c, cu, cr
        if worst is None or u > worst[0]:
            worst = (u, sit, r["best"])
    return worst


def load_corpus(path=CORPUS):
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    e = json.loads(line)
                    out[e["class"]] = e
    return out


def save_corpus(corpus, path=CORPUS):
    with open(path, "w") as f:
        for name, _, _, _ in CLASSES:
            if name in corpus:
                f.write(json.dumps(corpus[name], sort_keys=True) + "\n")


def best_time(fn, repeat=3):
    t = None
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        dt = time.process_time() - t0
        t = dt if t is None or dt < t else t
    return t


def check_time(sit, points):
    """The rules' result check of `points` on `sit`, run to its verdict."""
    def run():
        c = PointsCheck(sit, points)
        try:
            while c.step(16) is None:
                pass
        except RuleError:
            pass
    return best_time(run)


def run(args, milp_model):
    """bench/solver.py --adversarial."""
    corpus = load_corpus()
    print("moonstar solver, adversarial: hill-climb seed %d, %d starts x %d steps per class, %d random set-ups per class"
          % (args.seed, args.starts, args.steps, args.random))
    print("CPU times (time.process_time) in ms under CPython %s; solver best of 3, HiGHS (scipy %s milp) one run" % (
        sys.version.split()[0], _scipy_version()))
    print()
    head = ("class", "units", "worst sit", "solve med", "solve worst", "refuse worst", "accept worst",
            "highs med", "highs worst", "med ratio", "worst ratio")
    widths = (27, 7, 9, 9, 11, 12, 12, 9, 11, 9, 11)
    print(" ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(head, widths))))
    overall = []
    for n, cls in enumerate(CLASSES):
        name = cls[0]
        u, sit, best = climb(cls, args.seed * 100 + n, args.starts, args.steps)
        old = corpus.get(name)
        if old is not None:
            # the stored set-up, against today's solver (its units may have
            # dropped since it was stored); its optimum must not change
            ou, orr = units(old["sit"])
            if orr["best"] != old["best"]:
                raise SystemExit("%s: solver %d != corpus optimum %d" % (name, orr["best"], old["best"]))
            old["units"] = ou
        if old is None or u > old["units"]:
            corpus[name] = {"class": name, "sit": sit, "best": best, "units": u}
        hard = corpus[name]
        hu = hard["units"]
        rng = Rng(args.seed * 1000 + n)
        sits = [hard["sit"]] + [random_sit(rng, *cls[1:]) for _ in range(args.random)]
        t_solve = []
        bests = []
        for s in sits:
            t_solve.append(best_time(lambda s=s: units(s)))
            bests.append(units(s)[1]["best"])
        t_refuse = [check_time(s, b + 1) for s, b in zip(sits, bests)]
        t_accept = [check_time(s, b) for s, b in zip(sits, bests)]
        t_milp = None
        if milp_model is not None:
            from scipy.optimize import milp

            t_milp = []
            for s, b in zip(sits, bests):
                c, cons, integrality, bounds = milp_model(s)
                t0 = time.process_time()
                res = milp(c, constraints=cons, integrality=integrality, bounds=bounds)
                t_milp.append(time.process_time() - t0)
                if not res.success or int(round(-res.fun)) != b:
                    raise SystemExit("HiGHS %s %r != solver %d on %s" % (res.message, res.fun, b, json.dumps(s)))
        worst = max(max(t_solve), max(t_refuse), max(t_accept))
        overall.append((worst, name))
        med = statistics.median(t_solve)
        cells = (name, str(hu), "%dm %dd" % (len(hard["sit"]["moons"]), len(hard["sit"]["dice"])),
                 _ms(med), _ms(max(t_solve)), _ms(max(t_refuse)), _ms(max(t_accept)),
                 _ms(statistics.median(t_milp)) if t_milp else "-", _ms(max(t_milp)) if t_milp else "-",
                 "%.0fx" % (statistics.median(t_milp) / med) if t_milp else "-",
                 "%.0fx" % (max(t_milp) / max(t_solve)) if t_milp else "-")
        print(" ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))), flush=True)
    save_corpus(corpus)
    worst, name = max(overall)
    print()
    print("overall worst (solve or check): %s ms (%s); corpus: %s" % (_ms(worst), name, os.path.relpath(CORPUS, ROOT)))
    ok = worst <= 0.05
    print("%s worst case <= 50 ms" % ("PASS" if ok else "MISS"))
    return 0 if ok else 1


def _ms(x):
    return "%.2f" % (x * 1000)


def _scipy_version():
    try:
        import scipy

        return scipy.__version__
    except ImportError:
        return "(not installed)"
