"""Sync end to end with real parts: the firmware's protocol under the real
MicroPython behind a pty, the real pyserial, the real SQLite database of
host/db.py. A clean sync is the reference; a link cut at 100+ random
points, dropped bytes, flipped bits, duplicated frames and device reboots
in the middle must all end in exactly the same database."""

import os
import random
import re
import shutil

import pytest

import synckit
from moontable.db import Database
from moontable.serial_link import KNOWN_IDS, Link, LinkError, choose_port, find_ports
from moontable.sync import sync
from shared_rules.wire_read import decode

NOW = 1767258000.0  # the PC clock pushed to the device (fixed: repeatable)
# The reply timeout of a sync over a sound link: no reply is ever lost
# there, so it is never waited out on a fast machine, and a slow, loaded
# one gets all the time it needs before a resend.
SOUND = 10.0


def run_sync(path, db_path, timeout=SOUND, retries=6, **kw):
    db = Database.open(db_path)
    try:
        with Link.open(path, timeout=timeout, retries=retries) as link:
            res = sync(link, db, now=NOW, **kw)
            res.wire = link.bytes_in + link.bytes_out
            return res
    finally:
        db.close()


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A device folder with five finished games and one in progress."""
    base = tmp_path_factory.mktemp("pristine")
    folder = str(base / "data")
    j, made = synckit.make_device(folder, games=5, open_game=True, seed=3, max_events=70)
    return folder, made


@pytest.fixture(scope="module")
def clean(pristine, tmp_path_factory):
    """The reference: one sync over an undisturbed link."""
    folder, made = pristine
    base = tmp_path_factory.mktemp("clean")
    dev_folder = str(base / "data")
    shutil.copytree(folder, dev_folder)
    db_path = str(base / "clean.db")
    dev = synckit.Device(dev_folder, device_id="dev-e2e", direct=True)
    try:
        res = run_sync(dev.path, db_path)
        again = run_sync(dev.path, db_path)
    finally:
        dev.close()
    return {"res": res, "again": again, "db": db_path, "state": synckit.db_state(db_path), "folder": dev_folder}


def test_clean_sync_stores_every_game_once(pristine, clean):
    folder, made = pristine
    res = clean["res"]
    finished = [m[0] for m in made[:-1]]
    playing = made[-1][0]
    # The game still on the table is stored as it stands, and never acked.
    assert [g for g, _ in res.stored] == finished + [playing]
    assert res.open == [playing] and res.quarantined == [] and res.problems == []
    assert res.acked == finished
    # Every game the database holds unfinished is named, with how far it got.
    state = clean["state"]
    unfinished = [g[1] for g in state["games"] if not g[8]]
    assert playing in unfinished and len(unfinished) > 1  # short games: some were closed before their end
    notes = dict(res.unfinished)
    assert sorted(notes) == sorted(unfinished)
    assert "still being played" in notes[playing] and "a later sync updates it" in notes[playing]
    for gid in unfinished:
        assert re.search(r"^Moonstar game %s \(Ann \d+, |^Moonstar game %s \(Dee \d+, " % (gid, gid), notes[gid])
        assert re.search(r"(after round \d+|before the end of its first round), \d+ events", notes[gid])
        if gid != playing:
            assert "was closed on the device before its end" in notes[gid]
    assert res.clock == synckit_local(NOW)
    assert [g[1] for g in state["games"]] == finished + [playing]
    # The stored journals are the device's bytes, and every event is there.
    for gid, header, events in made:
        with open(os.path.join(folder, "games", gid + ".jsonl"), "rb") as f:
            data = f.read()
        row = [g for g in state["games"] if g[1] == gid][0]
        assert row[4] == data and row[6] == len(events)
    assert state["staging"] == [] and state["quarantine"] == []
    assert state["devices"][0][0] == "dev-e2e"


def synckit_local(now):
    from moontable.sync import local_epoch
    return local_epoch(now)


def test_second_sync_changes_nothing(clean):
    again = clean["again"]
    assert again.stored == [] and again.quarantined == [] and again.bytes == 0 and again.acked == []
    assert [g for g, _ in again.unfinished] == [clean["res"].open[0]]  # still on the table: named again
    # The roster now exists in the database, so the second sync pushed it.
    assert again.roster and set(again.roster) == {"Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"}
    assert synckit.db_state(clean["db"]) == clean["state"]


def test_faults_cuts_and_reboots_end_in_the_clean_database(pristine, clean, tmp_path):
    folder, made = pristine
    total = clean["res"].wire  # bytes a whole clean sync puts on the wire
    rng = random.Random(424242)
    cuts = reboots = rounds = noisy = 0
    faults_seen = {"drop": 0, "flip": 0, "dup": 0}
    # Until every kind of fault has hit too: how many bytes a noisy attempt
    # carries depends on where its cut falls and on the machine's pace, so
    # a fixed number of rounds may see no dropped byte at all.
    while cuts < 100 or reboots < 10 or min(faults_seen.values()) == 0:
        assert rounds < 200, "faults seen after %d rounds: %r" % (rounds, faults_seen)
        rounds += 1
        dev_folder = str(tmp_path / ("dev%d" % rounds))
        shutil.copytree(folder, dev_folder)
        db_path = str(tmp_path / ("round%d.db" % rounds))
        dev = synckit.Device(dev_folder, device_id="dev-e2e")
        left = total  # about how many wire bytes this round still needs
        try:
            for attempt in range(60):
                # Cut anywhere in what is left (so every round sees several
                # cuts), until a sync gets through; every fourth attempt
                # also drops bytes, flips bits and duplicates frames.
                noise = attempt % 4 == 3
                f = synckit.Faults(rng, cut_after=rng.randrange(1, left) if attempt < 12 else None,
                                   reboot=rng.random() < 0.25,
                                   drop=1 / 6000 if noise else 0, flip=1 / 6000 if noise else 0,
                                   dup=1 / 25 if noise else 0)
                relay = synckit.Relay(dev, f)
                ok = False
                try:
                    # Short timeouts keep a faulty attempt quick; a calm one
                    # loses nothing, so it may wait as long as a busy
                    # machine needs and still gets through.
                    calm = f.cut_after is None and not noise
                    run_sync(relay.path, db_path, timeout=SOUND if calm else 0.1, retries=8)
                    ok = True
                except LinkError:
                    pass
                finally:
                    relay.close()
                left = max(300, left - relay.wire + 250)
                cuts += relay.cut_done
                reboots += relay.rebooted
                noisy += noise
                for k in faults_seen:
                    faults_seen[k] += f.counts[k]
                if ok and not relay.cut_done:
                    break
            else:
                pytest.fail("round %d never completed a sync" % rounds)
            assert synckit.db_state(db_path) == clean["state"], "round %d differs from the clean sync" % rounds
        finally:
            dev.close()
        # The device agrees: every finished game synced, the open one untouched.
        with open(os.path.join(dev_folder, "games", made[-1][0] + ".jsonl"), "rb") as a, \
                open(os.path.join(folder, "games", made[-1][0] + ".jsonl"), "rb") as b:
            assert a.read() == b.read()
    print("fault injection: %d rounds, %d link cuts, %d reboots, %d noisy syncs, faults %r"
          % (rounds, cuts, reboots, noisy, faults_seen))
    assert cuts >= 100 and reboots >= 10
    assert min(faults_seen.values()) > 0


def test_tampered_game_is_quarantined_and_nothing_else_changes(pristine, tmp_path):
    folder, made = pristine
    from store.journal import Journal
    from store.files import Store

    # Two devices alike but for one extra finished game whose result the
    # rules do not allow (its line CRC is sound: tampered, not damaged).
    a = str(tmp_path / "a" / "data")
    b = str(tmp_path / "b" / "data")
    for dst in (a, b):
        shutil.copytree(folder, dst)
        Journal(synckit.fast_store(dst)).finish()  # the game in progress ends on both
    header, events = synckit.moonstar_game(["Ivy", "Jo", "Kim"], 77, max_events=60)
    k = next(i for i, e in enumerate(events) if e["type"] == "result")
    events[k] = dict(events[k], points=999)
    j = Journal(synckit.fast_store(b))
    gid = j.new_game(header)
    for ev in events:
        j.append(ev)
    j.finish()
    states = []
    for name, dev_folder in (("a", a), ("b", b)):
        dev = synckit.Device(dev_folder, device_id="dev-e2e", direct=True)
        try:
            res = run_sync(dev.path, str(tmp_path / (name + ".db")))
        finally:
            dev.close()
        states.append(synckit.db_state(str(tmp_path / (name + ".db"))))
    assert [g for g, _ in res.quarantined] == [gid]
    report = res.quarantined[0][1]
    assert "line %d" % (k + 2) in report and "999" in report
    assert gid in res.acked  # kept safe in quarantine, so the device may free it
    qa, qb = states[0].pop("quarantine"), states[1].pop("quarantine")
    assert qa == [] and len(qb) == 1 and qb[0][1] == gid and qb[0][2] == k + 2
    # The game is kept as it stood before the refused line: unfinished, so
    # no result of it counts; everything else is as on the other device.
    kept = [g for g in states[1]["games"] if g[1] == gid]
    assert len(kept) == 1 and kept[0][6] == k and kept[0][8] == 0  # k events, not finished
    for table in ("games", "results", "rounds"):
        assert [r for r in states[1][table] if gid not in r] == states[0][table], table


def test_damaged_line_on_flash_goes_to_quarantine_and_continuation_is_stored(tmp_path):
    """A corrupt earlier line: the device resumes in a continuation; the
    PC gets the damaged file as it is (quarantined, naming the line) and
    the continuation (stored)."""
    folder = str(tmp_path / "data")
    j, made = synckit.make_device(folder, games=0, open_game=True, seed=9, max_events=12)
    gid = made[0][0]
    with open(j.path(gid), "rb") as f:
        lines = f.read().split(b"\n")
    damaged = bytearray(lines[5])
    damaged[4] ^= 0x02
    lines[5] = bytes(damaged)
    with open(j.path(gid), "wb") as f:
        f.write(b"\n".join(lines))
    import subprocess
    out = subprocess.run([synckit.micropython(), synckit.HARNESS, "resume", folder], capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    from store.journal import Journal as J
    from store.files import Store
    j2 = J(Store(folder))
    cont = j2.current()
    assert cont != gid
    j2.finish()
    dev = synckit.Device(folder, device_id="dev-dmg", direct=True)
    try:
        res = run_sync(dev.path, str(tmp_path / "d.db"))
    finally:
        dev.close()
    assert [g for g, _ in res.quarantined] == [gid] and "line 6" in res.quarantined[0][1]
    assert [g for g, _ in res.stored] == [cont]
    state = synckit.db_state(str(tmp_path / "d.db"))
    header = decode(state["games"][0][4].split(b"\n")[0])
    assert header["continues"] == gid and header["id"] == cont


def test_sync_command_end_to_end(pristine, tmp_path, capsys):
    from moontable.cli import main

    folder, made = pristine
    dev_folder = str(tmp_path / "data")
    shutil.copytree(folder, dev_folder)
    db_path = str(tmp_path / "cli.db")
    dev = synckit.Device(dev_folder, device_id="dev-cli", direct=True)
    try:
        assert main(["sync", "--port", dev.path, "--db", db_path]) == 0
        out = capsys.readouterr().out
        assert "6 new games stored" in out and "1 in progress on the device" in out
        assert re.search(r"^clock set: \d{4}-\d\d-\d\d \d\d:\d\d$", out, re.M), out
        assert "roster sent" not in out  # a new database has no roster to send
        assert "still being played on the device" in out and "Moonstar game %s" % made[-1][0] in out
        assert main(["sync", "--port", dev.path, "--db", db_path, "--json"]) == 0
        import json
        res = json.loads(capsys.readouterr().out)
        assert res["stored"] == [] and res["device"] == "dev-cli" and res["bytes"] == 0
        assert sorted(res["roster"]) == ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
        assert main(["sync", "--port", dev.path, "--db", db_path, "--no-clock"]) == 0
        out = capsys.readouterr().out
        assert "roster sent: %s" % ", ".join(res["roster"]) in out and "clock set" not in out
    finally:
        dev.close()
    # A port that is not there: exit 2, one plain line, nothing touched.
    before = synckit.db_state(db_path)
    assert main(["sync", "--port", str(tmp_path / "nope"), "--db", db_path]) == 2
    assert capsys.readouterr().err.strip() == "moontable sync: no such port: %s" % (tmp_path / "nope")
    assert synckit.db_state(db_path) == before


class FakePort:
    def __init__(self, device, vid, pid):
        self.device, self.vid, self.pid = device, vid, pid


def test_port_discovery_by_usb_ids():
    ports = [FakePort("/dev/ttyS0", None, None), FakePort("/dev/ttyACM0", 0x2E8A, 0x0005),
             FakePort("/dev/ttyUSB3", 0x0403, 0x6001)]
    assert find_ports(ports) == [("/dev/ttyACM0", KNOWN_IDS[0][2])]
    assert choose_port(None, ports) == "/dev/ttyACM0"
    for vid, pid in ((0x303A, 0x1001), (0x303A, 0x4001), (0x10C4, 0xEA60), (0x1A86, 0x7523), (0x1A86, 0x55D4)):
        assert choose_port(None, [FakePort("/dev/x", vid, pid)]) == "/dev/x"
    assert find_ports([FakePort("/dev/y", 0x2E8A, 0x000A)]) == []  # a Pico running other firmware
    with pytest.raises(LinkError) as e:
        choose_port(None, ports[:1] + ports[2:])
    assert "no moontable board found" in str(e.value) and "--port" in str(e.value)
    with pytest.raises(LinkError) as e:
        choose_port(None, [FakePort("/dev/a", 0x2E8A, 5), FakePort("/dev/b", 0x10C4, 0xEA60)])
    assert "several" in str(e.value) and "--port" in str(e.value)
    assert choose_port("/dev/named", []) == "/dev/named"


def test_sync_command_without_a_board_says_how_to_name_the_port(tmp_path, capsys, monkeypatch):
    from serial.tools import list_ports

    from moontable.cli import main

    monkeypatch.setattr(list_ports, "comports", lambda: [FakePort("/dev/ttyS0", None, None)])
    assert main(["sync", "--db", str(tmp_path / "x.db")]) == 2
    err = capsys.readouterr().err
    assert "no moontable board found" in err and "--port" in err
    assert not (tmp_path / "x.db").exists()  # nothing was created for nothing
