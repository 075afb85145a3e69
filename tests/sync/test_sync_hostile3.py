"""`moontable sync` against the last hostile devices of issue 22: a boot
counter damaged to 10**30, clock keys that only look like boot numbers,
a listing that ignores its cursor, a hello of 20 KB, a hello that takes
2.5 s. Each ends in a sync that works, or in one line saying what
happened; nothing is lost.

The device is the real firmware protocol under the real MicroPython
behind a real pty (synckit.Device), its replies rewritten on the way by a
relay where it must say what the firmware never says; the PC side is the
real pyserial. The slow device is a thread on a pty that answers each
hello late, with real frames."""

import os
import pty
import random
import select
import shutil
import threading
import time
import tty

import pytest

import synckit
from moontable.cli import main
from moontable.serial_link import Link
from shared_rules.wire import LineError, encode
from shared_rules.wire_read import decode

SOUND = "10"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A device folder with 20 finished games (two pages of `ls`)."""
    folder = str(tmp_path_factory.mktemp("hostile3") / "data")
    synckit.make_device(folder, games=20, open_game=False, seed=7, max_events=20)
    return folder


def device_copy(pristine, tmp_path, name="data"):
    folder = str(tmp_path / name)
    shutil.copytree(pristine, folder)
    return folder


def run_sync(port, db_path, *extra):
    return main(["sync", "--port", port, "--db", str(db_path), "--timeout", SOUND] + list(extra))


def sync_through(folder, db_path, rewrite, capsys, *extra):
    dev = synckit.Device(folder, device_id="dev-3")
    faults = synckit.Faults(random.Random(1), rewrite=rewrite)
    relay = synckit.Relay(dev, faults)
    try:
        status = run_sync(relay.path, db_path, *extra)
    finally:
        relay.close()
        dev.close()
    out = capsys.readouterr()
    return status, out.err, out.out, faults.rewritten


def one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def stored_games(db_path):
    import sqlite3

    conn = sqlite3.connect(str(db_path))
    try:
        return sorted(r[0] for r in conn.execute("SELECT game_id FROM games"))
    finally:
        conn.close()


def clocks_in(db_path):
    import sqlite3

    conn = sqlite3.connect(str(db_path))
    try:
        return sorted(r[0] for r in conn.execute("SELECT boot FROM device_clocks"))
    finally:
        conn.close()


# --- the boot counter ------------------------------------------------------------------
def test_a_boot_counter_of_ten_to_the_thirty_is_bounded_on_the_device(pristine, tmp_path, capsys):
    """boot.json holding 10**30 (a damaged file, well formed): before, the
    device counted on to 10**30 + 1, told the PC so, and every sync failed
    with OverflowError. Now the device counts it as damaged and starts
    again from what its clocks file knows; the sync stores every game."""
    folder = device_copy(pristine, tmp_path)
    store = synckit.fast_store(folder)
    store.write_json("boot.json", 10 ** 30)
    store.write_json("clocks.json", {"4": synckit.T0 * 1000, "1" + "0" * 30: synckit.T0 * 1000})
    db_path = tmp_path / "m.db"
    dev = synckit.Device(folder, device_id="dev-3", direct=True)
    try:
        with Link.open(dev.path, timeout=float(SOUND)) as link:
            assert link.hello()["boot"] == 5  # the clocks file's highest sound boot, plus this one
        status = run_sync(dev.path, db_path, "--quiet")
    finally:
        dev.close()
    out = capsys.readouterr()
    assert status == 0 and "Traceback" not in out.err and "Overflow" not in out.err, out.err
    assert len(stored_games(db_path)) == 20
    assert synckit.fast_store(folder).read_json("boot.json", None) == 5
    assert clocks_in(db_path) == [4, 5]


def test_a_hello_with_a_huge_boot_and_odd_clock_keys_still_syncs(pristine, tmp_path, capsys):
    """A device (older firmware, or a damaged one) whose hello names boot
    10**30 and clock keys " 2", "+5", Arabic-Indic five and 10**30: none
    is taken as a boot (CPython's int() took " 2" as 2 and "٥" as 5, and
    SQLite could not hold 10**30); the sync stores every game and says
    which boots it left out: the boot 10**30 once, though both the hello's
    "boot" and a clocks key name it."""
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"
    ms0 = synckit.T0 * 1000

    def odd(reply):
        if "proto" in reply:
            reply["boot"] = 10 ** 30
            reply["clocks"] = {" 2": ms0, "+5": ms0, "\u0665": ms0, "1" + "0" * 30: ms0, "3": ms0, "7 ": ms0}
        return reply

    status, err, out, rewritten = sync_through(folder, db_path, odd, capsys)
    assert status == 0 and rewritten >= 1 and "Traceback" not in err, err
    assert len(stored_games(db_path)) == 20
    assert clocks_in(db_path) == [3]
    warning = [line for line in out.splitlines() if line.startswith("warning:") and "boot" in line]
    assert len(warning) == 1 and "5 boots" in warning[0] and "' 2'" in warning[0], out


def test_clock_keys_that_only_look_like_numbers_never_raise_the_boot_count(pristine, tmp_path):
    """boot.json lost, the clocks file naming boots " 8", "+9", a
    full-width 9 and 10**30 besides a sound "3": the device counts on from
    3 (real micropython)."""
    folder = device_copy(pristine, tmp_path)
    if os.path.exists(os.path.join(folder, "boot.json")):
        os.remove(os.path.join(folder, "boot.json"))
    ms0 = synckit.T0 * 1000
    synckit.fast_store(folder).write_json(
        "clocks.json", {" 8": ms0, "+9": ms0, "\uff19": ms0, "1" + "0" * 30: ms0, "3": ms0})
    dev = synckit.Device(folder, device_id="dev-3", direct=True)
    try:
        with Link.open(dev.path, timeout=float(SOUND)) as link:
            assert link.hello()["boot"] == 4
    finally:
        dev.close()


# --- a listing that ignores its cursor ----------------------------------------------------------
def test_a_listing_that_ignores_the_cursor_stops_with_one_line(pristine, tmp_path, capsys):
    """Every `ls` answers the first page, with a "next" that moves on:
    before, the PC skipped the repeated games and paged on for ever (here
    the relay ends the listing after 200 pages so the old code ends too)."""
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"
    first = []
    pages = [0]

    def ignore_cursor(reply):
        if "games" in reply:
            pages[0] += 1
            if not first:
                first.extend(reply["games"])
            reply["games"] = first
            reply["next"] = 16 * pages[0] if pages[0] < 200 else None
        return reply

    status, err, out, rewritten = sync_through(folder, db_path, ignore_cursor, capsys)
    assert status == 2 and pages[0] == 2, (status, pages, err)
    line = one_line(err)
    assert "repeats game %s" % first[0][0] in line and "does not page by the cursor" in line
    assert "Nothing received so far is lost" in line
    # Nothing was read: the next sound sync gets every game.
    assert stored_games(db_path) == []
    dev = synckit.Device(folder, device_id="dev-3", direct=True)
    try:
        assert run_sync(dev.path, db_path, "--quiet") == 0
    finally:
        dev.close()
    assert len(stored_games(db_path)) == 20


# --- a hello of 20 KB ------------------------------------------------------------------------
def test_a_twenty_kilobyte_hello_is_named_not_called_the_wrong_port(pristine, tmp_path, capsys):
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"

    def pad(reply):
        if "proto" in reply:
            reply["board"] = "x" * 20000
        return reply

    status, err, out, rewritten = sync_through(folder, db_path, pad, capsys)
    assert status == 2 and rewritten >= 1
    line = one_line(err)
    assert "wrong port" not in line and "nothing came back" not in line
    assert "answered hello with a line of 201" in line and "longer than 4096" in line
    assert not db_path.exists()


# --- a slow hello ----------------------------------------------------------------------------
class SlowDevice:
    """A pty whose far end answers every hello `delay` seconds after it
    came, with a real frame (its own sequence number, CRC): a board busy
    with something else when the PC asks."""

    def __init__(self, delay):
        self.delay = delay
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave
        self.stop = False
        self.asked = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        buf = bytearray()
        due = []  # (time, frame)
        while not self.stop:
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if ready:
                try:
                    buf += os.read(self.master, 4096)
                except OSError:
                    return
                while b"\n" in buf:
                    i = buf.index(b"\n")
                    line = bytes(buf[:i + 1])
                    del buf[:i + 1]
                    try:
                        req = decode(line, need_crc=True)
                    except LineError:
                        continue
                    if isinstance(req, dict) and req.get("c") == "hello":
                        self.asked += 1
                        due.append((time.monotonic() + self.delay,
                                    encode({"s": req["s"], "ok": 1, "id": "slow-1", "fw": "t", "proto": 1})))
            now = time.monotonic()
            while due and due[0][0] <= now:
                os.write(self.master, due.pop(0)[1])

    def close(self):
        self.stop = True
        self.thread.join(2)
        for fd in (self.master, self._slave):
            os.close(fd)


def test_a_hello_answered_in_two_and_a_half_seconds_is_heard_with_timeout_5():
    """Before, each hello try waited a third of --timeout 5 (1.7 s) and
    dropped the answer to an earlier try as stale, so a device answering
    every hello 2.5 s late was never heard. An answer to any try of the
    same request is as good (every command is safe to repeat)."""
    dev = SlowDevice(2.5)
    try:
        with Link.open(dev.path, timeout=5.0) as link:
            assert link.hello()["id"] == "slow-1"
    finally:
        dev.close()
