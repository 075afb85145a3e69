"""The rules-core tests under the 32-bit interpreter (MicroPython's
WebAssembly port), compiled to .mpy as on the board, and the 32-bit
runner's own contract: it counts, reports and fails like
tests/upy_runner.py. Under `make test` the rules' run is the Makefile's
own step, read from its log (rules_run). A missing Node or package fails, never skips."""

import re
import subprocess
import sys
from pathlib import Path

from wasmkit import ROOT, node_path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_micropython_rules import rules_run  # noqa: E402  (the Makefile's log, or a run here)

RULES_RUNNER = Path(__file__).resolve().parent / "rules.mjs"


def run_rules(*args, timeout=1200):
    return subprocess.run([node_path(), str(RULES_RUNNER), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def test_rules_suite_passes_under_wasm32(tmp_path):
    def run():
        sys.path.insert(0, str(ROOT / "tests"))
        from upy_build import build

        build(tmp_path)
        proc = run_rules("--lib", str(tmp_path))
        return proc.returncode, proc.stdout + proc.stderr

    code, out = rules_run("wasm-rules.log", run)
    summary = re.search(r"^wasm32: (\d+) passed, (\d+) failed$", out, re.M)
    print(summary.group(0) if summary else "wasm32: no summary")
    assert summary, "runner printed no summary:\n" + out
    assert code == 0 and summary.group(2) == "0", out
    # every test file ran: as many tests as CPython collects from tests/rules
    assert int(summary.group(1)) >= 200, out


def _fake_root(tmp_path, files):
    rules = tmp_path / "tests" / "rules"
    rules.mkdir(parents=True)
    for name, source in files.items():
        (rules / name).write_text(source)
    return tmp_path


def test_runner_counts_and_exits_nonzero_on_failure(tmp_path):
    root = _fake_root(tmp_path, {
        "test_a.py": "def test_ok():\n    assert 1 + 1 == 2\n\ndef test_bad():\n    assert 1 == 2\n",
        "test_b.py": "import no_such_module\n",
        "test_c.py": "def test_heap():\n    x = [bytearray(1000) for i in range(300)]\n    assert len(x) == 300\n",
    })
    proc = run_rules("--root", str(root), timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAIL test_a.test_bad" in proc.stdout and "AssertionError" in proc.stdout
    assert "FAIL test_b (import)" in proc.stdout and "no_such_module" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == "wasm32: 2 passed, 2 failed"


def test_runner_exits_zero_when_all_pass_and_two_when_nothing_ran(tmp_path):
    root = _fake_root(tmp_path, {"test_a.py": "def test_ok():\n    assert True\n"})
    proc = run_rules("--root", str(root), timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "wasm32: 1 passed, 0 failed"
    proc = run_rules("--root", str(root), "no-such-name", timeout=120)
    assert proc.returncode == 2 and proc.stdout.strip().splitlines()[-1] == "wasm32: 0 passed, 0 failed"
