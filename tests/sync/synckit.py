"""Shared parts of the sync tests and bench/sync.py: the MicroPython device
harness behind a real pty, a relay that can damage the link, device data
made by playing real games through shared_rules, and a comparable view of
the database.

The device side always runs under the real `micropython`; the PC side is
the real pyserial opening a pty's path, as it would open /dev/ttyACM0.
"""

import json
import os
import pty
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HARNESS = os.path.join(HERE, "upy_device.py")
for p in (ROOT, os.path.join(ROOT, "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/, for gamegen
from gamegen import random_moonstar  # noqa: E402
from shared_rules.wire import LineError, encode  # noqa: E402
from shared_rules.wire_read import decode

T0 = 1767258000  # 2026-01-01 09:00 UTC
BOOT_WAIT = 120.0  # seconds a device may take to start on a loaded machine (a bound, not a speed)


def micropython():
    found = shutil.which("micropython") or os.path.join(os.path.dirname(sys.executable), "micropython")
    assert os.path.exists(found), "micropython is not installed: run `make test`"
    return found


# --- games -------------------------------------------------------------------
def moonstar_game(players, seed, max_events=400, finish=True):
    """(header, events) of a Moonstar game played with random legal moves
    (bids and results inside legal()'s ranges), stamped with times."""
    m, events = random_moonstar(players, seed, T0 + seed * 7200, max_events, finish, undo_rate=0.03)
    return m.header, events


PLAYERS = (["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay", "Gus"], ["Ann", "Dee", "Hal"])


def make_device(folder, games=4, open_game=True, seed=0, max_events=400):
    """A device data folder written by the firmware's own Journal (under
    CPython: the bytes are the same as the board writes). Returns the
    Journal and the list of (game id, header, events) written."""
    from store.journal import Journal

    j = Journal(fast_store(folder))
    made = []
    for k in range(games + (1 if open_game else 0)):
        header, events = moonstar_game(PLAYERS[k % len(PLAYERS)], seed * 100 + k + 1, max_events,
                                       finish=k < games)
        gid = j.new_game(header)
        for ev in events:
            j.append(ev)
        if k < games:
            j.finish(gid)
        made.append((gid, header, events))
    return j, made


def fast_store(folder):
    """The firmware's Store for making test data under CPython, without the
    system-wide os.sync() after each write (CPython has it, MicroPython's
    unix port does not; the bytes written are the same)."""
    from store.files import Store

    class FastStore(Store):
        def sync(self):
            pass

    return FastStore(folder)


def tree_bytes(folder):
    """{relative path: bytes} of every file under folder (a state snapshot)."""
    out = {}
    for base, _, files in os.walk(folder):
        for name in files:
            p = os.path.join(base, name)
            with open(p, "rb") as f:
                out[os.path.relpath(p, folder)] = f.read()
    return out


# --- the device behind a pty ----------------------------------------------------
class Device:
    """The MicroPython protocol harness on a folder, its stdin/stdout the
    slave end of a pty in raw mode; `fd` is the master end."""

    def __init__(self, folder, device_id="dev-1", hook_log=None, direct=False):
        """direct: the harness holds the master end and `path` names the
        slave for pyserial (no relay); else `fd` is for a Relay."""
        self.folder = folder
        self.device_id = device_id
        self.hook_log = hook_log
        self.direct = direct
        self.proc = None
        self.fd = None
        self.path = None
        self._keep = None
        self.err = tempfile.TemporaryFile()
        self.start()

    def start(self):
        master, slave = pty.openpty()
        tty.setraw(slave)
        argv = [micropython(), HARNESS, "serve", self.folder, self.device_id]
        if self.hook_log:
            argv.append(self.hook_log)
        mine, theirs = (slave, master) if self.direct else (master, slave)
        self.proc = subprocess.Popen(argv, stdin=theirs, stdout=theirs, stderr=self.err, close_fds=True,
                                     start_new_session=True)
        os.close(theirs)
        wait_ready(mine, self.proc)
        if self.direct:
            self.path = os.ttyname(slave)
            self._keep = slave  # held open so the pty lives until pyserial opens it
        else:
            self.fd = master

    def kill(self):
        """Power cut: SIGKILL, no chance to finish anything."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()
        for fd in (self.fd, self._keep):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.fd = self._keep = None

    def reboot(self):
        self.kill()
        self.start()

    def stderr(self):
        self.err.seek(0)
        return self.err.read().decode("utf-8", "replace")

    def close(self):
        self.kill()
        self.err.close()


def wait_ready(fd, proc=None, limit=BOOT_WAIT):
    """Block until the device on `fd` answers a hello, as a board that has
    finished booting does; the reply is read and dropped. So a test's sync
    starts against a running device however slowly the interpreter
    started, and `hello`'s few seconds of patience measure the link, not
    the machine's load."""
    frame = encode({"s": 1, "c": "hello"})
    os.write(fd, frame)
    buf = b""
    deadline = time.monotonic() + limit
    resent = time.monotonic()
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError("the device exited while starting (status %s)" % proc.returncode)
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            if time.monotonic() - resent > 5:
                os.write(fd, b"\n" + frame)  # in case the first went to a half-started reader
                resent = time.monotonic()
            continue
        try:
            buf += os.read(fd, 4096)
        except OSError:
            time.sleep(0.05)
            continue
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                reply = decode(line + b"\n", need_crc=True)
            except LineError:
                continue
            if isinstance(reply, dict) and reply.get("ok") and reply.get("s") == 1:
                return
    raise AssertionError("the device did not answer hello within %d s" % limit)


class PortEnd:
    """Another program's serial port (e.g. the simulator's pty path) as the
    device end of a Relay: `fd` opened raw, `reboot()` is the power cut
    (the callable given), after which the relay has no device."""

    def __init__(self, path, power_off=None):
        import termios

        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd, termios.TCSANOW)
        self.power_off = power_off
        self.unplugs = True

    def reboot(self):
        if self.power_off is not None:
            self.power_off()
        self.close()

    def close(self):
        if self.fd is not None:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = None


class Faults:
    """What the relay does to the bytes: drop, flip a bit, duplicate a
    frame (a whole line), and cut the link after a number of bytes."""

    def __init__(self, rng, drop=0.0, flip=0.0, dup=0.0, cut_after=None, reboot=False, rewrite=None, ask=None):
        """reboot: at cut_after, power-cycle the device (SIGKILL, restart
        on the same folder) instead of pulling the PC's cable.
        rewrite: f(reply dict) -> dict or None, applied to every sound
        reply frame on its way to the PC (re-encoded with a good CRC), so
        a test can make a real device say what the protocol forbids.
        ask: the same for every request frame on its way to the device,
        so a real device can be made to answer what the PC never asked."""
        self.rng = rng
        self.reboot = reboot
        self.rewrite = rewrite
        self.ask = ask
        self.rewritten = 0
        self._pending = {0: bytearray(), 1: bytearray()}
        self.drop = drop
        self.flip = flip
        self.dup = dup
        self.cut_after = cut_after
        self.passed = 0
        self.counts = {"drop": 0, "flip": 0, "dup": 0}
        self._line = {0: bytearray(), 1: bytearray()}

    def _rewrite(self, data, direction):
        """Hold the bytes of one direction to whole lines and rewrite its
        frames: replies (device->PC, direction 1) by `rewrite`, requests
        by `ask`. A journal chunk's body lines do not decode as frames (no
        CRC trailer) and pass unchanged."""
        pending = self._pending[direction]
        pending += data
        out = bytearray()
        while True:
            i = pending.find(b"\n")
            if i < 0:
                break
            line = bytes(pending[:i + 1])
            del pending[:i + 1]
            try:
                obj = decode(line, need_crc=True)
            except LineError:
                obj = None
            marks = ("ok", "e") if direction else ("c",)
            if isinstance(obj, dict) and any(k in obj for k in marks):
                change = self.rewrite if direction else self.ask
                new = change(json.loads(json.dumps(obj)))  # a deep copy: obj stays as sent
                if new is not None and json.dumps(new, sort_keys=True) != json.dumps(obj, sort_keys=True):
                    # (compared as JSON: in Python True == 1 == 1.0, on the wire they differ)
                    line = encode(new)
                    self.rewritten += 1
            out += line
        return bytes(out)

    def apply(self, data, direction):
        if (self.rewrite if direction else self.ask) is not None:
            data = self._rewrite(data, direction)
        out = bytearray()
        line = self._line[direction]
        for b in data:
            r = self.rng.random()
            if r < self.drop:
                self.counts["drop"] += 1
                continue
            if r < self.drop + self.flip:
                b ^= 1 << self.rng.randrange(8)
                self.counts["flip"] += 1
            out.append(b)
            line.append(b)
            if b == 10:
                if self.rng.random() < self.dup and len(line) < 300:
                    out += line
                    self.counts["dup"] += 1
                line.clear()
        return bytes(out)


class Relay:
    """A second pty whose slave path the PC opens with pyserial; a thread
    copies bytes between it and the device's pty, through `faults`.

    `cut()` (or faults.cut_after) closes the PC's side: to pyserial it is
    a pulled cable. The device can be rebooted under the relay."""

    def __init__(self, device, faults=None):
        self.device = device
        self.faults = faults
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.wire = 0      # bytes that crossed the relay, both ways
        self.cut_done = False
        self.rebooted = False
        self._closed = False
        self._stop = False
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self._stop:
            dev = self.device.fd
            fds = [self.master] + ([dev] if dev is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], 0.02)
            except (OSError, ValueError):
                time.sleep(0.005)
                continue
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    data = b""
                if not data:
                    if fd == self.master:
                        return
                    time.sleep(0.005)  # device gone (power cut): wait for a reboot
                    continue
                to_pc = fd != self.master
                if self.faults is not None:
                    data = self.faults.apply(data, 1 if to_pc else 0)
                    if self.faults.cut_after is not None and self.wire + len(data) >= self.faults.cut_after:
                        data = data[: max(0, self.faults.cut_after - self.wire)]
                        self._write(to_pc, data)
                        self.faults.cut_after = None
                        if self.faults.reboot:
                            self.device.reboot()
                            self.rebooted = True
                            if getattr(self.device, "unplugs", False):
                                self.cut()  # a USB board without power leaves the bus: the port goes too
                                return
                            continue
                        self.cut()
                        return
                self._write(to_pc, data)

    def _write(self, to_pc, data):
        if not data:
            return
        self.wire += len(data)
        target = self.master if to_pc else self.device.fd
        if target is None:
            return
        try:
            os.write(target, data)
        except OSError:
            pass

    def cut(self):
        """Pull the cable: the PC's side of the link is gone."""
        self._close_fds()
        self.cut_done = True

    def _close_fds(self):
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for fd in (self.master, self.slave):
                try:
                    os.close(fd)
                except OSError:
                    pass

    def close(self):
        self._stop = True
        if threading.current_thread() is not self.thread:
            self.thread.join(2)
        self._close_fds()


# --- the database, comparably ----------------------------------------------------
def db_state(path):
    """Every row that a sync decides, without the wall-clock columns
    (when a row was written), as a sorted list per table."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        def rows(sql):
            return sorted(tuple(r) for r in conn.execute(sql))
        return {
            "games": rows("SELECT device_id, game_id, game, header, journal, digest, events, rounds, finished, "
                          "started, ended FROM games"),
            "boots": rows("SELECT g.game_id, b.device_id, b.boot FROM game_boots b JOIN games g ON g.id = b.game"),
            "results": rows("SELECT g.game_id, r.seat, p.name, r.score, r.rank, r.winner FROM results r "
                            "JOIN games g ON g.id = r.game JOIN players p ON p.id = r.player"),
            "rounds": rows("SELECT g.game_id, r.round, r.seat, r.score FROM rounds r JOIN games g ON g.id = r.game"),
            "players": rows("SELECT name FROM players"),
            "devices": rows("SELECT id, info FROM devices"),
            "quarantine": rows("SELECT device_id, game_id, line, reason, excerpt, journal, digest FROM quarantine"),
            "staging": rows("SELECT device_id, game_id, offset, length(data) FROM staging"),
        }
    finally:
        conn.close()


def journal_bytes(lines):
    return b"".join(encode(x) for x in lines)
