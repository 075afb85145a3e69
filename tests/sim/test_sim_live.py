"""The live virtual board (`moontable sim`): keys act as buttons, the USB
serial pty works with pyserial, Ctrl-C from the PC stops the app into the
REPL, and leaving the REPL powers the board up again."""

import io
import os
import signal
import threading
import time

import serial

import simtools as st
from moontable.sim.board_link import deploy
from moontable.sim.run import Live, keys_to_events




def test_key_mapping():
    assert keys_to_events(b"\x1b[Ao\x7fUq") == [("up", 0), ("ok", 0), ("back", 0), ("up", 1), "quit"]
    assert keys_to_events(b"\r\x1b[Bl") == [("ok", 0), ("down", 0), ("back", 1)]


def start_live(tmp_path):
    """The live runner booted on a fresh flash, its loop on a thread and its
    keyboard a pipe: (live, the pipe's write end, the thread)."""
    flash = tmp_path / "flash"
    deploy(flash)
    kr, kw = os.pipe()
    live = Live(flash, seed=3, out=io.StringIO(), keyboard=os.fdopen(kr, "rb", buffering=0))
    live.boot()
    t = threading.Thread(target=live.loop, daemon=True)
    t.start()
    return live, kw, t


def test_live_board_keys_serial_and_ctrl_c(tmp_path):
    live, kw, t = start_live(tmp_path)
    try:
        assert st.wait_for(lambda: "New game" in st.screen(live.board))
        os.write(kw, b"o")  # OK: into the New game menu
        assert st.wait_for(lambda: "Moonstar" in st.screen(live.board)), st.screen(live.board)
        port = serial.Serial(live.port, 115200, timeout=0.2)
        port.write(b"\x03")  # Ctrl-C from the PC
        got = b""
        end = time.monotonic() + 15
        while b">>> " not in got and time.monotonic() < end:
            got += port.read(256)
        assert b"app stopped" in got and b">>> " in got, got
        assert "REPL" in st.screen(live.board)
        port.write(b"print(6 * 7)\r")
        end = time.monotonic() + 10
        while b"42" not in got and time.monotonic() < end:
            got += port.read(256)
        assert b"42" in got
        first = live.board
        port.write(b"\x04")  # Ctrl-D leaves the REPL: the board powers up again
        assert st.wait_for(lambda: live.board is not first and "New game" in st.screen(live.board))
        port.close()
    finally:
        os.write(kw, b"q")
        t.join(10)
        live.close()
    assert not t.is_alive()


def test_a_tap_whose_two_edges_reach_the_board_together_still_counts(tmp_path):
    """On a busy machine the board's process may be run only after both
    edges of a key's tap are in its pipe, and read them in one go: 1 ms
    apart on its clock, under the 20 ms debounce. The release says the
    press was whole (its tap bit, as the Pico's pin interrupt latches
    one), so the board counts it. Here the board's process is stopped
    while the runner sends the tap's two levels."""
    live, kw, t = start_live(tmp_path)
    try:
        assert st.wait_for(lambda: "New game" in st.screen(live.board))
        proc = live.board.proc
        sent = live.masks_sent
        proc.send_signal(signal.SIGSTOP)
        try:
            os.write(kw, b"o")  # OK: down, and up 60 ms later
            # both levels are in the board's pipe (the runner never sends
            # a press and its release in one message)
            assert st.wait_for(lambda: live.masks_sent >= sent + 2 and live.board.mask == 0)
        finally:
            proc.send_signal(signal.SIGCONT)
        assert st.wait_for(lambda: "Moonstar" in st.screen(live.board)), (
            st.screen(live.board), live.masks_sent - sent, bytes(live.heard[-2000:]))
    finally:
        os.write(kw, b"q")
        t.join(10)
        live.close()
    assert not t.is_alive()
