# One test file under MicroPython, for tests/upy_runner.py, which starts
# this in a fresh interpreter per file: micropython [-X heapsize=N]
# tests/upy_child.py LIB-OR-"" NAME. Kept tiny (comments, no docstrings)
# because its compiled code shares the capped heap with the test file.
import gc
import sys


def main():
    here = __file__ if "/" in __file__ else "./" + __file__
    tests = here[: here.rfind("/")]
    sys.path.insert(0, tests + "/rules")
    sys.path.insert(0, tests[: tests.rfind("/")] if "/" in tests else ".")
    if sys.argv[1]:
        sys.path.insert(0, sys.argv[1])
    name = sys.argv[2]
    passed = failed = 0
    try:
        module = __import__(name)
    except Exception as e:
        print("FAIL %s (import)" % name)
        sys.print_exception(e)
        print("FILE-RESULT 0 1")
        return
    for attr in sorted(dir(module)):
        fn = getattr(module, attr)
        if attr.startswith("test_") and callable(fn):
            try:
                fn()
                passed += 1
            except Exception as e:
                failed += 1
                print("FAIL %s.%s" % (name, attr))
                sys.print_exception(e)
            fn = None
            gc.collect()
    print("FILE-RESULT %d %d" % (passed, failed))


main()
