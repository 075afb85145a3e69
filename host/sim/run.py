"""Runs the virtual board live in a terminal (`moontable sim`, `make sim`).

Processes and links:
- the firmware runs in the MicroPython unix port (host/sim/board_link.py
  starts it); its console is a pty whose slave is its controlling terminal,
  with ISIG on, so a Ctrl-C byte from a PC tool raises KeyboardInterrupt in
  the app, as on a board, and the REPL (after Ctrl-C or in safe mode) sees
  raw bytes once it takes over the terminal;
- a second pty is the "USB port": its path is printed, and PC tools
  (pyserial, mpremote, `moontable sync --port`) open it. This process relays
  bytes between the two ptys, so the board's console is never shared;
- the keyboard plays the four buttons; the panel is redrawn with half-block
  characters whenever the emulator's picture changes; the buzzer shows as a
  note in the status line.

When the MicroPython process ends (exit from the REPL, a soft reset with
Ctrl-D), the board is powered up again, as a board would reboot.
"""

import os
import pty
import select
import sys
import termios
import time
import tty
from pathlib import Path

from host.sim import render
from host.sim.board_link import BUTTONS, HEAP, SimBoard, deploy

KEYS = {
    b"\x1b[A": ("up", 0), b"\x1b[B": ("down", 0), b"\r": ("ok", 0), b"\n": ("ok", 0),
    b"\x7f": ("back", 0), b"\x08": ("back", 0),
    b"u": ("up", 0), b"d": ("down", 0), b"o": ("ok", 0), b"b": ("back", 0), b" ": ("ok", 0),
    b"U": ("up", 1), b"D": ("down", 1), b"O": ("ok", 1), b"B": ("back", 1), b"l": ("back", 1),
}
TAP_MS = 150  # a key press holds its button this long (extended by key repeat)
LONG_MS = 1000
HELP = "keys: arrows/u/d  Enter/o=OK  Backspace/b=BACK  U/D/O/B=long press (l=long BACK: undo)  q=quit"


def default_flash():
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "moontable" / "sim-flash"


def _board_tty():
    """The pty that is the board's console: raw, but Ctrl-C still signals."""
    master, slave = pty.openpty()
    attrs = termios.tcgetattr(slave)
    tty.setraw(slave)
    attrs = termios.tcgetattr(slave)
    attrs[3] |= termios.ISIG  # lflag: 0x03 -> SIGINT to the board, as USB CDC does
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    return master, slave


def _make_ctty():
    """In the board's process: its console becomes its controlling tty."""
    import fcntl

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def keys_to_events(data):
    """Split keyboard bytes into (button, long) events; "quit" for q."""
    out = []
    i = 0
    while i < len(data):
        if data[i:i + 1] in (b"q", b"\x11"):
            out.append("quit")
            i += 1
            continue
        for seq in (data[i:i + 3], data[i:i + 1]):
            if seq in KEYS:
                out.append(KEYS[seq])
                i += len(seq)
                break
        else:
            i += 1
    return out


class Live:
    def __init__(self, flash, seed=0, heap=HEAP, out=None, keyboard=None):
        self.flash = Path(flash)
        self.seed = seed
        self.heap = heap
        self.out = out or sys.stdout
        self.keyboard = keyboard if keyboard is not None else sys.stdin
        self.user_master, self.user_slave = pty.openpty()
        tty.setraw(self.user_slave)
        os.set_blocking(self.user_master, False)
        self.port = os.ttyname(self.user_slave)
        self.releases = {}
        self.last_writes = -1
        self.last_buzz = None
        self.board = None
        self.console = None

    def boot(self):
        master, slave = _board_tty()
        self.console = master
        os.set_blocking(master, False)
        self.board = SimBoard(self.flash, virtual=False, seed=self.seed, heap=self.heap, repl=True,
                              do_deploy=False, stdio=(slave, slave, _make_ctty))
        self.board.start()
        os.close(slave)

    def send_mask(self):
        os.write(self.board.to_board, bytes([0x4B, self.board.mask]))

    def key(self, name, long):
        bit = BUTTONS[name]
        now = time.monotonic()
        if not self.board.mask & bit:
            self.board.mask |= bit
            self.send_mask()
        self.releases[bit] = now + (LONG_MS if long else TAP_MS) / 1000.0

    def release_due(self):
        now = time.monotonic()
        for bit, when in list(self.releases.items()):
            if now >= when:
                del self.releases[bit]
                self.board.mask &= ~bit
                self.send_mask()

    def draw(self):
        b = self.board
        if b.writes == self.last_writes and b.buzzer == self.last_buzz:
            return
        self.last_writes = b.writes
        self.last_buzz = b.buzzer
        note = ("\u266a %d Hz" % b.buzzer) if b.buzzer else "  -   "
        self.out.write("\x1b[H" + render.to_text(b.emu, ansi=True).replace("\n", "\x1b[K\r\n") + "\x1b[K\r\n")
        self.out.write("buzzer %s   serial: %s\x1b[K\r\n%s\x1b[K\r\n" % (note, self.port, HELP))
        self.out.flush()

    def relay(self, src, dst):
        try:
            data = os.read(src, 4096)
        except (BlockingIOError, OSError):
            return
        if data and dst is not None:
            try:
                os.write(dst, data)
            except (BlockingIOError, OSError):
                pass  # nobody reading the port: a board's USB drops it too

    def loop(self):
        kb = self.keyboard.fileno() if self.keyboard is not None else None
        while True:
            b = self.board
            if not b.alive():
                self.out.write("\x1b[2J\x1b[Hboard stopped (exit code %s): powering it up again\r\n" % b.proc.returncode)
                b._close()
                os.close(self.console)
                self.boot()
                self.last_writes = -1
                continue
            fds = [b.from_board, self.console, self.user_master] + ([kb] if kb is not None else [])
            ready, _, _ = select.select(fds, [], [], 0.03)
            if b.from_board in ready:
                chunk = os.read(b.from_board, 65536)
                if chunk:
                    b._buf += chunk
                    b._parse()
            if self.console in ready:
                self.relay(self.console, self.user_master)
            if self.user_master in ready:
                self.relay(self.user_master, self.console)
            if kb is not None and kb in ready:
                data = os.read(kb, 64)
                for ev in keys_to_events(data):
                    if ev == "quit":
                        return
                    self.key(*ev)
            self.release_due()
            self.draw()

    def close(self):
        if self.board is not None:
            self.board.kill()
        for fd in (self.console, self.user_master, self.user_slave):
            try:
                os.close(fd)
            except (OSError, TypeError):
                pass


def run_live(flash=None, seed=0, heap=HEAP, fresh=False):
    flash = Path(flash) if flash else default_flash()
    if fresh and (flash / "data").exists():
        import shutil

        shutil.rmtree(flash / "data")
    deploy(flash)
    live = Live(flash, seed, heap)
    kb = sys.stdin
    saved = None
    if kb.isatty():
        saved = termios.tcgetattr(kb.fileno())
        tty.setcbreak(kb.fileno())
    try:
        print("moontable virtual board: flash folder %s" % flash)
        print("USB serial port: %s   (e.g. mpremote connect %s, moontable sync --port %s)" % (live.port, live.port, live.port))
        time.sleep(0.5)
        sys.stdout.write("\x1b[2J")
        live.boot()
        live.loop()
    finally:
        live.close()
        if saved is not None:
            termios.tcsetattr(kb.fileno(), termios.TCSADRAIN, saved)
        sys.stdout.write("\x1b[0m\r\n")
    return 0


def snapshot(flash=None, seed=1, presses=(), out=sys.stdout):
    """Headless: boot, press buttons, print the panel as text (for a quick
    look without a terminal session, and for testing the command)."""
    flash = Path(flash) if flash else default_flash()
    b = SimBoard(flash, seed=seed).start()
    try:
        b.advance(200)
        for name in presses:
            b.press(name)
        out.write(b.text() + "\n")
    finally:
        b.kill()
    return 0
