"""The 32-bit (WebAssembly) MicroPython tests: the helpers in wasmkit.py
and the simulator tests' scripts (tests/sim) are imported by name."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for p in (ROOT, HERE, ROOT / "tests" / "sim"):
    if str(p) not in sys.path:
        sys.path.append(str(p))
