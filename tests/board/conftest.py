"""The board tier: the stock MicroPython firmware on an emulated Pico
(harness.py). It runs only through its own runner, tests/board/run.py,
which sets MOONTABLE_BOARD_TIER: a plain `pytest` over tests/ skips this
folder, since the tier takes minutes and needs the firmware file."""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for p in (str(ROOT), str(ROOT / "tests" / "sim"), str(HERE)):
    if p not in sys.path:
        sys.path.append(p)

if not os.environ.get("MOONTABLE_BOARD_TIER"):
    collect_ignore_glob = ["test_*.py"]
else:
    from forking import pytest_runtest_protocol  # noqa: E402,F401  (each test in a fork: forking.py)


def pytest_configure(config):
    config.addinivalue_line("markers", "starts_from(name): the test forks from the chip forking.chip(name)")
    config.addinivalue_line("markers", "gives_way: the class is off the longest chain of chips (forking._nice)")
