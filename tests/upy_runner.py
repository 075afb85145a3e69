"""Runs the dual-interpreter rules tests (tests/rules/test_*.py) under
MicroPython, where pytest does not exist.

    micropython -X heapsize=64K tests/upy_runner.py [NAME-FILTER]

Every module-level function named test_* is called with no arguments; an
exception is a failure. Prints one line per failure with its traceback, then
"N passed, N failed", and exits 1 on any failure (2 if nothing ran).
Modules are unloaded after they run, so the heap cap measures one test file
at a time rather than the whole suite.
"""

import gc
import os
import sys


def _here():
    path = __file__ if "/" in __file__ else "./" + __file__
    return path[: path.rfind("/")]


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
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    names = sorted(n[:-3] for n in os.listdir(rules_dir) if n.startswith("test_") and n.endswith(".py"))
    passed = failed = 0
    for name in names:
        if wanted and wanted not in name:
            continue
        gc.collect()
        try:
            module = __import__(name)
        except Exception as e:
            failed += 1
            print("FAIL %s (import)" % name)
            sys.print_exception(e)
            continue
        for attr in sorted(dir(module)):
            if not attr.startswith("test_"):
                continue
            fn = getattr(module, attr)
            if not callable(fn):
                continue
            try:
                fn()
                passed += 1
            except Exception as e:
                failed += 1
                print("FAIL %s.%s" % (name, attr))
                sys.print_exception(e)
            gc.collect()
        del sys.modules[name]
        module = None
    print("%d passed, %d failed" % (passed, failed))
    if failed:
        sys.exit(1)
    if not passed:
        sys.exit(2)


main()
