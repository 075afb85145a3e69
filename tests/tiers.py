"""The two long tiers of `make test` side by side: pytest over tests/
(on every core, pytest-xdist) and the board tier (tests/board/run.py,
the emulated Pico). pytest's output shows as it comes; the board tier's
is kept in a log and shown whole once pytest is done, so the two never
mix. Exits non-zero when either failed.

    python tests/tiers.py [pytest options...]

Why side by side: the board tier is emulation, CPU from end to end, while
pytest leaves a core idle for stretches (waits on a browser, on a
subprocess, the last files of a run); together the cores stay busy and
the whole is shorter than one after the other.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "build" / "board-tier.log"


def main(argv):
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with open(LOG, "wb") as log:
        board = subprocess.Popen([sys.executable, str(ROOT / "tests" / "board" / "run.py")], cwd=ROOT,
                                 stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            tests = subprocess.call([sys.executable, "-m", "pytest"] + argv, cwd=ROOT)
            print("== the stock Pico firmware on an emulated RP2040 (tests/board; skipped, saying where to get it, "
                  "without the UF2)", flush=True)
            chip = board.wait()
        except BaseException:
            os.killpg(board.pid, signal.SIGTERM)
            board.wait()
            raise
    sys.stdout.write(LOG.read_text(encoding="utf-8", errors="replace"))
    sys.stdout.flush()
    if tests != 0:
        print("tiers: pytest exited %d" % tests)
    if chip != 0:
        print("tiers: the board tier exited %d" % chip)
    return 1 if tests or chip else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
