"""Runs the firmware's pure-logic tests again under the real MicroPython
unix port with a 64 KB heap, with firmware/ as the import root (as on a
board). A missing micropython is a failure, not a skip."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = ["test_buttons", "test_sound", "test_bigdigits"]


def micropython():
    found = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    assert os.path.exists(found), "micropython is not installed: run `make test`"
    return found


def test_firmware_logic_passes_under_micropython():
    env = dict(os.environ, MICROPYPATH="firmware:.:tests/firmware")
    proc = subprocess.run(
        [micropython(), "-X", "heapsize=64K", "tests/firmware/upy_run.py"] + MODULES,
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    out = proc.stdout + proc.stderr
    m = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    print("micropython firmware tests: %s" % (m.group(0) if m else "no summary"))
    assert m and proc.returncode == 0 and m.group(2) == "0", out
    assert int(m.group(1)) >= 19, out


def test_every_firmware_file_compiles_under_micropython():
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "firmware").rglob("*.py"))
    assert "firmware/main.py" in files and "firmware/app.py" in files
    for f in files:
        proc = subprocess.run([micropython(), "-X", "compile-only", f], cwd=ROOT, capture_output=True, text=True)
        assert proc.returncode == 0, "%s: %s" % (f, proc.stdout + proc.stderr)
