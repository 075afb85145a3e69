"""Runs the plain test_* functions of chosen tests/firmware modules under
MicroPython, with firmware/ as the import root as on a board:

    MICROPYPATH=firmware:.:tests/firmware micropython upy_run.py test_buttons ...

Prints "N passed, N failed"; exit status 1 on any failure."""

import gc
import sys


def main():
    passed = failed = 0
    for name in sys.argv[1:]:
        module = __import__(name)
        for attr in sorted(dir(module)):
            if not attr.startswith("test_"):
                continue
            # Each test starts from a collected heap, as each pass of the
            # board's loop does: what one test left for the collector must
            # not decide, by where it lies in a 64K heap, whether the next
            # one finds a few KB in one piece.
            gc.collect()
            try:
                getattr(module, attr)()
                passed += 1
            except Exception as e:
                failed += 1
                print("FAIL %s.%s" % (name, attr))
                sys.print_exception(e)
    print("%d passed, %d failed" % (passed, failed))
    if failed or not passed:
        sys.exit(1)


main()
