"""Simulator tests run the firmware under the real MicroPython; the
helpers in simtools.py are imported by name from this folder.

Every board these tests start gets the capped heap TEST_HEAP (unless
$MOONSIM_HEAP says otherwise, as bench/memory.py does), so the complete
games of all four games prove that a session fits it."""

import os
import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
ROOT = str(Path(__file__).resolve().parents[2])
for p in (ROOT, HERE):
    if p not in sys.path:
        sys.path.append(p)

from simtools import TEST_HEAP  # noqa: E402


@pytest.fixture(autouse=True)
def _capped_heap(monkeypatch):
    if not os.environ.get("MOONSIM_HEAP"):
        monkeypatch.setenv("MOONSIM_HEAP", TEST_HEAP)
