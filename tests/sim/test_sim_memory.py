"""The heap is the device's scarcest resource, so the app loads code only
while it is needed: the serial protocol when a byte arrives (and unloads it
after SERIAL_IDLE_MS of silence), the menus only at Home, a game's screens
only while it is played. These check that the reloaded code still works
at every switch, under the tests' capped heap (conftest.py)."""

import re
import sys
from pathlib import Path

import simtools as st
from shared_rules.wire import encode
from shared_rules.wire_read import decode

_WASM = str(Path(__file__).resolve().parents[1] / "wasm")
if _WASM not in sys.path:
    sys.path.append(_WASM)  # wasmkit: the 32-bit interpreter


def replies(b):
    out = []
    for line in b.serial_text().splitlines():
        if line.startswith("{"):
            out.append(decode(line))
    return out


def hello(b, seq):
    b.send_serial(encode({"s": seq, "c": "hello"}))
    b.advance(200)
    got = [r for r in replies(b) if r.get("s") == seq]
    assert got and got[-1]["ok"] == 1 and got[-1]["fw"], b.serial_text()


def test_protocol_loads_on_a_byte_and_again_after_idle(tmp_path):
    b = st.new_board(tmp_path)
    try:
        hello(b, 1)
        b.advance(31000)  # past SERIAL_IDLE_MS: the protocol is unloaded
        hello(b, 2)
        st.no_faults(b)
    finally:
        b.kill()


def test_home_and_game_screens_swap_back_and_forth(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.choose(b, "New game")
        st.choose(b, "Moon (dominoes)")
        st.set_number(b, 5, 21)
        st.choose(b, "Seat 1")
        for _ in range(3):
            b.press("ok")
        assert "bidding" in st.screen(b)
        for _ in range(2):
            b.press("back")  # the game menu
            st.choose(b, "Home", exact=True)
            assert "Resume game" in st.screen(b)
            st.choose(b, "Resume game")
            assert "bidding" in st.screen(b)
        b.press("ok")
        assert "P1: bid or pass?" in st.screen(b)
        st.choose(b, "5", exact=True)
        last = st.journal_events(tmp_path / "flash")[-1]
        assert (last["type"], last["player"], last["bid"]) == ("bid", 0, 5), last
        hello(b, 3)  # protocol, game screen and rules loaded together
        st.no_faults(b)
    finally:
        b.kill()


# Round after round until P1 wins, each with a device-rolled situation and its best-possible
# solve, under the 32-bit interpreter (a board's word size; its heap grows
# rather than fail, so the figure is the live heap, read after a collection
# at every loop pass). A heap that leaked round by round shows as a live
# heap at the round's result screen that climbs: from the second round on
# (the first loads what every round shares) it may rise by LEAK_SLACK at
# most in all, what the later rounds' scores and undo history take.
# The session budgets themselves are tests/wasm/test_wasm_sessions.py's.
LEAK_SLACK = 2048  # bytes


def play_a_round_to_its_result(b):
    """From a Moonstar round's set-up screen: the device rolls the set-up,
    P1 bids the lowest bid, the playing minute is called off and P1's
    points are entered as the bid, which opens the round's result screen
    (its best possible solved while the points were entered)."""
    b.press("ok")
    st.choose(b, "Device rolls")
    b.press("ok")  # the situation: its OK goes on to the bid
    st.choose(b, "P1")
    b.press("ok")  # the lowest bid, 20
    b.press("back")
    st.choose(b, "Time up now")
    b.press("ok")
    b.press("ok")  # points: the bid


def test_a_long_moonstar_evening_keeps_the_live_heap_of_a_short_one(tmp_path):
    """Round after round with a device-rolled set-up, so every round loads
    and unloads the set-up rules, the bidding rules, legal() and the
    solver of the best-possible screen, until someone wins."""
    from wasmkit import WasmBoard

    b = WasmBoard(tmp_path / "flash", seed=7).start()
    live = []
    try:
        st.start_two_player_moonstar(b, "1 Basic", "P1")
        rounds = 0
        while "Won" not in st.screen(b) and "wins!" not in st.screen(b):  # the winner's banner, then the game's end
            rounds += 1
            assert rounds <= 12, st.screen(b)
            assert "Set-up" in st.screen(b), st.screen(b)
            play_a_round_to_its_result(b)
            scr = st.screen(b)
            assert "R%d result" % rounds in scr and re.search(r"best possible:? *\d+$", scr, re.M), scr
            live.append(b.heap_stats()["live"])
            b.press("ok")
        m = st.replay(tmp_path / "flash")
        assert rounds >= 8 and m.state["over"] and m.winner() == 0, (rounds, m.state["scores"])
        st.no_faults(b)
    finally:
        b.kill()
    assert max(live[1:]) - live[1] <= LEAK_SLACK, ["%.1f KB" % (n / 1024) for n in live]


# Printed on the serial log by the board whenever its set of loaded modules
# changes (at a loop-pass boundary), so a test can read what is resident.
MODULES_PRELUDE = r'''
import wasmhost as _wh
def _watch_modules():
    import sys
    drive = _wh.drive
    last = [None]
    def watched(fn):
        def step():
            names = " ".join(sorted(sys.modules))
            if names != last[0]:
                last[0] = names
                print("\nMODULES " + names)
            return fn()
        drive(step)
    _wh.drive = watched
_watch_modules()
del _watch_modules
'''


def loaded_sets(b):
    """The sets of modules loaded at loop-pass boundaries so far, each as
    it changed, oldest first."""
    sets = [line.split()[1:] for line in b.serial_text().splitlines() if line.startswith("MODULES ")]
    assert sets, b.serial_text()
    return sets


def test_a_moonstar_round_solves_without_the_options_the_checks_or_a_screen_over_it(tmp_path):
    """The variants' tables (loaded by the options menu and by the new
    game) and the set-up checks (the solver would load them to check a
    situation the rules checked already) stay out of the heap while a
    round is played and its best possible is solved. The game screen
    solves the set-up ahead only while it is alone: never beside a form
    or a menu over it (the press that opens one stops the solve). While
    the points entry solves over the game screen, the game screen keeps
    its code (a screen's code goes when it closes)."""
    from wasmkit import WasmBoard

    b = WasmBoard(tmp_path / "flash", seed=7, prelude=MODULES_PRELUDE).start()
    try:
        st.start_two_player_moonstar(b, "1 Basic", "P1")
        assert "Set-up" in st.screen(b), st.screen(b)
        assert "shared_rules.moonstar.opts" not in loaded_sets(b)[-1]
        play_a_round_to_its_result(b)
        assert re.search(r"best possible:? *\d+$", st.screen(b), re.M), st.screen(b)
        solving = [m for m in loaded_sets(b) if "shared_rules.moonstar.solver" in m]
        assert solving, loaded_sets(b)[-1]
        for mods in solving:
            assert "shared_rules.moonstar.opts" not in mods and "shared_rules.moonstar.check" not in mods, mods
        over = ("ui.moonstar.actions", "ui.form", "ui.gmenu", "ui.dialogs")  # what opens over the game screen
        ahead = [m for m in solving if "ui.moonstar.game" in m]
        assert ahead, solving  # the game screen solved ahead
        for mods in ahead:
            assert not [name for name in over if name in mods], mods
        for mods in solving:
            if "ui.moonstar.points" in mods:  # the entry's own solve: the game screen below keeps its code
                assert "ui.moonstar.game" in mods and "ui.gcommon" in mods, mods
        b.press("ok")  # the result screen closes: the next round's set-up, drawn by the game screen's code
        assert "Set-up" in st.screen(b), st.screen(b)
        assert "ui.moonstar.game" in loaded_sets(b)[-1]
        st.no_faults(b)
    finally:
        b.kill()



def test_a_minutes_last_stretch_loads_its_end_not_a_solve(tmp_path):
    """In a running minute's last 1.5 s the game screen does not solve
    ahead (ui/moonstar/game.py ahead): the pass that applies the minute's
    end would load the round's code the solve let go. The hardest timed
    corpus set-up (some 45 passes of solving here), its play minute
    resumed from the game menu, which stays open until 1.6 s are left:
    the game screen alone then stops its solve within a few passes, where
    it would have run until the minute's last 0.7 s; once the minute is
    up (the result phase), it solves again."""
    from test_sim_solver_slices import hard_round
    from wasmkit import WasmBoard

    _, flash, _ = hard_round(tmp_path, 1)  # playing: the play minute waits, paused
    b = WasmBoard(flash, seed=7, prelude=MODULES_PRELUDE).start()
    try:
        b.press("back")  # the game menu at once: no solve ahead under it
        st.choose(b, "Resume timer")
        resumed = b.now - 140  # (the press: 80 ms down, 100 up; applied as it goes down)
        if "Time up now" not in st.screen(b):
            b.press("back")  # the menu again: still no solve ahead
        assert int(re.search(r"Moonstar (\d+)", st.screen(b)).group(1)) >= 59, st.screen(b)  # a whole minute

        def left():
            return 60000 - (b.now - resumed)

        b.advance(left() - 1600 - 180)
        b.press("back")  # the game screen alone, 1.6 s left
        b.advance(left() - 1100)
        now = loaded_sets(b)
        assert "ui.moonstar.game" in now[-1], now[-1]
        assert "shared_rules.moonstar.solver" not in now[-1], now[-1]  # stopped, 1.1 s left
        seen = len(now)
        b.advance(left() + 3000)
        assert "R1" in st.screen(b) and "scored?" not in st.screen(b), st.screen(b)
        after = loaded_sets(b)[seen:]
        assert any("shared_rules.moonstar.solver" in m for m in after), after[-1]  # the result phase solves again
        st.no_faults(b)
    finally:
        b.kill()
