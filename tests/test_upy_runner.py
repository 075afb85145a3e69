"""The MicroPython runner itself must report failures: a copy of it is run
over a throw-away rules folder with one passing, one failing and one
unimportable test file."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_runner(tmp_path, files):
    """Run a copy of tests/upy_runner.py (and its upy_child.py) over tmp_path/tests/rules holding
    these files (name -> source); the finished process."""
    micropython = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    tests = tmp_path / "tests"
    (tests / "rules").mkdir(parents=True)
    for name in ("upy_runner.py", "upy_child.py"):
        shutil.copy(ROOT / "tests" / name, tests / name)
    for name, source in files.items():
        (tests / "rules" / name).write_text(source)
    return subprocess.run([micropython, "-X", "heapsize=64K", str(tests / "upy_runner.py")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)


def test_runner_counts_and_exits_nonzero_on_failure(tmp_path):
    proc = run_runner(tmp_path, {"test_a.py": "def test_ok():\n    assert 1 + 1 == 2\n\ndef test_bad():\n    assert 1 == 2\n",
                                 "test_b.py": "import no_such_module\n"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAIL test_a.test_bad" in proc.stdout
    assert "FAIL test_b (import)" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == "1 passed, 2 failed"


def test_runner_exits_zero_when_all_pass(tmp_path):
    proc = run_runner(tmp_path, {"test_a.py": "def test_ok():\n    assert True\n"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "1 passed, 0 failed"
