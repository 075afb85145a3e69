"""Runs the dual-interpreter rules tests (tests/rules/test_*.py) under
MicroPython, where pytest does not exist.

    micropython -X heapsize=72K tests/upy_runner.py [--heap 72K] [--lib DIR] [NAME-FILTER]

--lib DIR puts DIR first on the path: tests/upy_build.py compiles the rules
core to .mpy there, which is what the board runs.

Every module-level function named test_* is called with no arguments; an
exception is a failure (tests/upy_child.py runs one file). Prints one line per failure with its traceback, then
"N passed, N failed", and exits 1 on any failure (2 if nothing ran).
Each file runs in its own child interpreter with the same heap cap, so the
cap applies to one test file at a time, not to the suite.
"""

import os
import sys


def _here():
    path = __file__ if "/" in __file__ else "./" + __file__
    return path[: path.rfind("/")]


HEAP = "72K"  # each child's -X heapsize; `--heap 48K` changes it


def run_child(name, heap, lib):
    """Run one test file in a fresh interpreter with the same heap cap.

    MicroPython never frees interned strings (qstrs), so a long run in one
    process would see the heap shrink file after file; a process per file
    keeps the cap meaning the same thing for every file. The child runs
    tests/upy_child.py, a few lines, so the cap is left to the test."""
    tag = "".join("%02x" % b for b in os.urandom(6))
    out = "/tmp/upy_runner_%s_%s.txt" % (tag, name)
    cmd = "'%s' -X heapsize=%s '%s' '%s' %s > '%s' 2>&1" % (
        sys.executable, heap, _here() + "/upy_child.py", lib or "", name, out)
    os.system(cmd)
    passed = failed = 0
    seen = False
    with open(out) as f:
        for line in f:
            if line.startswith("FILE-RESULT "):
                parts = line.split()
                passed, failed = int(parts[1]), int(parts[2])
                seen = True
            else:
                sys.stdout.write(line)
    os.remove(out)
    if not seen:
        print("FAIL %s (the interpreter died before reporting)" % name)
        failed += 1
    return passed, failed


def main():
    tests_dir = _here()
    if tests_dir == ".":
        root = ".."
    elif "/" in tests_dir:
        root = tests_dir[: tests_dir.rfind("/")]
    else:
        root = "."
    rules_dir = tests_dir + "/rules"
    sys.path.insert(0, rules_dir)
    sys.path.insert(0, root)
    args = sys.argv[1:]
    lib = None
    if len(args) >= 2 and args[0] == "--lib":
        lib = args[1]
        args = args[2:]
        sys.path.insert(0, lib)
    heap = HEAP
    if len(args) >= 2 and args[0] == "--heap":
        heap = args[1]
        args = args[2:]
    wanted = args[0] if args else ""
    names = sorted(n[:-3] for n in os.listdir(rules_dir) if n.startswith("test_") and n.endswith(".py"))
    print("heap cap per test file: -X heapsize=%s; rules core from %s" % (heap, lib or "source"))
    passed = failed = 0
    for name in names:
        if wanted and wanted not in name:
            continue
        p, f = run_child(name, heap, lib)
        passed += p
        failed += f
    print("%d passed, %d failed" % (passed, failed))
    if failed:
        sys.exit(1)
    if not passed:
        sys.exit(2)


main()
