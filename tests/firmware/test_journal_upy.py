"""Runs the storage and journal tests again under the real MicroPython
unix port, with firmware/ as the import root as on a board, each module in
its own process and capped heap. Here the modules are compiled from source
(link/protocol.py alone takes tens of KB of compiler heap, with 8-byte words);
a board loads them as .mpy. A missing micropython is a failure, not a skip."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Each heap holds the tests and the compiler, which compiles a module each
# time it is imported: in test_storage_hostile every read of a small file
# imports store/repair.py (loaded for the call, then let go) and the line
# reader (shared_rules/wire_read.py) from source, mid-test.
RUNS = [("test_storage_hostile", "128K", 6), ("test_journal_listing", "160K", 10), ("test_journal_times", "160K", 6)]


def micropython():
    found = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    assert os.path.exists(found), "micropython is not installed: run `make test`"
    return found


@pytest.mark.parametrize("module,heap,count", RUNS)
def test_passes_under_micropython(module, heap, count):
    env = dict(os.environ, MICROPYPATH="firmware:.:tests/firmware")
    proc = subprocess.run(
        [micropython(), "-X", "heapsize=" + heap, "tests/firmware/upy_run.py", module],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    out = proc.stdout + proc.stderr
    m = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    assert m and proc.returncode == 0 and m.group(2) == "0", out
    assert int(m.group(1)) == count, out
