"""Input effort may only shrink: each game's press count along the
shortest path (bench/presses.py, through the real firmware in the
simulator) stays at or below the figure recorded here. Lower it when the
device gets quicker to use; never raise it to make a change pass."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import presses  # noqa: E402

# (start, round) ceilings: the figures reached. Issue #11 started from
# Moonstar 12/36, Shoot the Moon 10/30, Moon 9/42, Moons 9/61; its target
# is 60% of each round (Moonstar 21, Shoot the Moon 18, Moon 25, Moons 36).
CEILING = {
    "moonstar": (12, 19),
    "shoot-the-moon": (10, 18),
    "moon": (9, 24),
    "moons": (9, 34),
}


@pytest.mark.parametrize("game", presses.ORDER)
def test_presses_do_not_grow(game):
    got = presses.play(game)
    start, rnd = CEILING[game]
    assert got["start"] <= start, got
    assert got["round"] <= rnd, got
