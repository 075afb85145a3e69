"""Inside the 32-bit interpreter: the runner contract of tests/upy_runner.py
for one test file (every module-level test_* function called with no
arguments; an exception is a failure, printed as "FAIL module.name" and its
traceback). tests/wasm/rules.mjs calls load() once, then call() once per
test, each from JS: the port collects garbage only between such calls.
Answers are plain strings and booleans, which cross to JS by value."""

import sys

_mod = None


def load(name):
    """Import test file `name`; its test names, space-separated, or None
    (after printing the failure) if it does not import."""
    global _mod
    try:
        _mod = __import__(name)
    except Exception as e:
        print("FAIL %s (import)" % name)
        sys.print_exception(e)
        return None
    return " ".join(sorted(a for a in dir(_mod) if a.startswith("test_") and callable(getattr(_mod, a))))


def call(attr):
    """Run one test; True if it passed."""
    try:
        getattr(_mod, attr)()
        return True
    except Exception as e:
        print("FAIL %s.%s" % (_mod.__name__, attr))
        sys.print_exception(e)
        return False
