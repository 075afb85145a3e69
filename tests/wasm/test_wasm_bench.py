"""bench/memory.py --bits 32 --json: one JSON object, a figure per layout,
and the ROMFS layout's heap well under the files' (the image keeps the
bytecode out of the heap). One session, to keep the suite short; the
budgets of all of them are test_wasm_sessions.py's."""

import json
import subprocess
import sys

from wasmkit import ROOT


def test_memory_bench_prints_both_layouts_as_json():
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "memory.py"), "--bits", "32", "--json", "--games", "moon"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    figures = json.loads(proc.stdout)
    assert list(figures) == ["moon"] and sorted(figures["moon"]) == ["flash", "romfs"]
    flash, romfs = figures["moon"]["flash"], figures["moon"]["romfs"]
    assert 20 < romfs < flash * 0.75, figures  # KB
