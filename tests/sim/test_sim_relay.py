"""The simulator's serial relay never drops a byte (issue #12, item 11): a
burst of requests written at once through the printed pty gets exactly one
reply per request, however fast the PC writes and the board reads.

Bounded by counts, with one generous overall deadline that only a hang
reaches: the test never depends on how fast the machine is."""

import os
import signal
import threading
import time

import serial

from moontable.sim.board_link import deploy
from moontable.sim.run import Live
from shared_rules.wire import encode
from shared_rules.wire_read import decode

BURST = 2000
DEADLINE_S = 300  # a hang's limit, not a speed bound


def live_board(tmp_path):
    flash = tmp_path / "flash"
    deploy(flash)
    live = Live(flash, seed=3, headless=True)
    live.boot()
    thread = threading.Thread(target=live.loop, daemon=True)
    thread.start()
    return live, thread


def stop(live, thread):
    live.stop()
    thread.join(30)
    live.close()
    assert not thread.is_alive()


def read_replies(port, want, deadline):
    """Replies (decoded frames) read until `want` of them came or the
    deadline passed; other console lines are skipped."""
    replies = []
    buf = b""
    while len(replies) < want and time.monotonic() < deadline:
        buf += port.read(65536)
        *lines, buf = buf.split(b"\n")
        for line in lines:
            if line.startswith(b"{"):
                replies.append(decode(line + b"\n"))
    return replies


def test_a_burst_of_2000_hello_frames_gets_2000_replies(tmp_path):
    live, thread = live_board(tmp_path)
    try:
        port = serial.Serial(live.port, 115200, timeout=0.5)
        burst = b"".join(encode({"s": s, "c": "hello"}) for s in range(BURST))
        assert len(burst) > 50_000  # far more than any pty buffer along the way
        wrote = []
        # One write of the whole burst. It blocks until the relay has taken
        # all of it (back-pressure), so it runs beside the reader: a board
        # answering into a port nobody reads would hold the PC back too.
        writer = threading.Thread(target=lambda: wrote.append(port.write(burst)), daemon=True)
        writer.start()
        replies = read_replies(port, BURST, time.monotonic() + DEADLINE_S)
        writer.join(30)
        assert wrote == [len(burst)]
        seqs = [r["s"] for r in replies]
        assert len(seqs) == BURST, "%d replies to %d requests" % (len(seqs), BURST)
        assert seqs == list(range(BURST))  # each once, in order
        assert all(r.get("ok") == 1 and r["board"] == "sim" for r in replies)
        # nothing more comes: one reply per request, not more
        port.timeout = 0.3
        assert not [l for l in port.read(65536).split(b"\n") if l.startswith(b"{")]
        port.close()
        assert not live.to_board and b"Traceback" not in bytes(live.heard)
    finally:
        stop(live, thread)


def test_bytes_for_a_board_that_is_not_reading_wait_for_it(tmp_path):
    """While the board's console takes nothing (the app is stopped with
    SIGSTOP), what the PC sends waits in the relay and the port; once the
    board runs again every request is answered."""
    live, thread = live_board(tmp_path)
    port = serial.Serial(live.port, 115200, timeout=0.5)
    try:
        # the app is up and serving before it is stopped
        port.write(encode({"s": 0, "c": "hello"}))
        assert [r["s"] for r in read_replies(port, 1, time.monotonic() + DEADLINE_S)] == [0]
        pid = live.board.proc.pid
        os.kill(pid, signal.SIGSTOP)  # the board reads nothing now
        try:
            burst = b"".join(encode({"s": s, "c": "hello"}) for s in range(1, 1501))
            writer = threading.Thread(target=port.write, args=(burst,), daemon=True)
            writer.start()
            # the relay fills the console and then holds the rest: count
            # loop passes, not seconds, until it has stopped taking more
            assert wait_until(lambda: live.to_board, DEADLINE_S), "the relay never held bytes back"
        finally:
            os.kill(pid, signal.SIGCONT)
        replies = read_replies(port, 1500, time.monotonic() + DEADLINE_S)
        writer.join(30)
        assert [r["s"] for r in replies] == list(range(1, 1501))
    finally:
        port.close()
        stop(live, thread)


def wait_until(cond, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return False
