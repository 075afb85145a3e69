"""The firmware's headless sessions under the 32-bit interpreter: the same
scripted complete game of each of the four games as tests/sim (imported,
never copied), through the real app and screens and the sim board's link,
must end in the same game state and journal as on the unix port; a restart
resumes the game as on the unix port; and the peak live heap of every
session stays within the device's budget (tests/budgets.py; bench/memory.py
prints the same figures), from .mpy files on flash and from the ROMFS
image (PEAKS)."""

import pytest

import simtools
from budgets import HEAP_KB
import test_sim_boot
from sessions import SESSIONS, run_session
from wasmkit import WasmBoard

GAMES = ("moonstar", "shoot-the-moon", "moon", "moons")
_RUNS = {}


def wasm_run(game, layout, tmp_path_factory):
    """One 32-bit run per session and layout, shared by the tests here."""
    key = (game, layout)
    if key not in _RUNS:
        folder = tmp_path_factory.mktemp("%s-%s" % key)
        _RUNS[key] = run_session(game, folder, wasm=True, romfs=True if layout == "romfs" else None)
    return _RUNS[key]


def comparable(run):
    """What must be equal between the ports: every event, the end state,
    and the header but for the volume tag in the game id (random)."""
    header = dict(run["header"])
    header["id"] = header["id"].split("-")[0]
    return run["events"], run["state"], header


@pytest.mark.parametrize("game", GAMES)
def test_a_session_ends_as_on_the_unix_port(game, tmp_path, tmp_path_factory):
    under_wasm = wasm_run(game, "flash", tmp_path_factory)
    under_unix = run_session(game, tmp_path / "unix", wasm=False)
    assert comparable(under_wasm) == comparable(under_unix)
    assert under_wasm["state"].get("over"), under_wasm["state"]


def test_a_session_from_the_romfs_image_ends_as_from_files(tmp_path_factory):
    """The app booted from the image `moontable flash --romfs` builds
    (main.py and board.json alone on the flash) plays the same game."""
    assert comparable(wasm_run("moon", "romfs", tmp_path_factory)) == comparable(wasm_run("moon", "flash", tmp_path_factory))


def test_a_restart_resumes_the_game_and_undo_still_works(tmp_path, monkeypatch):
    monkeypatch.setattr(simtools, "SimBoard", WasmBoard)
    monkeypatch.setattr(test_sim_boot, "SimBoard", WasmBoard)
    test_sim_boot.test_restart_resumes_and_undo_still_works(tmp_path)


# Every session from .mpy files on flash. From the ROMFS image: the
# evening, which plays the four games' very scripts one after another in
# one boot, so its peak bounds each game's own; Moon, run for the test
# above anyway; and the Game 7 round, which the evening does not play.
PEAKS = [(game, "flash") for game in SESSIONS] + [(game, "romfs") for game in ("evening", "moon", "moonstar-game7")]


@pytest.mark.parametrize("game,layout", PEAKS)
def test_peak_live_heap_is_within_the_32_bit_budget(game, layout, tmp_path_factory):
    peak_kb = wasm_run(game, layout, tmp_path_factory)["heap"]["peak"] / 1024
    budget = HEAP_KB  # one budget: ROMFS, which keeps the code out of the heap, is always lower
    assert peak_kb <= budget, "%s (%s): peak live heap %.1f KB, budget %d KB" % (game, layout, peak_kb, budget)
