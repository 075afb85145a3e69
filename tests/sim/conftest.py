"""Simulator tests run the firmware under the real MicroPython; the
helpers in simtools.py are imported by name from this folder."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
ROOT = str(Path(__file__).resolve().parents[2])
for p in (ROOT, HERE):
    if p not in sys.path:
        sys.path.append(p)
