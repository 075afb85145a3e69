"""Replay benchmark: how fast the rules core replays a long game log, on
CPython and on MicroPython, and how much heap the replay needs.

    .venv/bin/python bench/replay.py [--rounds 1000] [--seed 1] [--heap 64K]

Every bench/gen_*.py module found beside this file is a log generator
(`make_log(rounds, seed) -> [header, event, ...]`); each gives one line of
output. The log is written in the device journal's format (JSON + TAB +
CRC32 per line, shared_rules.wire) and replayed with shared_rules.log.Replay
from the file, so the figures include reading, CRC checking and JSON
decoding, as a replay at boot on the board does.

Figures per game:
- CPython events/s: best of 3 runs of Replay().feed on the file.
- micropython events/s: best of 3 runs under `micropython -X heapsize=HEAP`,
  timed with time.ticks_us inside MicroPython.
- peak live heap: the highest gc.mem_alloc() seen right after a
  gc.collect() following each event (the heap the replay keeps alive:
  match state, undo stack, rounds table), in a separate, untimed run.
- min heapsize: the smallest -X heapsize (1 KiB steps, bisection) with which
  the MicroPython replay completes; this includes each event's transient
  garbage and the interpreter's own needs, so it is what a board must spare.

The board's own target (>= 20,000 events/s under the unix micropython)
comes from issue 2: a Pico is about 50x slower.
"""

import argparse
import glob
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET_UPY = 20000

UPY_SCRIPT = r"""
import gc, sys, time
root, path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, root)
# Collect at least every 64 KB allocated, as a board's heap that size
# would. Left to collect only when a 1M heap is full, the unix port
# spreads each event's garbage over the whole heap with the long-lived
# rounds table in between, and the table's next 8 KB step finds no room
# (a MemoryError with a seventh of the heap live, depending on nothing
# more than the length of this script's path).
gc.threshold(64 * 1024)
from shared_rules.log import Replay, iter_lines, parse_line

def timed():
    best = 0
    events = 0
    for _ in range(3):
        gc.collect()
        f = open(path, "rb")
        t0 = time.ticks_us()
        rep = Replay().feed(f)
        us = time.ticks_diff(time.ticks_us(), t0)
        f.close()
        events = rep.events
        rate = events * 1000000 // us
        if rate > best:
            best = rate
        rep = None
    print("events %d rate %d" % (events, best))

def heap():
    gc.collect()
    base = gc.mem_alloc()
    peak = 0
    rep = Replay()
    f = open(path, "rb")
    for lineno, raw, last in iter_lines(f):
        obj = parse_line(raw, lineno, last)
        if rep.match is None:
            rep.start(obj, lineno)
        else:
            rep.step(obj, lineno)
        obj = raw = None
        gc.collect()
        a = gc.mem_alloc()
        if a > peak:
            peak = a
    f.close()
    print("peak %d base %d events %d" % (peak, base, rep.events))

if mode == "time":
    timed()
elif mode == "heap":
    heap()
else:
    rep = Replay().feed(open(path, "rb"))
    print("ok %d" % rep.events)
"""


def micropython():
    for cand in (os.path.join(ROOT, ".venv", "bin", "micropython"), shutil.which("micropython")):
        if cand and os.path.exists(cand):
            return cand
    return None


def generators():
    """name -> module for every bench/gen_*.py."""
    sys.path.insert(0, HERE)
    sys.path.insert(0, ROOT)
    found = {}
    for path in sorted(glob.glob(os.path.join(HERE, "gen_*.py"))):
        name = os.path.basename(path)[:-3]
        found[name[4:]] = importlib.import_module(name)
    return found


def write_log(lines, path):
    from shared_rules.wire import encode

    with open(path, "wb") as f:
        for obj in lines:
            f.write(encode(obj))


def cpython_rate(path):
    from shared_rules.log import Replay

    best = 0.0
    events = 0
    for _ in range(3):
        with open(path, "rb") as f:
            t0 = time.perf_counter()
            rep = Replay().feed(f)
            dt = time.perf_counter() - t0
        events = rep.events
        best = max(best, events / dt)
    return events, len(rep.rounds), best


def run_upy(upy, script, path, mode, heap):
    proc = subprocess.run([upy, "-X", "heapsize=" + heap, script, ROOT, path, mode],
                          capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout.strip() + proc.stderr.strip()


def min_heapsize(upy, script, path):
    """Smallest heapsize in KiB with which the replay completes."""
    low, high = 16, 1024
    code, _ = run_upy(upy, script, path, "run", "%dK" % high)
    if code != 0:
        return None
    while low < high:
        mid = (low + high) // 2
        code, _ = run_upy(upy, script, path, "run", "%dK" % mid)
        if code == 0:
            high = mid
        else:
            low = mid + 1
    return high


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--heap", default="1M", help="micropython -X heapsize for the timed runs")
    args = ap.parse_args(argv)
    upy = micropython()
    gens = generators()
    if not gens:
        print("no bench/gen_*.py generators found")
        return 1
    tmp = tempfile.mkdtemp(prefix="moontable-bench-")
    script = os.path.join(tmp, "upy_replay.py")
    with open(script, "w") as f:
        f.write(UPY_SCRIPT)
    print("replay of a %d-round log per game (journal format with CRC); micropython timed with -X heapsize=%s"
          % (args.rounds, args.heap))
    status = 0
    for name, mod in gens.items():
        lines = mod.make_log(args.rounds, args.seed)
        path = os.path.join(tmp, name + ".jsonl")
        write_log(lines, path)
        events, rounds, cpy = cpython_rate(path)
        line = "%s: %d events, %d rounds | CPython %d ev/s" % (name, events, rounds, cpy)
        if upy is None:
            print(line + " | micropython not found")
            status = 1
            continue
        code, out = run_upy(upy, script, path, "time", args.heap)
        if code != 0 or not out.startswith("events"):
            print(line + " | micropython failed: " + out[-300:])
            status = 1
            continue
        rate = int(out.split()[3])
        line += " | micropython %d ev/s (%s)" % (rate, "meets" if rate >= TARGET_UPY else "MISSES")
        line += " target %d" % TARGET_UPY
        code, out = run_upy(upy, script, path, "heap", "512K")
        if code == 0 and out.startswith("peak"):
            parts = out.split()
            line += " | peak live heap %d B (interpreter base %d B)" % (int(parts[1]), int(parts[3]))
        kib = min_heapsize(upy, script, path)
        line += " | min heapsize %sK" % kib
        print(line)
        if rate < TARGET_UPY:
            status = 1
    shutil.rmtree(tmp, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
