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
# Tests that load app.py itself: its own run (see below).
APP_MODULES = ["test_ms_best", "test_form", "test_prepare", "test_still"]


def micropython():
    found = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    assert os.path.exists(found), "micropython is not installed: run `make test`"
    return found


def run_upy(modules, heap):
    """Run the modules' tests under MicroPython; the number that passed."""
    env = dict(os.environ, MICROPYPATH="firmware:.:tests/firmware")
    proc = subprocess.run(
        [micropython(), "-X", "heapsize=" + heap, "tests/firmware/upy_run.py"] + modules,
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    out = proc.stdout + proc.stderr
    m = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    print("micropython firmware tests: %s" % (m.group(0) if m else "no summary"))
    assert m and proc.returncode == 0 and m.group(2) == "0", out
    return int(m.group(1))


def test_firmware_logic_passes_under_micropython():
    assert run_upy(MODULES, "64K") >= 19


def test_pin_button_latch_passes_under_micropython():
    # Its own run: with the three above, 64K runs out (the board's pin layer
    # is loaded beside buttons.py here).
    assert run_upy(["test_pin_buttons"], "64K") >= 7


def test_app_level_logic_passes_under_micropython():
    # Its own run with 164K: here app.py, the screens and the solver's
    # modules are compiled from source and kept together (app.py alone
    # keeps some 23 KB since the visual alarm, the boot clock and the
    # roster check; 154K is the least that passes today, since the
    # result screen imports the plan's scoring plainly). On a board the
    # app is loaded anyway and a game's whole session, the best-possible
    # screen included, is proved by tests/sim at simtools.TEST_HEAP.
    assert run_upy(APP_MODULES, "164K") >= 15


def test_app_serial_logic_passes_under_micropython():
    # Its own run: app.py and the serial protocol's code, compiled from
    # source, beside the solver's run out of 152K.
    assert run_upy(["test_app_serial"], "128K") >= 4


def test_session_logic_passes_under_micropython():
    # Its own run, 192K: the Moonstar rules, each handler module and
    # legal() are compiled from source here, and the test loads them again
    # after every event (the board loads them as .mpy: tests/sim).
    assert run_upy(["test_session"], "192K") >= 15


def test_standings_screen_passes_under_micropython():
    # Its own run, 144K: the rules of two games are compiled from source
    # here (the board loads them as .mpy, one game at a time).
    assert run_upy(["test_standings_screen"], "144K") >= 2


def test_every_firmware_file_compiles_under_micropython():
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "firmware").rglob("*.py"))
    assert "firmware/main.py" in files and "firmware/app.py" in files
    for f in files:
        proc = subprocess.run([micropython(), "-X", "compile-only", f], cwd=ROOT, capture_output=True, text=True)
        assert proc.returncode == 0, "%s: %s" % (f, proc.stdout + proc.stderr)
