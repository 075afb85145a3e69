"""Runner of the board tier: the stock MicroPython firmware for the Pico on
an emulated RP2040 (tests/board/harness.py), driven by tests/board/test_*.py.

    .venv/bin/python tests/board/run.py [pytest options]

Prints its closing line, `rp2040: N passed, N failed`, alone on a line and
exits non-zero when a test failed. The tests run in a worker a class
(pytest-xdist), each forked from a chip booted once (tests/board/
forking.py). Without the firmware file (looked for in $MOONTABLE_PICO_UF2,
else ../shared/firmware/ beside the checkout) it says in one line that the
tier was skipped and where to get the file, and exits 0.
"""

import ast
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE)]

import forking  # noqa: E402
import harness  # noqa: E402


class Count:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call" and report.passed:
            self.passed += 1
        elif report.failed:
            self.failed += 1


def classes():
    """How many test classes the tier has: it runs a worker for each, so
    that its longest class, not two classes one after the other, is what
    the rest of `make test` waits on at the end (on two cores the workers
    share them with pytest's)."""
    return sum(1 for f in HERE.glob("test_*.py") for node in ast.parse(f.read_text()).body
               if isinstance(node, ast.ClassDef) and node.name.startswith("Test"))


def main(argv):
    if harness.find_uf2() is None:
        print("rp2040: skipped, no stock Pico firmware: put %s in %s or name it in $MOONTABLE_PICO_UF2 (get it from %s)"
              % (harness.UF2_NAME, harness.ROOT.parent / "shared" / "firmware", harness.UF2_URL))
        return 0
    import pytest

    os.environ["MOONTABLE_BOARD_TIER"] = "1"
    # the simulator's `micropython` (the unix port) and `moontable` beside this Python
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")
    count = Count()
    with tempfile.TemporaryDirectory(prefix="moontable-board-") as handoff:
        # where a class's chip hands data over to another class's test (forking.hand_over)
        os.environ[forking.HANDOFF] = handoff
        # a worker a class, each class the tests that start from one chip
        # (forking.py); `-n 0` runs them here
        code = pytest.main([str(HERE), "-p", "no:cacheprovider", "-q", "-n", str(classes()), "--dist", "loadscope"]
                           + argv, plugins=[count])
    print("rp2040: %d passed, %d failed" % (count.passed, count.failed))
    return 1 if count.failed or code not in (0, 5) or count.passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
