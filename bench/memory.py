"""Smallest MicroPython heap that runs a full scripted session of each game
on the simulated board (the same button-driven games as tests/sim), found by
bisection. The unix port has 8-byte words, so a figure here is stricter than
what a Pico (4-byte words, ~190 KB free) needs. The issue's goal is 64K;
the simulator tests run every board with tests/sim/simtools.TEST_HEAP,
which must stay above the largest figure printed here.

It then measures the floor under any session: the board's own layers,
loaded one on top of the other with no app, no screen and no rules (the
simulated board, whose hardware layer is the same size as a Pico's:
the pinned adafruit_ssd1306 over the busio adapter), each with its live
heap, its interned strings and the smallest heap it starts in.

    .venv/bin/python bench/memory.py [--lo 32] [--hi 512] [--floor]
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
    # not a whole game: one Game 7 round, whose best-possible screen runs
    # the solver's branch and bound (the largest solve)
    "moonstar-g7": test_sim_moonstar.test_best_possible_after_a_squares_round,
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


# The board's layers, each loaded on top of the ones before it. The probe
# replaces main.py in the deployed flash folder; it draws a frame, lets
# three loop passes run, then prints the live heap and the qstr pool.
LAYERS = (
    ("display (board, I2C adapter, adafruit_ssd1306)", ""),
    ("+ buttons, sound, sand timer", """
from buttons import Buttons
from sound import Sound
from shared_rules.timer import SandTimer
keep = [Buttons(b.ticks_ms()), Sound(b.buzzer, True), SandTimer(b.ticks_ms, 60000)]
"""),
    ("+ storage and journal", """
from storage import Store
from journal import Journal
st = Store(b.storage_root)
keep.append(Journal(st))
"""),
    ("the app booted to its Home menu", None),
)

_PROBE = """
import gc, micropython
import boards
b = boards.setup()
%s
b.display.fill(0)
b.display.text("probe", 0, 0, 1)
b.display.show()
for i in range(3):
    b.idle(20)
gc.collect()
print("LIVE", gc.mem_alloc())
micropython.qstr_info()
"""

_APP_PROBE = """
import gc, micropython
import boards
import app
b = boards.setup()
a = app.App(b)
a.boot()
for i in range(3):
    a.step()
gc.collect()
print("LIVE", gc.mem_alloc())
micropython.qstr_info()
"""


def probe_layer(code, kb):
    """(live bytes, qstr pool bytes) with a heap of `kb`, or None if it fails."""
    from host.sim.board_link import BoardExited, SimBoard, deploy

    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash"
        deploy(flash)
        (flash / "main.py").write_text(_APP_PROBE if code is None else _PROBE % code)
        board = SimBoard(flash, heap="%dK" % kb, do_deploy=False)
        try:
            board.start()
            board.advance(200)
        except (BoardExited, TimeoutError, OSError):
            pass
        finally:
            board.stop(5)
        out = board.serial_text()
    live = qstr = None
    for line in out.splitlines():
        if line.startswith("LIVE "):
            live = int(line.split()[1])
        elif line.startswith("qstr pool:"):
            qstr = int(line.rsplit("n_total_bytes=", 1)[1])
    if live is None or "Traceback" in out:
        return None
    return live, qstr


def floor():
    print()
    print("the floor: the board's layers alone (no session), one on top of the other")
    code = ""
    for name, extra in LAYERS:
        if extra is not None:
            code += extra
        layer = None if extra is None else code
        seen = probe_layer(layer, 1024)
        lo, hi = 16, 256
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if probe_layer(layer, mid):
                hi = mid
            else:
                lo = mid
        print("%-48s live %5.1f KB (qstr pool %4.1f KB)  smallest heap %d KB"
              % (name, seen[0] / 1024, seen[1] / 1024, hi))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lo", type=int, default=32, help="KB known (or assumed) to fail")
    ap.add_argument("--hi", type=int, default=512, help="KB expected to work")
    ap.add_argument("--floor", action="store_true", help="measure only the floor (the board's layers)")
    args = ap.parse_args()
    if args.floor:
        floor()
        return
    print("full scripted session per game, MicroPython unix port (8-byte words), firmware deployed as .mpy")
    print("64K works: %s" % ", ".join("%s=%s" % (g, "yes" if works(s, 64) else "no") for g, s in SESSIONS.items()))
    worst = 0
    for game, session in SESSIONS.items():
        kb = smallest(session, args.lo, args.hi)
        worst = max(worst, kb or 10 ** 6)
        print("%-15s smallest heap: %s" % (game, ("%d KB" % kb) if kb else "> %d KB" % args.hi))
    test_kb = int(simtools.TEST_HEAP.rstrip("K"))
    print("simulator tests run with %s: %s" % (simtools.TEST_HEAP, "fits" if worst <= test_kb else "TOO SMALL"))
    floor()


if __name__ == "__main__":
    main()
