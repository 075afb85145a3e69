"""mpremote (the real one, 1.29) against the simulated board's printed pty,
with no `resume`: the virtual board reboots the way a board does.

- mpremote soft-resets in the raw REPL on connecting; a board comes back in
  the raw REPL without running main.py, saying exactly
  "OK\\r\\nMPY: soft reboot\\r\\nraw REPL; CTRL-B to exit\\r\\n>";
- a soft reset in the friendly REPL runs the app again, as does
  machine.reset() (`mpremote reset`), which the unix port lacks;
- exec, fs ls/cp/cat/rm, run, soft-reset and reset all work, raw-paste
  included;
- `moontable flash` deploys over the port and the board restarts into the
  flashed app; `moontable sim --headless` serves the same port.

Every subprocess has a timeout: a hang fails the test instead of stalling it.
"""

import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest
import serial

import simtools as st
from moontable.sim.board_link import RESET_EXIT, ROOT, deploy, micropython_path
from moontable.sim.run import FRIENDLY_BANNER, RAW_BANNER, SOFT_REBOOT, Live, ReplWatch, next_boot

BOARD_SAYS = b"OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>"




class Running:
    """`moontable sim --headless` in this process: the live board (real
    clock) with its loop in a thread, so a test can look at its panel and
    its boots."""

    def __init__(self, flash, do_deploy=True):
        if do_deploy:
            deploy(flash)
        self.flash = flash
        self.live = Live(flash, seed=5, headless=True)
        self.live.boot()
        self.failure = None  # what ended the loop's thread, if it failed
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        try:
            self.live.loop()
        except BaseException as e:  # noqa: BLE001  (kept for the test's report, the thread's end)
            self.failure = e
            raise

    @property
    def port(self):
        return self.live.port

    def at_home(self):
        return "New game" in st.screen(self.live.board)

    def close(self):
        self.live.stop()
        self.thread.join(10)
        self.live.close()
        assert not self.thread.is_alive()


def mpremote(port, *args, timeout=60):
    """mpremote connect PORT args...; (exit status, stdout, stderr)."""
    p = subprocess.run([sys.executable, "-m", "mpremote", "connect", port] + list(args),
                       capture_output=True, text=True, timeout=timeout, cwd=str(ROOT))
    return p.returncode, p.stdout, p.stderr


def read_until(port, marker, timeout=60.0):
    got = b""
    end = time.monotonic() + timeout
    while not got.endswith(marker) and time.monotonic() < end:
        got += port.read(port.in_waiting or 1)
    return got


def stop_the_app(port, timeout=60.0):
    """Ctrl-C until the friendly REPL's prompt, as a person would press it
    again: one that comes while the board's interpreter starts is not
    seen (host/sim/run.py _make_ctty). What the port said."""
    got = b""
    end = time.monotonic() + timeout
    while b">>> " not in got and time.monotonic() < end:
        port.write(b"\r\x03")
        got += read_until(port, b">>> ", timeout=min(5.0, max(0.1, end - time.monotonic())))
    return got


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    r = Running(tmp_path_factory.mktemp("mpremote") / "flash")
    try:
        assert st.wait_for(r.at_home), st.screen(r.live.board)
        yield r
    finally:
        r.close()
    assert r.failure is None, "the simulator's loop failed: %r" % (r.failure,)


# --- the state machine, pure ------------------------------------------------------
def test_next_boot_follows_the_repl_the_board_was_in():
    assert next_boot(0, "raw") == ("raw", SOFT_REBOOT)        # Ctrl-D in the raw REPL
    assert next_boot(0, "friendly") == ("app", SOFT_REBOOT)   # Ctrl-D at >>>
    assert next_boot(0, "app") == ("app", SOFT_REBOOT)        # sys.exit() from the app
    assert next_boot(RESET_EXIT, "raw") == ("app", b"")       # machine.reset(): silent, into the app
    assert next_boot(-9, "raw") == ("app", b"")               # killed: power up again
    assert next_boot(1, "friendly") == ("app", b"")


def test_repl_watch_reads_announcements_even_split_across_reads():
    w = ReplWatch()
    assert w.feed(b"moontable: app stopped; REPL\n") == "app"
    assert w.feed(b"MicroPython x\r\n" + FRIENDLY_BANNER[:10]) == "app"
    assert w.feed(FRIENDLY_BANNER[10:] + b">>> ") == "friendly"
    assert w.feed(b"\r\n>>> \r\nraw REPL; CTRL") == "friendly"
    assert w.feed(b"-B to exit\r\n>") == "raw"
    assert w.feed(b"OK\x04\x04>") == "raw"
    assert w.feed(b"\r\n" + FRIENDLY_BANNER + b">>> " + RAW_BANNER + b">") == "raw"  # the later one wins
    assert w.feed(RAW_BANNER + b">\r\n" + FRIENDLY_BANNER) == "friendly"


# --- the wire -------------------------------------------------------------------------
def test_soft_reset_in_the_raw_repl_sends_what_a_board_sends_and_skips_main(sim):
    before = len(sim.live.boots)
    assert sim.live.boots == [(None, "app")], sim.live.boots  # one power-up, no restart since
    with serial.Serial(sim.port, 115200, timeout=0.2) as port:
        got = stop_the_app(port)
        assert b">>> " in got and b"Fatal" not in got, (got, sim.live.boots)
        port.write(b"\r\x01")
        assert read_until(port, RAW_BANNER + b">").endswith(RAW_BANNER + b">")
        port.write(b"\x04")  # soft reset
        assert read_until(port, BOARD_SAYS) == BOARD_SAYS
        assert sim.live.boots[before:] == [(0, "raw")]
        port.write(b"import sys\nprint('app' in sys.modules, sys.platform)\x04")
        assert read_until(port, b"\x04>") == b"OK" + b"False linux\n\x04\x04>"  # main.py did not run
        port.write(b"\x05A\x01")  # raw-paste mode: the unix port's own, passed through
        head = port.read(2)
        assert head == b"R\x01"
        window = int.from_bytes(port.read(2), "little")
        assert window >= 32 and port.read(1) == b"\x01"
        port.write(b"print(6 * 7)\x04")
        assert read_until(port, b"\x04>") == b"\x0442\n\x04\x04>"
        port.write(b"\r\x02")  # back to the friendly REPL: the board stays there
        assert read_until(port, b">>> ").endswith(b">>> ")
        assert sim.live.boots[before:] == [(0, "raw")]
        port.write(b"\x04")  # soft reset at >>>: the app runs again, as on a board
        assert read_until(port, SOFT_REBOOT).endswith(b"\r\n" + SOFT_REBOOT)
    assert st.wait_for(lambda: sim.live.boots[-1] == (0, "app") and sim.at_home())
    assert b"Traceback" not in bytes(sim.live.heard)


# --- mpremote ---------------------------------------------------------------------------
def test_mpremote_exec_without_resume(sim):
    before = len(sim.live.boots)
    code, out, err = mpremote(sim.port, "exec", "import sys; print(6 * 7, 'app' in sys.modules)")
    assert code == 0, err
    assert out.split() == ["42", "False"]
    assert (0, "raw") in sim.live.boots[before:]  # it soft-reset into the raw REPL, not the app


def test_mpremote_fs_ls_cp_cat_run_rm(sim, tmp_path):
    code, out, err = mpremote(sim.port, "fs", "ls")
    assert code == 0, err
    names = out.split()
    for name in ("main.py", "board.json", "app.mpy", "shared_rules/", "data/"):
        assert name in names, out

    local = tmp_path / "probe.py"
    local.write_text("WORD = 'moon' * 3\n")
    code, out, err = mpremote(sim.port, "fs", "cp", str(local), ":probe.py")
    assert code == 0, err
    assert (sim.flash / "probe.py").read_text() == local.read_text()  # on the board's flash
    code, out, err = mpremote(sim.port, "fs", "cat", ":probe.py")
    assert code == 0 and out == local.read_text(), err

    script = tmp_path / "script.py"
    script.write_text("import probe\nprint(probe.WORD, sum(range(10)))\n")
    code, out, err = mpremote(sim.port, "run", str(script))
    assert code == 0, err
    assert out.strip() == "moonmoonmoon 45"

    back = tmp_path / "back.py"
    code, out, err = mpremote(sim.port, "fs", "cp", ":probe.py", str(back), "+", "fs", "rm", ":probe.py")
    assert code == 0, err
    assert back.read_text() == local.read_text()
    assert not (sim.flash / "probe.py").exists()


def test_mpremote_soft_reset_and_reset(sim):
    before = len(sim.live.boots)
    code, out, err = mpremote(sim.port, "soft-reset")
    assert code == 0, err
    assert sim.live.boots[before:] == [(0, "raw")]
    assert st.wait_for(lambda: sim.live.watch.mode == "friendly")  # mpremote left it at >>>, no app

    code, out, err = mpremote(sim.port, "reset")
    assert code == 0, err
    assert st.wait_for(lambda: sim.live.boots[-1] == (RESET_EXIT, "app"))  # machine.reset(): a hard reset
    assert st.wait_for(sim.at_home), st.screen(sim.live.board)
    # the app really is what runs now: stop it without a reset and ask
    code, out, err = mpremote(sim.port, "resume", "exec", "import sys; print('app' in sys.modules)")
    assert code == 0 and out.strip() == "True", (out, err)


# --- moontable flash, then the app -------------------------------------------------------
def test_flash_over_the_port_then_the_board_reboots_into_the_flashed_app(tmp_path):
    import json

    flash = tmp_path / "flash"
    r = Running(flash)
    try:
        # Home comes first; the data folder once the boot has looked at it
        assert st.wait_for(lambda: r.at_home() and (flash / "data").is_dir())
        (flash / "data" / "mark.txt").write_text("kept")
        before = len(r.live.boots)
        p = subprocess.run([sys.executable, "-m", "moontable.cli", "flash", "--port", r.port, "--board", "sim"],
                           capture_output=True, text=True, timeout=180, cwd=str(ROOT))
        assert p.returncode == 0, p.stdout + p.stderr
        assert "app stopped with the protocol's return-to-REPL command" in p.stdout
        assert re.search(r"verified \d+ files on the board", p.stdout), p.stdout
        assert "board reset into the app" in p.stdout
        manifest = json.loads((flash / "manifest.json").read_text())
        assert manifest["board"] == "sim" and "main.py" in manifest["files"]
        assert [q.name for q in flash.rglob("*.py")] == ["main.py"]  # the rest is .mpy
        assert st.wait_for(lambda: r.live.boots[-1] == (0, "app") and len(r.live.boots) > before)
        assert st.wait_for(r.at_home), st.screen(r.live.board)  # the flashed app runs
        assert (flash / "data" / "mark.txt").read_text() == "kept"
        heard = bytes(r.live.heard)
        assert SOFT_REBOOT in heard
        assert b"Traceback" not in heard[heard.rindex(SOFT_REBOOT):]  # (the deploy's own probes may fail)
        # the board it came back as flashes again the same way (that an
        # unchanged app then sends nothing is tests/deploy's, with a frozen build)
        before = len(r.live.boots)
        p = subprocess.run([sys.executable, "-m", "moontable.cli", "flash", "--port", r.port, "--board", "sim"],
                           capture_output=True, text=True, timeout=180, cwd=str(ROOT))
        assert p.returncode == 0 and "app stopped with the protocol" in p.stdout, p.stdout + p.stderr
        assert re.search(r"\d+ unchanged", p.stdout), p.stdout
        assert st.wait_for(lambda: len(r.live.boots) > before and r.at_home())
    finally:
        r.close()


def test_mpremote_connecting_while_the_board_starts_waits_for_it(tmp_path, monkeypatch):
    """mpremote's Ctrl-C, sent before the board's interpreter runs (a busy
    machine starts it late), waits in the relay until the app has started,
    and mpremote connects. Before, the console ignored it while the process
    started, and mpremote waited for ever for a raw REPL. The interpreter's
    start is held by the test: `micropython` on PATH first waits on a FIFO."""
    gate = tmp_path / "gate"
    os.mkfifo(gate)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "micropython"
    # only the first boot waits: mpremote's soft reset boots it again
    wrapper.write_text('#!/bin/sh\nif [ -p "%s" ]; then read go < "%s"; rm -f "%s"; fi\nexec "%s" "$@"\n'
                       % (gate, gate, gate, micropython_path()))
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", "%s%s%s" % (bin_dir, os.pathsep, os.environ["PATH"]))
    r = Running(tmp_path / "flash")
    try:
        p = subprocess.Popen([sys.executable, "-m", "mpremote", "connect", r.port, "exec", "print(6 * 7)"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(ROOT))
        try:
            # the relay holds mpremote's Ctrl-C while the interpreter has not started
            held = st.wait_for(lambda: b"\x03" in r.live.to_board)
            with open(gate, "w") as g:
                g.write("go\n")
            out, err = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
        assert held, "the relay passed mpremote's bytes to a board that had not started"
        assert p.returncode == 0 and out.strip() == "42", (out, err, bytes(r.live.heard))
        assert r.live.boots == [(None, "app"), (0, "raw")]  # Ctrl-C stopped the app; mpremote soft-reset
    finally:
        r.close()


def test_a_board_without_main_py_boots_to_the_repl(tmp_path):
    """A board fresh out of the box: MicroPython, empty flash. The REPL is
    all there is, and mpremote works on it."""
    flash = tmp_path / "empty"
    flash.mkdir()
    r = Running(flash, do_deploy=False)
    try:
        assert r.live.boots == [(None, "repl")]
        code, out, err = mpremote(r.port, "exec", "print('fresh')")
        assert code == 0 and out.strip() == "fresh", err
        assert r.live.boots[-1] == (0, "raw")
    finally:
        r.close()


# --- the command --------------------------------------------------------------------------
def test_moontable_sim_headless_serves_mpremote_and_stops_on_sigterm(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "moontable.cli", "sim", "--headless", "--flash", str(tmp_path / "f")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=str(ROOT))
    try:
        port = None
        lines = []
        end = time.monotonic() + 60
        while port is None and time.monotonic() < end:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            m = re.search(r"USB serial port: (\S+)", line)
            if m:
                port = m.group(1)
        assert port and os.path.exists(port), "".join(lines)
        code, out, err = mpremote(port, "exec", "print(6 * 7)")
        assert code == 0 and out.strip() == "42", err
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
