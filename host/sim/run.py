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
- the keyboard plays the four buttons (host/sim/keys.py: each key a tap,
  the capitals a hold); the panel is redrawn whenever the
  emulator's picture changes, with braille cells in a small terminal and
  half blocks in a big one (render.choose_mode), and everything on screen
  is fitted to the terminal's width and height, so nothing wraps; the
  buzzer shows as a note in the status line.

The relay never drops a byte the PC sends: what the board's console cannot
take yet waits, and the port is not read meanwhile, so the PC's writes
block (back-pressure) as a board's USB does. What comes while a board's
interpreter starts waits the same way until it runs (Live.taking_input),
as a board's USB port is not there before its interpreter is. Board
output that the port does not take waits the same way (the board's
console is not read); only output nobody takes for STALL_S is dropped, as
a board's USB drops output nobody reads rather than stopping the app.

The unix port has no soft reset of its own: Ctrl-D at its REPL (and
machine.soft_reset(), sys.exit()) ends the process. A board instead reboots
its interpreter, and where it comes back depends on the REPL it was in, so
this process watches the console (ReplWatch) and restarts MicroPython the
way a board would (next_boot):

- a soft reset in the raw REPL (mpremote does one on connecting) comes back
  in the raw REPL *without* running main.py: the port sees
  "OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>", exactly what a
  Pico sends, so mpremote works without `resume`;
- a soft reset in the friendly REPL (or from the app) says
  "MPY: soft reboot" and runs main.py, the app, again;
- machine.reset() (`mpremote reset`, a deploy) is a hard reset: the app
  starts again and nothing is printed, as the USB port of a board resetting
  says nothing; a crash or kill powers the board up again the same way.
Raw-paste mode (Ctrl-E A Ctrl-A) is the unix port's own and passes through.
"""

import os
import pty
import select
import shutil
import signal
import sys
import termios
import time
import tty
from pathlib import Path

from moontable.sim import render
from moontable.sim.board_link import HEAP, SimBoard, deploy
from moontable.sim.keys import KeyButtons

KEYS = {
    b"\x1b[A": ("up", 0), b"\x1b[B": ("down", 0), b"\r": ("ok", 0), b"\n": ("ok", 0),
    b"\x1bOA": ("up", 0), b"\x1bOB": ("down", 0),  # the arrows in the terminal's application mode
    b"\x7f": ("back", 0), b"\x08": ("back", 0),
    b"u": ("up", 0), b"d": ("down", 0), b"o": ("ok", 0), b"b": ("back", 0), b" ": ("ok", 0),
    b"U": ("up", 1), b"D": ("down", 1), b"O": ("ok", 1), b"B": ("back", 1), b"l": ("back", 1),
}
# The key help under the panel, longest first: the first that fits is shown.
HELP = (
    "keys: arrows/u/d  Enter/o=OK  Backspace/b=BACK  U/D/O/B=hold (l=long BACK: undo)  q=quit",
    "arrows/u/d  Enter/o=OK  Bksp/b=BACK  U/D/O/B=hold  l=undo  q=quit",
    "u/d  o=OK  b=BACK  U/D/O/B=hold  l=undo  q=quit",
    "u d o b  UDOB=hold  l=undo  q=quit",
)
RENDER_CHOICES = ("auto",) + render.MODES


RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"  # MicroPython's words on entering the raw REPL
FRIENDLY_BANNER = b'Type "help()" for more information.\r\n'  # ... and on entering the friendly one
SOFT_REBOOT = b"MPY: soft reboot\r\n"  # what a board says as its interpreter restarts
HEARD = 65536
STALL_S = 3.0  # output the port has not taken for this long is dropped: nobody is reading it
PORT_READ = 4096  # bytes read from the port at a time, and only once the last read has reached the board
# Limits for a board that is stuck, not for one that is slow: only a hang
# waits them out, so they are long enough for a loaded machine.
REBOOT_TIMEOUT = 60.0  # seconds the restarted interpreter may take to reach its REPL
EXIT_TIMEOUT = 30.0  # seconds a process that closed its hardware link may take to end


class ReplWatch:
    """Which REPL the board's console is in, read from what the board
    prints: MicroPython announces each one when it enters it (the raw REPL
    with RAW_BANNER, the friendly one with its banner). Before either,
    main.py is running ("app"). Announcements split across reads are found
    too (the last bytes of each read are kept)."""

    KEEP = max(len(RAW_BANNER), len(FRIENDLY_BANNER)) - 1

    def __init__(self, mode="app"):
        self.mode = mode
        self._tail = b""

    def feed(self, data):
        if not data:
            return self.mode
        buf = self._tail + data
        raw = buf.rfind(RAW_BANNER)
        friendly = buf.rfind(FRIENDLY_BANNER)
        if raw >= 0 or friendly >= 0:
            self.mode = "raw" if raw > friendly else "friendly"
        self._tail = buf[-self.KEEP:]
        return self.mode


def next_boot(code, mode):
    """How a board comes back after the MicroPython process ended with exit
    status `code` while its console was in `mode` (ReplWatch): ("raw" or
    "app", what the port sees first).

    Status 0 is the unix port's soft reset (Ctrl-D at a REPL,
    machine.soft_reset(), sys.exit()): from the raw REPL a board reboots
    into the raw REPL without main.py, otherwise into main.py.
    board_link.RESET_EXIT is machine.reset(); anything else is a crash or a kill. Both
    start the app as power-on does, silently."""
    if code == 0:
        return ("raw" if mode == "raw" else "app"), SOFT_REBOOT
    return "app", b""  # RESET_EXIT, a crash or a kill


def default_flash():
    """The simulated board's flash: in the user's data folder (host/places.py)."""
    from moontable.places import data_dir

    return data_dir() / "sim-flash"


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
    """In the board's process: its console becomes its controlling tty.
    Ctrl-C (SIGINT) is ignored until MicroPython takes it over, which it
    does as it runs code: the `micropython` on PATH is CPython embedding
    the interpreter, and a SIGINT while CPython starts up killed the board
    ("Fatal Python error: init_import_site"; a test sent it there once,
    having read a stale panel, tests/sim/simtools.py _read)."""
    import fcntl
    import signal

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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


def take_keys(keys, data, now):
    """Keyboard bytes that arrived at `now` (ms) into `keys` (a
    keys.KeyButtons), each key one event at that time, so a burst read at
    once is as many presses as it has keys; False when one is q (quit)."""
    for ev in keys_to_events(data):
        if ev == "quit":
            return False
        keys.key(ev[0], ev[1], now)
    return True


def terminal_size():
    """(columns, lines) of the terminal: $COLUMNS and $LINES when set, else
    the terminal's own size, else 80x24."""
    size = shutil.get_terminal_size((80, 24))
    return size.columns, size.lines


def render_from_env(environ=None):
    """The default of `--render`: $MOONTABLE_RENDER, or RENDER=... given on
    the make command line (`make sim RENDER=braille`: make puts such a
    variable into the environment and lists it in $MAKEFLAGS; a RENDER that
    merely happens to be in the environment is not ours and is ignored).
    None when neither is given; ValueError for a value that is no mode."""
    environ = os.environ if environ is None else environ
    name, value = "MOONTABLE_RENDER", environ.get("MOONTABLE_RENDER")
    if not value and "RENDER=" in environ.get("MAKEFLAGS", ""):
        name, value = "RENDER", environ.get("RENDER")
    if not value:
        return None
    if value not in RENDER_CHOICES:
        raise ValueError("%s=%s: the panel is drawn as %s" % (name, value, ", ".join(RENDER_CHOICES)))
    return None if value == "auto" else value


def status_variants(buzzer, port):
    """The status line under the panel, longest first: the buzzer's note
    (or a dash) and the serial port's path, which every variant keeps."""
    note = ("\u266a %d Hz" % buzzer) if buzzer else "  -   "
    return (
        "buzzer %s   serial: %s" % (note, port),
        "%s  serial: %s" % (note, port),
        "%s %s" % ("\u266a" if buzzer else "-", port),
    )


class Live:
    """The live board: its console pty relayed to the user's pty, restarts
    as a board reboots (module docstring), keyboard and panel unless
    `headless` (then the port alone is the board's interface).

    `size` gives the terminal's (columns, lines) (default: terminal_size);
    `render_mode` forces "braille" or "half" (default: by the size)."""

    def __init__(self, flash, seed=0, heap=HEAP, out=None, keyboard=None, headless=False, size=None,
                 render_mode=None):
        self.flash = Path(flash)
        self.seed = seed
        self.heap = heap
        self.headless = headless
        self.out = out or sys.stdout
        if headless:
            self.keyboard = None
        else:
            self.keyboard = keyboard if keyboard is not None else sys.stdin
        self.user_master, self.user_slave = pty.openpty()
        tty.setraw(self.user_slave)
        os.set_blocking(self.user_master, False)
        self.port = os.ttyname(self.user_slave)
        self.keys = KeyButtons()
        self.masks_sent = 0  # button levels sent to the board (a test waits on it)
        self.size = size or terminal_size
        self.render_mode = render_mode
        self.last_writes = -1
        self.last_buzz = None
        self.last_size = None
        self.board = None
        self.console = None
        self.watch = ReplWatch()
        self.boots = []  # (exit status of the previous run or None, "app"/"raw") per boot
        self.heard = bytearray()  # the last HEARD bytes the port was sent (for tests)
        self.pending = bytearray()  # board output the port has not taken yet
        self.to_board = bytearray()  # port input the board's console has not taken yet
        self.starting = False  # the interpreter has not shown it runs yet: the port's bytes wait (taking_input)
        self._console_tail = b""  # the console's last bytes, for a prompt split across reads
        self.stalled = None  # since when the port takes nothing
        self.deaf = False  # the port took nothing for STALL_S: drop output until it does
        self._stop = False

    def boot(self, how="app", announce=b""):
        """Start MicroPython: `how` "app" runs main.py (the REPL follows
        when it ends), "raw" only the REPL, brought into the raw REPL.
        `announce` goes to the port first (the soft reboot line)."""
        master, slave = _board_tty()
        self.console = master
        os.set_blocking(master, False)
        old = self.board
        self.board = SimBoard(self.flash, virtual=False, seed=self.seed, heap=self.heap, repl=True,
                              do_deploy=False, stdio=(slave, slave, _make_ctty))
        if old is not None:
            self.board.emu = old.emu  # the panel keeps its picture through a reset
        self.board.start(app=how == "app", keep_display=old is not None)
        os.close(slave)
        self.watch = ReplWatch("app" if self.board.app else "friendly")
        if how == "app" and not self.board.app:
            how = "repl"  # no main.py on flash: a board's REPL is all there is
        self.boots.append((old.proc.returncode if old is not None else None, how))
        self.starting = how != "raw"  # _enter_raw below waits for the raw REPL itself
        self._console_tail = b""
        self.to_user(announce)
        if how == "raw":
            self._enter_raw()

    def _console_until(self, marker, timeout=REBOOT_TIMEOUT):
        """(console output up to `marker`, whether it came) before the
        interpreter died or `timeout` passed; the port is not sent any."""
        seen = b""
        end = time.monotonic() + timeout
        while marker not in seen:
            left = end - time.monotonic()
            if left <= 0:
                return seen, False
            ready, _, _ = select.select([self.console], [], [], min(left, 0.1))
            if ready:
                try:
                    chunk = os.read(self.console, 4096)
                except BlockingIOError:
                    continue
                except OSError:
                    return seen, False
                if not chunk:
                    return seen, False
                seen += chunk
        return seen, True

    def _enter_raw(self):
        """Take the fresh REPL into the raw REPL. Its banner and prompts
        stay off the port, which sees only the raw REPL's greeting, as
        after a board's soft reset. If it does not get there, what it said
        is passed on so the PC tool sees the failure."""
        seen, ok = self._console_until(b">>> ")
        if ok:
            os.write(self.console, b"\x01")
            more, ok = self._console_until(RAW_BANNER + b">")
            if ok:
                seen = more[more.index(RAW_BANNER):]
            else:
                seen += more
        self.watch.feed(seen)
        self.to_user(seen)

    def to_user(self, data):
        """Board -> port (and into `heard`). What the port cannot take yet
        waits in `pending`, and the console is not read meanwhile, so a
        board that prints faster than the PC reads is held back, as USB
        flow control does; see flush_user for a port nobody reads."""
        if not data:
            return
        self.heard += data
        if len(self.heard) > HEARD:
            del self.heard[:-HEARD]
        self.pending += data
        self.flush_user()

    def flush_user(self):
        """Send what the port takes. Output the port has not taken for
        STALL_S is dropped, and so is any more until it takes some again:
        nobody is reading it, and a board's USB drops its output then too
        (rather than stopping the app)."""
        while self.pending:
            try:
                n = os.write(self.user_master, self.pending)
            except BlockingIOError:
                break
            except OSError:
                n = len(self.pending)
            del self.pending[:n]
            self.stalled = None
            self.deaf = False
        if not self.pending:
            self.stalled = None
            return
        now = time.monotonic()
        if self.stalled is None:
            self.stalled = now
        if self.deaf or now - self.stalled > STALL_S:
            self.pending.clear()
            self.stalled = None
            self.deaf = True

    def send_mask(self, taps=0):
        """The levels, and in bits 4-7 the buttons let go after a whole
        press since the last levels sent: a busy machine may run the
        board's process too late to see both edges of a tap 20 ms apart,
        so the board counts such a tap as the Pico's pin interrupt does
        (firmware/boards/simwire.py)."""
        os.write(self.board.to_board, bytes([0x4B, self.board.mask | taps << 4]))
        self.masks_sent += 1

    @staticmethod
    def _ms():
        return time.monotonic() * 1000.0

    def apply_keys(self):
        """Send the button levels that have come due."""
        changes = self.keys.changes(self._ms())
        if changes:
            taps = 0
            mask = self.board.mask
            for _, new in changes:
                taps |= mask & ~new
                mask = new
            self.board.mask = mask
            self.send_mask(taps)

    def _wait_s(self, longest=0.03):
        """How long the loop may sleep: until the next button change."""
        nxt = self.keys.next_change()
        if nxt is None:
            return longest
        return min(longest, max(0.0, (nxt - self._ms()) / 1000.0))

    def frame(self):
        """The terminal's lines: the panel, the status line, the key help,
        all fitted to the terminal (render.terminal_frame)."""
        b = self.board
        columns, lines = self.size()
        _mode, out = render.terminal_frame(b.emu, columns, lines, (status_variants(b.buzzer, self.port), HELP),
                                           mode=self.render_mode, ansi=True)
        return out

    def draw(self):
        b = self.board
        if self.headless:
            return
        size = self.size()
        if b.writes == self.last_writes and b.buzzer == self.last_buzz and size == self.last_size:
            return
        clear = "\x1b[2J" if size != self.last_size else ""
        self.last_writes = b.writes
        self.last_buzz = b.buzzer
        self.last_size = size
        # Each line is erased, then written; no newline after the last, so
        # a frame as tall as the terminal never scrolls it.
        self.out.write(clear + "\x1b[H" + "\r\n".join("\x1b[2K" + line for line in self.frame()))
        self.out.flush()

    def console_out(self):
        """Board -> port, watched. False once the console is closed."""
        try:
            data = os.read(self.console, 4096)
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not data:
            return False
        if self.starting and b">>> " in self._console_tail + data:
            self.starting = False  # the REPL's prompt: it reads the console raw now
        self._console_tail = data[-3:]
        self.watch.feed(data)
        self.to_user(data)
        return True

    def taking_input(self):
        """Whether the board's interpreter takes what the port sends yet.
        While the process starts, the console ignores Ctrl-C (_make_ctty),
        so one sent then was lost, and mpremote's Ctrl-A after it went to
        the app: mpremote waited for a raw REPL that never came (a busy
        machine starts the process late). A board's USB port is not there
        before its interpreter is, so what the PC sends meanwhile waits in
        the relay until the app's first message on the hardware link, or
        the REPL's first prompt."""
        if self.starting and self.board.messages:
            self.starting = False
        return not self.starting

    def port_in(self):
        """Port -> board. Nothing is read while the last read is still on
        its way: the PC's bytes then wait in the port and its writes block,
        so a burst of any size arrives whole (back-pressure, never a drop)."""
        if self.to_board:
            return
        try:
            data = os.read(self.user_master, PORT_READ)
        except (BlockingIOError, OSError):
            return
        self.to_board += data
        self.flush_board()

    def flush_board(self):
        """Send the console what it takes of `to_board`. What it cannot take
        yet stays for the next call; if the console is gone (the board is
        restarting) it stays for the next boot's console, and until that
        console's interpreter takes input (taking_input)."""
        if not self.taking_input():
            return
        while self.to_board:
            try:
                n = os.write(self.console, self.to_board)
            except (BlockingIOError, OSError):
                return
            del self.to_board[:n]

    def reboot(self):
        """The MicroPython process ended: pass on its last words, then
        start it again the way a board reboots."""
        b = self.board
        while select.select([self.console], [], [], 0)[0] and self.console_out():
            pass
        end = time.monotonic() + STALL_S
        while self.pending and time.monotonic() < end:
            time.sleep(0.01)  # the last words first ("OK"): mpremote waits for them
            self.flush_user()
        code = b.proc.returncode
        how, announce = next_boot(code, self.watch.mode)
        if not self.headless:
            message = ("soft reboot into the raw REPL" if how == "raw" else
                       "soft reboot" if announce else "board stopped (exit code %s): powering it up again" % code)
            self.out.write("\x1b[2J\x1b[H%s\r\n" % render.fit(message, self.size()[0]))
        b._close()
        os.close(self.console)
        self.boot(how, announce)
        self.last_writes = -1

    @staticmethod
    def _link_closed(b):
        """The hardware link only closes as the process ends; a process
        that closed it and lives on is hung, and is powered off."""
        try:
            b.proc.wait(EXIT_TIMEOUT)
        except Exception:  # noqa: BLE001 - subprocess.TimeoutExpired
            b.proc.kill()
            b.proc.wait()

    def stop(self):
        """Make loop() return (from another thread or a signal handler)."""
        self._stop = True

    def loop(self):
        kb = self.keyboard.fileno() if self.keyboard is not None else None
        while not self._stop:
            b = self.board
            if not b.alive():
                self.reboot()
                continue
            # Each direction waits while its destination is full: the
            # console is not read while the port holds output back, nor
            # the port while the console holds input back.
            fds = [b.from_board] + ([kb] if kb is not None else [])
            if not self.pending:
                fds.append(self.console)
            if not self.to_board:
                fds.append(self.user_master)
            writable = ([self.user_master] if self.pending else []) + \
                ([self.console] if self.to_board and self.taking_input() else [])
            ready, _, _ = select.select(fds, writable, [], self._wait_s())
            if self.pending:
                self.flush_user()
            if self.to_board:
                self.flush_board()
            if b.from_board in ready and not b.read_hardware():
                self._link_closed(b)
            if self.console in ready:
                self.console_out()
            if self.user_master in ready:
                self.port_in()
            if kb is not None and kb in ready:
                data = os.read(kb, 64)
                if not data:
                    kb = None  # keyboard closed: the board runs on
                if not take_keys(self.keys, data, self._ms()):
                    return
            self.apply_keys()
            self.draw()

    def close(self):
        if self.board is not None:
            self.board.kill()
        for fd in (self.console, self.user_master, self.user_slave):
            try:
                os.close(fd)
            except (OSError, TypeError):
                pass


def port_lines(flash, port, columns):
    """What `moontable sim` prints first, fitted to `columns`. The port's
    line comes whole (scripts look for "USB serial port: PATH")."""
    return [
        render.fit("moontable virtual board: flash folder %s" % flash, columns),
        "USB serial port: %s" % port,
        render.fit("(e.g. mpremote connect %s, moontable sync --port %s)" % (port, port), columns),
    ]


def run_live(flash=None, seed=0, heap=HEAP, fresh=False, headless=False, render_mode=None):
    """`moontable sim`. Headless: no panel and no keyboard; the port path
    is printed and the board serves it until SIGINT or SIGTERM.
    `render_mode`: "braille" or "half" (default: by the terminal's size)."""
    flash = Path(flash) if flash else default_flash()
    if fresh and (flash / "data").exists():
        import shutil

        shutil.rmtree(flash / "data")
    deploy(flash)
    live = Live(flash, seed, heap, headless=headless, render_mode=render_mode)
    kb = None if headless else sys.stdin
    saved = None
    if kb is not None and kb.isatty():
        saved = termios.tcgetattr(kb.fileno())
        tty.setcbreak(kb.fileno())

    def ended(signum, frame):
        live.stop()

    old_term = signal.signal(signal.SIGTERM, ended)
    if headless:
        signal.signal(signal.SIGINT, ended)
    try:
        print("\n".join(port_lines(flash, live.port, terminal_size()[0])))
        sys.stdout.flush()
        if not headless:
            time.sleep(0.5)
            sys.stdout.write("\x1b[2J")
        live.boot()
        live.loop()
    finally:
        live.close()
        signal.signal(signal.SIGTERM, old_term)
        if saved is not None:
            termios.tcsetattr(kb.fileno(), termios.TCSADRAIN, saved)
        if not headless:
            sys.stdout.write("\x1b[0m\r\n")
    return 0


def snapshot(flash=None, seed=1, presses=(), out=None, size=None, render_mode=None):
    """Headless: boot, press buttons, print the panel as text (for a quick
    look without a terminal session, and for testing the command). The
    picture is chosen and fitted as the live view's is, for `size`
    (default: terminal_size, so $COLUMNS and $LINES), with no other lines."""
    out = out or sys.stdout
    flash = Path(flash) if flash else default_flash()
    columns, lines = size or terminal_size()
    b = SimBoard(flash, seed=seed).start()
    try:
        b.advance(200)
        for name in presses:
            b.press(name)
        _mode, text = render.terminal_frame(b.emu, columns, lines, (), mode=render_mode)
        out.write("".join(line + "\n" for line in text))
    finally:
        b.kill()
    return 0
