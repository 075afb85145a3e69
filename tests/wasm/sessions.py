"""The scripted sessions measured and checked under the 32-bit interpreter:
the very button scripts of the simulator tests (tests/sim), imported, never
copied, so they keep matching the firmware's screens.

run_session(name, folder, wasm=True, romfs=None) plays one under the 32-bit
interpreter (or, with wasm=False, the unix port) and returns what it left:
the journal's events, the replayed end state and the runner's heap figures.

"evening" is not one game but a table's evening in one boot, never
restarted: the four games' scripts one after another on the same board,
then the settings menu and a sync of every game to a PC (host/sync.py
over the board's serial link). Names a module ever loaded stay interned
for the rest of the boot, so this is the longest-lived heap a user meets.
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


class SerialPort:
    """The board's USB serial as pyserial's interface (write, read,
    in_waiting), so host/sync.py's Link talks to the app in its loop: a read
    with nothing waiting lets the board run a loop pass."""

    def __init__(self, board):
        self.board = board
        self.seen = len(board.serial_out)

    def _fresh(self):
        return len(self.board.serial_out) - self.seen

    @property
    def in_waiting(self):
        if not self._fresh():
            self.board.tick(20)
        return self._fresh()

    def read(self, n=1):
        for _ in range(500):
            if self._fresh():
                break
            self.board.tick(20)
        data = bytes(self.board.serial_out[self.seen:self.seen + n])
        self.seen += len(data)
        return data

    def write(self, data):
        self.board.send_serial(bytes(data))
        return len(data)

    def flush(self):
        pass

    def reset_input_buffer(self):
        self.seen = len(self.board.serial_out)

    def close(self):
        pass


def evening(folder):
    """Every game's script in one boot (module doc), then the settings menu
    and a sync."""
    from moontable.db import Database
    from moontable.serial_link import Link
    from moontable.sync import sync

    folder = Path(folder)
    board = []
    real_new_board = simtools.new_board

    def same_board(tmp_path, seed=7):
        if not board:
            b = real_new_board(tmp_path, seed)
            b.kill = lambda: None  # each game's script ends with a kill: the evening goes on
            board.append(b)
        else:  # back Home from the last game's end (its BACK: Home)
            board[0].press("back")
        return board[0]

    try:
        with _Patch([(simtools, "new_board", same_board)]):
            for name in ("moonstar", "shoot-the-moon", "moon", "moons"):
                SESSIONS[name](folder)
        b = board[0]
        b.press("back")  # the game over: Home
        simtools.choose(b, "Settings")
        simtools.choose(b, "Bid time")
        b.press("up")
        b.press("ok")
        b.press("back")
        db = Database.open(str(folder / "evening.db"))
        try:
            result = sync(Link(SerialPort(b), timeout=5.0), db, roster=True, clock=True)
        finally:
            db.close()
        assert len(result.stored) >= 4 and not result.quarantined, (result.stored, result.quarantined)
        simtools.no_faults(b)
    finally:
        if board:
            type(board[0]).kill(board[0])


SESSIONS["evening"] = evening


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
