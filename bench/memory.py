"""Smallest MicroPython heap that runs a full scripted session of each game
on the simulated board (the same button-driven games as tests/sim), found by
bisection. The unix port has 8-byte words, so a figure here is stricter than
what a Pico (4-byte words, ~190 KB free) needs. The issue's goal is 64K;
the simulator tests run every board with tests/sim/simtools.TEST_HEAP,
which must stay above the largest figure printed here.

    .venv/bin/python bench/memory.py [--lo 32] [--hi 512]
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "sim")]

import simtools  # noqa: E402
import test_sim_games  # noqa: E402
import test_sim_moonstar  # noqa: E402

SESSIONS = {
    "moonstar": test_sim_moonstar.test_moonstar_full_game,
    "shoot-the-moon": test_sim_games.test_shoot_the_moon_full_game,
    "moon": test_sim_games.test_moon_dominoes_full_game,
    "moons": test_sim_games.test_moons_full_game,
}


def works(session, kb):
    os.environ["MOONSIM_HEAP"] = "%dK" % kb
    with tempfile.TemporaryDirectory() as tmp:
        try:
            session(Path(tmp))
            return True
        except Exception:
            return False


def smallest(session, lo, hi, step=4):
    """Bisection over KB in multiples of `step`; assumes more heap never hurts."""
    if not works(session, hi):
        return None
    lo -= lo % step
    while hi - lo > step:
        mid = (lo + hi) // 2
        mid -= mid % step
        if works(session, mid):
            hi = mid
        else:
            lo = mid
    return hi


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lo", type=int, default=32, help="KB known (or assumed) to fail")
    ap.add_argument("--hi", type=int, default=512, help="KB expected to work")
    args = ap.parse_args()
    print("full scripted session per game, MicroPython unix port (8-byte words), firmware deployed as .mpy")
    print("64K works: %s" % ", ".join("%s=%s" % (g, "yes" if works(s, 64) else "no") for g, s in SESSIONS.items()))
    worst = 0
    for game, session in SESSIONS.items():
        kb = smallest(session, args.lo, args.hi)
        worst = max(worst, kb or 10 ** 6)
        print("%-15s smallest heap: %s" % (game, ("%d KB" % kb) if kb else "> %d KB" % args.hi))
    test_kb = int(simtools.TEST_HEAP.rstrip("K"))
    print("simulator tests run with %s: %s" % (simtools.TEST_HEAP, "fits" if worst <= test_kb else "TOO SMALL"))


if __name__ == "__main__":
    main()
