"""`moontable sync` against ports and devices that do not behave: a port
that is not there, a pty where nothing (or only an echo) answers, a device
whose replies break the protocol (a listing that points back, a hello
without id, malformed listing entries), bad --timeout values, a roster
that repeats a name. Each ends in one clear line and exit 2, loses
nothing, and the next sync over a sound link gets everything.

Also what a sync says about what it did: the roster and clock it pushed,
games it holds unfinished and how a later sync completes them, and the
boot clocks it hands to the database.

The misbehaving device is the real firmware protocol under the real
MicroPython, its replies rewritten on the way by a relay (synckit.Faults
rewrite=...), so everything else about it stays real."""

import json
import os
import pty
import random
import shutil
import threading
import time
import tty

import pytest

import synckit
from moontable.cli import main
from moontable.db import Database
from moontable.serial_link import HELLO_PATIENCE, Link, PortError, port_listing
from moontable.sync import Result, device_clocks, push_roster, repeated_names, sync


GAMES = 20  # over one page of `ls` (4 games a page: link.protocol.PAGE)
# Reply timeout over a link that loses nothing: never waited out on a fast
# machine, and long enough for a slow, loaded one.
SOUND = "10"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A device folder with GAMES finished games (more than one page of `ls`)."""
    folder = str(tmp_path_factory.mktemp("hostile") / "data")
    synckit.make_device(folder, games=GAMES, open_game=False, seed=5, max_events=30)
    return folder


def device_copy(pristine, tmp_path, name="data"):
    folder = str(tmp_path / name)
    shutil.copytree(pristine, folder)
    return folder


def sync_through(folder, db_path, rewrite, capsys, device_id="dev-h"):
    """`moontable sync` through a relay that rewrites the device's replies;
    returns (exit status, stderr, stdout)."""
    dev = synckit.Device(folder, device_id=device_id)
    faults = synckit.Faults(random.Random(1), rewrite=rewrite)
    relay = synckit.Relay(dev, faults)
    try:
        status = main(["sync", "--port", relay.path, "--db", str(db_path), "--quiet", "--timeout", SOUND])
    finally:
        relay.close()
        dev.close()
    out = capsys.readouterr()
    return status, out.err, out.out, faults.rewritten


def clean_sync(folder, db_path, capsys, device_id="dev-h"):
    dev = synckit.Device(folder, device_id=device_id, direct=True)
    try:
        status = main(["sync", "--port", dev.path, "--db", str(db_path), "--quiet", "--json", "--timeout", SOUND])
    finally:
        dev.close()
    return status, json.loads(capsys.readouterr().out)


def one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# --- a listing that does not move on ------------------------------------------------
@pytest.mark.parametrize("back", ["to the start", "to itself"])
def test_listing_that_points_back_stops_with_one_line_and_resumes(pristine, tmp_path, capsys, back):
    """The last page's "next" points back (to the first page, or to the
    page just asked for): followed blindly it loops for ever."""
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"
    seen = [0]  # the "next" of each page so far: the index the following page is asked from

    def point_back(reply):
        if "games" in reply:
            if reply.get("next") is None:
                reply["next"] = 0 if back == "to the start" else seen[-1]
            else:
                seen.append(reply["next"])
        return reply

    status, err, out, rewritten = sync_through(folder, db_path, point_back, capsys)
    assert status == 2 and rewritten >= 1 and seen[-1] > 0
    line = one_line(err)
    assert "does not move on" in line and "asked from index %d" % seen[-1] in line
    assert "next page starts at %d" % (0 if back == "to the start" else seen[-1]) in line
    assert "Nothing received so far is lost" in line
    # Resumable: the same device over a sound link gives every game.
    status, res = clean_sync(folder, db_path, capsys)
    assert status == 0 and len(res["stored"]) == GAMES and res["problems"] == []


def test_listing_that_stalls_after_games_were_stored_loses_nothing(pristine, tmp_path, capsys):
    """The listing breaks on a later sync, after games are stored and new
    ones were played: the database keeps every game, and the next sound
    sync brings the new ones."""
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"
    assert clean_sync(folder, db_path, capsys)[0] == 0
    before = synckit.db_state(str(db_path))
    from store.journal import Journal

    j = Journal(synckit.fast_store(folder))
    header, events = synckit.moonstar_game(["Ivy", "Jo"], 99, max_events=20)
    j.new_game(header)
    for ev in events:
        j.append(ev)
    j.finish()

    def stall(reply):
        if "games" in reply and reply.get("next") is not None:
            reply["next"] = 0
        return reply

    status, err, out, _ = sync_through(folder, db_path, stall, capsys)
    assert status == 2 and "does not move on" in one_line(err)
    assert synckit.db_state(str(db_path)) == before
    status, res = clean_sync(folder, db_path, capsys)
    assert status == 0 and len(res["stored"]) == 1


# --- replies the protocol does not allow --------------------------------------------
def drop_id(reply):
    if "fw" in reply and "proto" in reply:
        reply.pop("id", None)
    return reply


@pytest.mark.parametrize("rewrite, words", [
    (drop_id, 'no "id" in'),
    (lambda r: dict(r, id="") if "proto" in r else r, 'unusable "id"'),
    (lambda r: dict(r, id=["dev"]) if "proto" in r else r, 'unusable "id"'),
])
def test_hello_without_a_usable_id_is_one_line_and_exit_2(pristine, tmp_path, capsys, rewrite, words):
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"
    status, err, out, rewritten = sync_through(folder, db_path, rewrite, capsys)
    assert status == 2 and rewritten >= 1
    line = one_line(err)
    assert "hello reply names no device" in line and words in line
    assert not db_path.exists()  # asked before the database is opened: nothing made for nothing


def entry_rewrite(bad):
    def rewrite(reply):
        if "games" in reply and reply["games"]:
            reply["games"][1] = bad(reply["games"][1])
        return reply
    return rewrite


@pytest.mark.parametrize("bad, why", [
    (lambda e: e[:2], "it is not [id, size, state]"),
    (lambda e: "%s %s %s" % tuple(e), "it is not [id, size, state]"),
    (lambda e: [e[0], e[1], "gone"], "the state is not one of open, done, synced"),
    (lambda e: [None, e[1], e[2]], "the game id is not a short printable text"),
    (lambda e: ["a\nb", e[1], e[2]], "the game id is not a short printable text"),
])
def test_malformed_listing_entry_is_one_line_and_exit_2(pristine, tmp_path, capsys, bad, why):
    """An entry whose shape, id or state is garbled makes the listing
    untrustworthy. (One whose size alone is unusable is skipped and named:
    test_sync_hostile4.)"""
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"
    status, err, out, rewritten = sync_through(folder, db_path, entry_rewrite(bad), capsys)
    assert status == 2 and rewritten >= 1
    line = one_line(err)
    assert "malformed entry" in line and why in line
    # Nothing half-done: no game read, nothing staged; the next sound sync gets them all.
    state = synckit.db_state(str(db_path))
    assert state["games"] == [] and state["staging"] == []
    status, res = clean_sync(folder, db_path, capsys)
    assert status == 0 and len(res["stored"]) == GAMES


@pytest.mark.parametrize("rewrite, words", [
    (lambda r: dict(r, games={"x": 1}) if "games" in r else r, "has no list of games"),
    (lambda r: dict(r, next="16") if "games" in r else r, '"next" that is not a whole number'),
    (lambda r: dict(r, next=1.5) if "games" in r else r, '"next" that is not a whole number'),
    (lambda r: dict(r, games=[], next=(r["next"] or 1 << 20) + 1) if "games" in r else r, "page through nothing"),
])
def test_listing_page_of_the_wrong_shape_is_one_line(pristine, tmp_path, capsys, rewrite, words):
    folder = device_copy(pristine, tmp_path)
    status, err, _, _ = sync_through(folder, tmp_path / "m.db", rewrite, capsys)
    assert status == 2 and words in one_line(err)


# --- ports ------------------------------------------------------------------------
def test_no_such_port_is_exit_2_and_says_so(tmp_path, capsys):
    missing = str(tmp_path / "ttyACM9")
    assert main(["sync", "--port", missing, "--db", str(tmp_path / "m.db")]) == 2
    assert one_line(capsys.readouterr().err) == "moontable sync: no such port: %s" % missing
    assert not (tmp_path / "m.db").exists()


def test_a_path_that_is_no_serial_port_is_exit_2(tmp_path, capsys):
    plain = tmp_path / "notes.txt"
    plain.write_text("hello")
    assert main(["sync", "--port", str(plain), "--db", str(tmp_path / "m.db")]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith("moontable sync: cannot open %s: " % plain)


class Far:
    """The far end of a pty: silent (nothing runs there) or an echo."""

    def __init__(self, echo):
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open so the pty stays while the PC opens it
        self.stop = False
        self.thread = None
        if echo:
            self.thread = threading.Thread(target=self._echo, daemon=True)
            self.thread.start()

    def _echo(self):
        import select

        while not self.stop:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    os.write(self.master, os.read(self.master, 4096))
                except OSError:
                    return

    def close(self):
        self.stop = True
        if self.thread:
            self.thread.join(2)
        for fd in (self.master, self._slave):
            os.close(fd)


@pytest.mark.parametrize("echo, heard", [(False, "nothing came back"),
                                         (True, "none of them a moontable reply")])
def test_a_port_where_nothing_speaks_moontable_is_named_quickly(tmp_path, capsys, echo, heard):
    """Before: 12.4 s of silence, then "no sound reply to 'hello' after 6
    attempts". Now the hello's own patience (HELLO_PATIENCE, under 3 s),
    and plain words: it may be the wrong port."""
    far = Far(echo)
    try:
        start = time.monotonic()
        status = main(["sync", "--port", far.path, "--db", str(tmp_path / "m.db")])
        took = time.monotonic() - start
    finally:
        far.close()
    assert status == 2
    line = one_line(capsys.readouterr().err)
    assert "no moontable device answered on %s" % far.path in line and heard in line
    assert "wrong port" in line and "moontable sync --list" in line
    assert HELLO_PATIENCE < 3
    # A bound, not a speed: the old 12 s of retries are gone, on any machine.
    assert took < 12
    assert not (tmp_path / "m.db").exists()


def test_hello_patience_ends_the_wait_not_the_retry_count(tmp_path):
    """The give-up point is the patience, whatever the reply timeout and
    retry count: even 30 retries of 2 s end after HELLO_PATIENCE."""
    far = Far(False)
    try:
        with Link.open(far.path, timeout=2.0, retries=30) as link:
            with pytest.raises(PortError) as e:
                link.hello()
            assert link.tries <= 4 and "in %s s" % ("%.1f" % HELLO_PATIENCE).rstrip("0").rstrip(".") in str(e.value)
    finally:
        far.close()


class FakePort:
    def __init__(self, device, vid=None, pid=None, description="n/a"):
        self.device, self.vid, self.pid, self.description = device, vid, pid, description


def test_sync_list_shows_ports_ids_and_candidates(monkeypatch, capsys):
    from serial.tools import list_ports

    ports = [FakePort("/dev/ttyS0"), FakePort("/dev/ttyACM0", 0x2E8A, 0x0005, "Board in FS mode"),
             FakePort("/dev/ttyUSB0", 0x1A86, 0x7523, "USB Serial"), FakePort("/dev/ttyUSB1", 0x0403, 0x6001, "FT232R"),
             FakePort("/dev/ttyACM1", 0x303A, 0x1001, "USB JTAG/serial debug unit"),
             FakePort("/dev/ttyUSB2", 0x10C4, 0xEA60, "CP2102")]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert main(["sync", "--list"]) == 0
    out = capsys.readouterr().out
    lines = {ln.split()[0]: ln for ln in out.splitlines() if ln.startswith("/dev/")}
    assert "2E8A:0005" in lines["/dev/ttyACM0"] and "moontable-capable" in lines["/dev/ttyACM0"]
    assert "Raspberry Pi Pico" in lines["/dev/ttyACM0"]
    assert "1A86:7523" in lines["/dev/ttyUSB0"] and "CH340" in lines["/dev/ttyUSB0"]
    assert "303A:1001" in lines["/dev/ttyACM1"] and "Espressif" in lines["/dev/ttyACM1"]
    assert "10C4:EA60" in lines["/dev/ttyUSB2"] and "CP210x" in lines["/dev/ttyUSB2"]
    assert "not a known board" in lines["/dev/ttyUSB1"] and "0403:6001" in lines["/dev/ttyUSB1"]
    assert "no USB ids" in lines["/dev/ttyS0"] and "not a known board" in lines["/dev/ttyS0"]
    assert "several candidates" in out
    assert main(["sync", "--list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows == port_listing(ports)
    assert [r["port"] for r in rows if r["board"]] == ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyUSB0", "/dev/ttyUSB2"]
    monkeypatch.setattr(list_ports, "comports", lambda: ports[:2])
    assert main(["sync", "--list"]) == 0
    assert "`moontable sync` will use /dev/ttyACM0." in capsys.readouterr().out


# --- arguments ----------------------------------------------------------------------
@pytest.mark.parametrize("value, words", [("inf", "not a number of seconds"), ("-inf", "not a number of seconds"),
                                          ("nan", "not a number of seconds"), ("0", "must be more than 0"),
                                          ("-1", "must be more than 0"), ("two", "not a number of seconds"),
                                          ("1e9", "more than an hour")])
def test_bad_timeout_is_a_usage_error(tmp_path, capsys, value, words):
    with pytest.raises(SystemExit) as e:
        main(["sync", "--port", str(tmp_path / "x"), "--timeout=" + value, "--db", str(tmp_path / "m.db")])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "argument --timeout" in err and words in err and "Traceback" not in err
    assert not (tmp_path / "m.db").exists()


# --- the roster ---------------------------------------------------------------------
def test_repeated_names_are_found_without_case():
    assert repeated_names(["Ann", "Bob", "ann", "BOB", "Cy"]) == [("ann", "Ann"), ("BOB", "Bob")]
    assert repeated_names(["Ann", "Anne"]) == []


def test_roster_with_a_repeated_name_is_refused_before_anything_is_sent(pristine, tmp_path):
    folder = device_copy(pristine, tmp_path)
    hooks = str(tmp_path / "hooks.jsonl")
    dev = synckit.Device(folder, device_id="dev-r", hook_log=hooks, direct=True)
    try:
        with Link.open(dev.path, timeout=float(SOUND)) as link:
            res = Result()
            out_before = link.bytes_out
            push_roster(link, ["Ann", "Bob", "Cy", "ANN"], res)
            assert link.bytes_out == out_before  # not one byte of it went out
            assert res.roster is None
            assert "roster not sent" in res.roster_refused and "'ANN' repeats 'Ann'" in res.roster_refused
            assert res.warnings == [res.roster_refused]
            push_roster(link, ["Ann", "Bob"], res)  # a sound roster still goes
            assert res.roster == ["Ann", "Bob"]
    finally:
        dev.close()
    with open(hooks) as f:
        pushed = [json.loads(line)["value"] for line in f if '"roster"' in line]
    assert pushed == [["Ann", "Bob"]]


# --- games left unfinished -------------------------------------------------------------
def test_game_in_progress_is_stored_as_it_stands_and_completed_by_a_later_sync(tmp_path, capsys):
    folder = str(tmp_path / "data")
    header, events = synckit.moonstar_game(["Ann", "Bob"], 11, max_events=400, finish=True)
    from store.journal import Journal

    j = Journal(synckit.fast_store(folder))
    gid = j.new_game(header)
    half = len(events) // 2
    for ev in events[:half]:
        j.append(ev)
    db_path = str(tmp_path / "m.db")
    status, res = clean_sync(folder, db_path, capsys)
    assert status == 0 and res["stored"] == [gid] and res["acked"] == [] and res["in_progress"] == [gid]
    note = res["unfinished"][0]["note"]
    assert res["unfinished"][0]["game"] == gid
    assert note.startswith("Moonstar game %s (Ann " % gid) and "still being played" in note
    assert "%d events" % half in note and "a later sync updates it" in note
    db = Database.open(db_path)
    try:
        assert db.game(db.game_pk("dev-h/" + gid))["finished"] is False
        half_bytes = db.staged_size("dev-h", gid)
    finally:
        db.close()
    # The game goes on and ends; the next sync reads only its new tail.
    for ev in events[half:]:
        j.append(ev)
    j.finish(gid)
    size = os.path.getsize(j.path(gid))
    status, res = clean_sync(folder, db_path, capsys)
    assert status == 0 and res["stored"] == [gid] and res["acked"] == [gid] and res["unfinished"] == []
    assert res["bytes"] == size - half_bytes
    db = Database.open(db_path)
    try:
        g = db.game(db.game_pk("dev-h/" + gid))
        assert g["finished"] is True and g["events"] == len(events)
    finally:
        db.close()


# --- boot clocks ---------------------------------------------------------------------
def test_device_clocks_from_hello_plus_the_boot_just_set():
    info = {"boot": 7, "ms": 5000, "clocks": {"5": 1767258000000, "6": 1767300000000, "x": 1, "4": "no", "3": True}}
    assert device_clocks(info, 1767400005000) == {"5": 1767258000000, "6": 1767300000000, "7": 1767400000000}
    assert device_clocks(info) == {"5": 1767258000000, "6": 1767300000000}  # clock not set: only the device's
    info["clocks"]["7"] = 1767399999000  # the device's own, from whole seconds: the PC's figure wins
    assert device_clocks(info, 1767400005123)["7"] == 1767400000123
    assert device_clocks({"id": "old firmware"}, 1767400005000) == {}


def test_sync_hands_the_boot_clocks_to_the_database(pristine, tmp_path, capsys):
    """A device whose hello carries "boot", "ms" and "clocks" (the firmware
    that stamps lines with "b"/"ms"): the database learns every boot's
    clock, the current one from the clock just set."""
    folder = device_copy(pristine, tmp_path)
    earlier = synckit.T0 * 1000 - 86400000

    def with_clocks(reply):
        if "proto" in reply:
            reply.update(boot=3, ms=60000, clocks={"2": earlier})
        return reply

    dev = synckit.Device(folder, device_id="dev-c")
    relay = synckit.Relay(dev, synckit.Faults(random.Random(1), rewrite=with_clocks))
    db = Database.open(str(tmp_path / "m.db"))
    try:
        with Link.open(relay.path, timeout=float(SOUND)) as link:
            res = sync(link, db, now=synckit.T0)
        from moontable.sync import local_epoch
        now_ms = local_epoch(synckit.T0) * 1000
        assert res.clocks == {"2": earlier, "3": now_ms - 60000}
        assert db.device_clocks("dev-c") == {2: earlier / 1000.0, 3: (now_ms - 60000) / 1000.0}
    finally:
        db.close()
        relay.close()
        dev.close()


@pytest.mark.parametrize("length", [-5, 10 ** 12, "12", True])
def test_read_reply_with_an_impossible_body_length_is_asked_again(pristine, tmp_path, capsys, length):
    """A read reply whose body length cannot be (damage the CRC did not
    catch, or a device bug): the PC drops it and asks again; the sync ends
    as a clean one does."""
    folder = device_copy(pristine, tmp_path)
    left = [1]

    def bad_length(reply):
        if "k" in reply and left[0]:
            left[0] -= 1
            reply["b"] = length
        return reply

    status, err, out, rewritten = sync_through(folder, tmp_path / "m.db", bad_length, capsys)
    assert status == 0 and rewritten == 1, err
    clean_db = tmp_path / "clean.db"
    assert clean_sync(device_copy(pristine, tmp_path, "again"), clean_db, capsys)[0] == 0
    assert synckit.db_state(str(tmp_path / "m.db")) == synckit.db_state(str(clean_db))
