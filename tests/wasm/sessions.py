"""The scripted sessions measured and checked under the 32-bit interpreter:
the very button scripts of the simulator tests (tests/sim), imported, never
copied, so they keep matching the firmware's screens.

run_session(name, folder, wasm=True, romfs=None) plays one under the 32-bit
interpreter (or, with wasm=False, the unix port) and returns what it left:
the journal's events, the replayed end state and the runner's heap figures.
"""

import os
from pathlib import Path

import simtools
import test_sim_games
import test_sim_moonstar
from wasmkit import WasmBoard

SESSIONS = {
    "moonstar": test_sim_moonstar.test_moonstar_full_game,
    "shoot-the-moon": test_sim_games.test_shoot_the_moon_full_game,
    "moon": test_sim_games.test_moon_dominoes_full_game,
    "moons": test_sim_games.test_moons_full_game,
    # not a whole game: one Game 7 round, whose best-possible screen runs
    # the solver's branch and bound (the largest solve)
    "moonstar-game7": test_sim_moonstar.test_best_possible_after_a_squares_round,
}


class _Patch:
    """Sets attributes for the length of a run and puts them back."""

    def __init__(self, pairs):
        self.pairs = pairs

    def __enter__(self):
        self.old = [(o, n, getattr(o, n)) for o, n, _ in self.pairs]
        for o, n, v in self.pairs:
            setattr(o, n, v)

    def __exit__(self, *exc):
        for o, n, v in self.old:
            setattr(o, n, v)


def run_session(name, folder, wasm=True, romfs=None, heap=None, prelude=None):
    """Play session `name` with its flash under `folder` (`romfs=True`: laid
    out as `moontable flash --romfs` does; `prelude`: code main.py runs
    first). Returns
    {"events", "state", "header", "heap"} ("heap": the 32-bit runner's
    figures, or None on the unix port)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    boards = []

    def make(flash, *a, **k):
        if wasm:
            b = WasmBoard(flash, *a, romfs=romfs, prelude=prelude, **k)
        else:
            b = simtools.__dict__["_unix_board"](flash, *a, **k)
        boards.append(b)
        return b

    patches = [(simtools, "SimBoard", make), (simtools, "snap", lambda board, name: None)]
    simtools.__dict__.setdefault("_unix_board", simtools.SimBoard)
    old_heap = os.environ.get("MOONSIM_HEAP")
    os.environ["MOONSIM_HEAP"] = heap or simtools.TEST_HEAP  # the unix port's cap, as in tests/sim
    try:
        with _Patch(patches):
            SESSIONS[name](folder)
    finally:
        if old_heap is None:
            os.environ.pop("MOONSIM_HEAP", None)
        else:
            os.environ["MOONSIM_HEAP"] = old_heap
    flash = folder / "flash"
    m = simtools.replay(flash)
    return {
        "events": simtools.journal_events(flash),
        "state": m.state,
        "header": m.header,
        "heap": boards[-1].heap_stats() if wasm else None,
    }
