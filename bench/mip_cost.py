"""What a source install costs (`mpremote mip install` of package.json,
which installs .py files the board compiles as it imports them) against
the bytecode a `moontable flash` or the compiled mip package
(`python -m moontable.deploy --mip-mpy DIR`) puts on the board.

The figure is the smallest MicroPython heap that plays a whole scripted
session (the simulator tests' own scripts) from each tree, found by
bisection on the unix port (8-byte words: a board's 4-byte words need
less, but the difference between the two trees is what is measured). Both
trees are what mip and flash install: the firmware, the rules core and the
two drivers, as .py or as .mpy (main.py is source in both).

Why not the 32-bit port for this: its compiler folds `errno.ENOENT` to
the built-in module's number while its filesystem raises Emscripten's (see
web/mpboard.mjs), so firmware compiled *on* that port misreads a missing
file; bytecode from mpy-cross does not fold it (tests/deploy/test_mip_mpy.py
plays the compiled package there).

    .venv/bin/python bench/mip_cost.py [--games moon,moons] [--lo 32] [--hi 512]
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "sim")]

import test_sim_games  # noqa: E402
import test_sim_moonstar  # noqa: E402

from moontable.sim import board_link  # noqa: E402

SESSIONS = {
    "moonstar": test_sim_moonstar.test_moonstar_full_game,
    "shoot-the-moon": test_sim_games.test_shoot_the_moon_full_game,
    "moon": test_sim_games.test_moon_dominoes_full_game,
    "moons": test_sim_games.test_moons_full_game,
}
_deploy = board_link.deploy


def works(session, kb, source):
    """Whether the session plays through with a heap of `kb` from the
    source tree (`source`) or the compiled one."""
    os.environ["MOONSIM_HEAP"] = "%dK" % kb
    board_link.deploy = lambda flash, board="sim", compiled=True: _deploy(flash, board, compiled=not source)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            session(Path(tmp))
        return True
    except Exception:  # noqa: BLE001 - a MemoryError on the board ends the script somewhere
        return False
    finally:
        board_link.deploy = _deploy


def smallest(session, source, lo, hi, step=4):
    if not works(session, hi, source):
        return None
    while hi - lo > step:
        mid = (lo + hi) // 2
        mid -= mid % step
        if works(session, mid, source):
            hi = mid
        else:
            lo = mid
    return hi


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(SESSIONS), help="comma-separated sessions (%s)" % ", ".join(SESSIONS))
    ap.add_argument("--lo", type=int, default=32)
    ap.add_argument("--hi", type=int, default=512)
    args = ap.parse_args()
    print("smallest heap for a whole session, MicroPython unix port (8-byte words), KB")
    print("%-15s %-9s %-9s %s" % ("session", ".mpy", "source", "source costs"))
    for game in args.games.split(","):
        mpy = smallest(SESSIONS[game], False, args.lo, args.hi)
        src = smallest(SESSIONS[game], True, args.lo, args.hi)
        extra = "%+d KB (%+d%%)" % (src - mpy, 100 * (src - mpy) // mpy) if mpy and src else "?"
        print("%-15s %-9s %-9s %s" % (game, mpy or ">%d" % args.hi, src or ">%d" % args.hi, extra), flush=True)


if __name__ == "__main__":
    main()
