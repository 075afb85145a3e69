"""A journal holding an event the rules refuse, with more events after it
(what an older firmware wrote: it skipped the event at resume and appended
on). Before, the PC quarantined the whole game at every sync and the rest
of the evening never counted. Now the lines before the refused one are
stored as the game, and the journal is quarantined naming that line, by
`sync` (the real firmware protocol under MicroPython, over a pty) and by
`import` alike."""

import json
import sqlite3
import sys
import os

import synckit
from moontable.cli import main

sys.path.insert(0, os.path.join(synckit.ROOT, "tests", "sim"))
from test_sim_refused_event import refused_journal  # noqa: E402


def device_with_refused(folder):
    j, made = synckit.make_device(folder, games=1, open_game=False, seed=9, max_events=12)
    gid, header, written = refused_journal(j)
    return j, made[0][0], gid, written


def rows(db_path, sql):
    conn = sqlite3.connect(str(db_path))
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_sync_keeps_the_game_up_to_the_refused_line(tmp_path, capsys):
    folder = str(tmp_path / "data")
    j, first, gid, written = device_with_refused(folder)
    db_path = tmp_path / "m.db"
    dev = synckit.Device(folder, device_id="dev-r", direct=True)
    try:
        status = main(["sync", "--port", dev.path, "--db", str(db_path), "--timeout", "10"])
        out = capsys.readouterr().out
        status_json = main(["sync", "--port", dev.path, "--db", str(db_path), "--timeout", "10", "--json"])
        again = json.loads(capsys.readouterr().out)
    finally:
        dev.close()
    assert status == 3, out
    said = [line for line in out.splitlines() if gid in line and "breaks the rules" in line]
    assert len(said) == 1, out
    assert "line 8 breaks the rules" in said[0] and "kept as it stood before that line" in said[0]
    assert "line 8 and the 3 lines after it are quarantined" in said[0]
    games = dict(rows(db_path, "SELECT game_id, events FROM games"))
    assert games[gid] == 6 and first in games
    q = rows(db_path, "SELECT game_id, line FROM quarantine")
    assert q == [(gid, 8)]
    # The next sync keeps what it has: the game stays stored, nothing new quarantined.
    assert status_json == 3 and gid in again["in_progress"]
    assert dict(rows(db_path, "SELECT game_id, events FROM games"))[gid] == 6
    assert rows(db_path, "SELECT game_id, line FROM quarantine") == [(gid, 8)]


def test_import_keeps_the_game_up_to_the_refused_line(tmp_path, capsys):
    folder = str(tmp_path / "data")
    j, first, gid, written = device_with_refused(folder)
    db_path = tmp_path / "m.db"
    status = main(["import", "--db", str(db_path), j.path(gid)])
    err = capsys.readouterr().err
    assert status == 2 and "line 8 breaks the rules" in err and "kept as it stood before" in err, err
    assert dict(rows(db_path, "SELECT game_id, events FROM games")) == {gid: 6}
    assert rows(db_path, "SELECT line FROM quarantine") == [(8,)]


def test_a_damaged_line_is_still_quarantined_whole(tmp_path, capsys):
    """A line whose CRC fails is not a refusal: the device continues such
    a game in a new one itself, so the damaged journal goes to quarantine
    whole, as before."""
    folder = str(tmp_path / "data")
    j, first, gid, written = device_with_refused(folder)
    path = j.path(gid)
    data = open(path, "rb").read().split(b"\n")
    data[3] = data[3].replace(b'"', b"'", 1)
    with open(path, "wb") as f:
        f.write(b"\n".join(data))
    db_path = tmp_path / "m.db"
    assert main(["import", "--db", str(db_path), path]) == 2
    capsys.readouterr()
    assert rows(db_path, "SELECT game_id FROM games") == []


def test_the_part_before_a_refused_line_is_stored_once_with_the_boards_continuation(tmp_path, capsys):
    """The real firmware (the simulated board) met the refused event at
    boot and went on in a new game that continues the old one; a sync then
    brings both journals. The events before the refused line are in the
    continuation, so they are stored once: the old journal is quarantined,
    naming the line and the game that holds its part."""
    from moontable.sim.board_link import deploy
    from store.journal import Journal
    from test_sim_boot_hostile import boot

    flash = tmp_path / "flash"
    deploy(flash)
    j = Journal(synckit.fast_store(str(flash / "data")))
    gid, header, written = refused_journal(j, after=0)
    b = boot(flash)
    b.kill()
    db_path = tmp_path / "m.db"
    dev = synckit.Device(str(flash / "data"), device_id="dev-c", direct=True)
    try:
        status = main(["sync", "--port", dev.path, "--db", str(db_path), "--timeout", "10", "--all"])
        out = capsys.readouterr().out
        again = main(["sync", "--port", dev.path, "--db", str(db_path), "--timeout", "10", "--all"])
        out_again = capsys.readouterr().out
    finally:
        dev.close()
    assert status == 3, out
    games = rows(db_path, "SELECT game_id, events, header FROM games")
    assert len(games) == 1, games
    new_id, events, head = games[0]
    assert new_id != gid and json.loads(head)["continues"] == gid and events == 6
    assert rows(db_path, "SELECT game_id, line FROM quarantine") == [(gid, 8)]
    # The old journal came first (oldest first): its part was stored, then
    # the continuation took it over, and says so.
    assert "it continues dev-c/%s, whose part before a refused line was stored: that part is now this game" % gid \
        in out, out
    # Syncing everything again reads the old journal again: its part is not
    # stored a second time, and the report names the game that holds it.
    assert again == 3
    assert "goes on in game 1 (dev-c/%s)" % new_id in out_again, out_again
    assert rows(db_path, "SELECT game_id, events FROM games") == [(new_id, 6)]
    assert len(rows(db_path, "SELECT 1 FROM quarantine")) == 1
