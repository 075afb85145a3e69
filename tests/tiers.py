"""The tiers of `make test`, run so that both cores stay busy: the board
tier (tests/board/run.py, the emulated Pico) starts first and runs
throughout; meanwhile the rules core runs under each MicroPython (the
unix port, then the 32-bit WebAssembly port), each logged by
tests/run_logged.py into $MOONTABLE_RULES_LOGS, and then pytest over
tests/ (on every core, pytest-xdist), which reads those logs. The rules
steps' and pytest's output shows as it comes; the board tier's is kept in
a log and shown whole once pytest is done, so the outputs never mix.
Exits non-zero when any tier failed.

    python tests/tiers.py --rules LIB [pytest options...]

LIB is the rules core compiled to .mpy (tests/upy_build.py). Node.js
must be on PATH for the 32-bit run.

Why this order: the board tier is emulation, CPU from end to end, and
the longest tier, while the rules steps run on one core and pytest
leaves a core idle for stretches (waits on a browser, on a subprocess,
the last files of a run); started first, the board tier fills those
gaps, and the whole is shorter than one tier after the other.

The board tier runs in a session of its own (started that way, and
stopped whole). Where Linux's scheduler groups processes by session
(autogroups, on here), it shares the CPU fairly between the sessions
first: the tier's workers, one a class, get half of it between them,
and the rules steps, one process each, run at the speed of a core
beside them, so pytest starts early. With the tier in make's session
they took twice as long, and the whole run 8m27s against 7m55s-8m02s
(measured on 2 cores with a fresh clone). Either way both cores stay
busy (96% of that run), so the run takes about the CPU it needs, halved.
"""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "build" / "board-tier.log"


def rules_steps(lib):
    """(heading, log name, command) of each MicroPython run of the rules core."""
    bindir = Path(sys.executable).parent
    return [
        ("rules core under MicroPython (-X heapsize=72K, compiled to .mpy as on the board)", "upy-rules.log",
         [str(bindir / "micropython"), "-X", "heapsize=72K", "tests/upy_runner.py", "--lib", lib]),
        ("rules core under 32-bit MicroPython (the WebAssembly port, compiled to .mpy as on the board)",
         "wasm-rules.log", ["node", "tests/wasm/rules.mjs", "--lib", lib]),
    ]


def waited(proc):
    """Wait for `proc`: (its exit code, the CPU seconds it and every process
    it waited for used, user and system)."""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime


def timed(cmd, **kw):
    """Run `cmd` to its end: (exit code, wall seconds, CPU seconds)."""
    t0 = time.monotonic()
    code, cpu = waited(subprocess.Popen(cmd, **kw))
    return code, time.monotonic() - t0, cpu


def minutes(seconds):
    return "%dm%02ds" % divmod(round(seconds), 60)


def main(argv):
    lib = None
    if argv[:1] == ["--rules"]:
        lib, argv = argv[1], argv[2:]
    logs = os.environ.get("MOONTABLE_RULES_LOGS")
    if lib is not None and not logs:
        print("tiers: --rules needs $MOONTABLE_RULES_LOGS, the folder the rules steps log into", file=sys.stderr)
        return 2
    LOG.parent.mkdir(parents=True, exist_ok=True)
    took = []  # (tier, wall s, CPU s), printed at the end
    with open(LOG, "wb") as log:
        t0 = time.monotonic()
        board = subprocess.Popen([sys.executable, str(ROOT / "tests" / "board" / "run.py")], cwd=ROOT,
                                 stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        ended = []  # the board tier's (exit code, wall s, CPU s), once it ends
        watch = threading.Thread(target=lambda: ended.append(waited(board) + (time.monotonic() - t0,)))
        watch.start()
        try:
            rules = 0
            for heading, name, cmd in rules_steps(lib) if lib is not None else []:
                print("== " + heading, flush=True)
                code, wall, cpu = timed([sys.executable, str(ROOT / "tests" / "run_logged.py"),
                                         str(Path(logs) / name), "--"] + cmd, cwd=ROOT)
                rules |= code
                took.append((name[:-4], wall, cpu))
            print("== full suite under CPython, on every core (pytest-xdist; the rules runs above are read from "
                  "their logs), beside the board tier (its output follows pytest's)", flush=True)
            tests, wall, cpu = timed([sys.executable, "-m", "pytest"] + argv, cwd=ROOT)
            took.append(("pytest", wall, cpu))
            print("== the stock Pico firmware on an emulated RP2040 (tests/board; skipped, saying where to get it, "
                  "without the UF2)", flush=True)
            watch.join()
        except BaseException:
            os.killpg(board.pid, signal.SIGTERM)
            watch.join()
            raise
    chip, cpu, wall = ended[0]
    took.append(("board tier", wall, cpu))
    sys.stdout.write(LOG.read_text(encoding="utf-8", errors="replace"))
    print("tiers: " + "; ".join("%s %s wall, %s CPU" % (name, minutes(w), minutes(c)) for name, w, c in took)
          + " (the board tier beside the rest, from the start)")
    sys.stdout.flush()
    if rules != 0:
        print("tiers: a rules step failed (its log is in %s)" % logs)
    if tests != 0:
        print("tiers: pytest exited %d" % tests)
    if chip != 0:
        print("tiers: the board tier exited %d" % chip)
    return 1 if rules or tests or chip else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
