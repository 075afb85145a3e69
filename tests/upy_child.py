# One test file under MicroPython, for tests/upy_runner.py, which starts
# this in a fresh interpreter per file: micropython [-X heapsize=N]
# tests/upy_child.py LIB-OR-"" NAME. Kept tiny (comments, no docstrings)
# because its compiled code shares the capped heap with the test file.
# With a LIB (tests/upy_build.py: rules core and test files as .mpy) the
# child works from inside it, so module paths are as short as on a board
# and the heap's layout does not depend on where the checkout lives.
import gc
import os
import sys


def unload(base):
    # and unlinked from their packages, or the package keeps the old copy
    for k in [k for k in sys.modules if k not in base]:
        del sys.modules[k]
        i = k.rfind(".")
        parent = sys.modules.get(k[:i]) if i > 0 else None
        if parent is not None and hasattr(parent, k[i + 1:]):
            delattr(parent, k[i + 1:])


def main():
    # Collect every 4 KB allocated: garbage then cannot spread among the
    # long-lived code of imports (fragmentation). The cap is 72K; at 64K
    # some tests run out since the rules' parts import what they always
    # use plainly, and at 68K all pass.
    gc.threshold(4096)
    here = __file__ if "/" in __file__ else "./" + __file__
    tests = here[: here.rfind("/")]
    if tests[0] != "/":
        tests = os.getcwd() + "/" + tests
    sys.path.insert(0, tests + "/rules")
    sys.path.insert(0, tests[: tests.rfind("/")])
    if sys.argv[1]:
        os.chdir(sys.argv[1])
        sys.path.insert(0, "")
    name = sys.argv[2]
    passed = failed = 0
    try:
        module = __import__(name)
    except Exception as e:
        print("FAIL %s (import)" % name)
        sys.print_exception(e)
        print("FILE-RESULT 0 1")
        return
    # What a test loads goes after it (as a board lets a moment's code go),
    # so each test starts from the file's own imports: the cap then bounds
    # every test alone, whatever ran before it in the file.
    base = set(sys.modules)
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
            unload(base)
            gc.collect()
    print("FILE-RESULT %d %d" % (passed, failed))


main()
