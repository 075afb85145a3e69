"""Dates at import (issue 22): every time field is range-checked; a log
whose "ms" was 10**20 imported and then `games`, `export` and `report`
failed for the whole database. Now the bad field is ignored and named,
the game is stored with approximate dates, and every command works; a
game stored before the checks (a bad value already in the database) does
not stop the listings of the others either."""

import json
import sqlite3

import dbkit
from moontable.db import Database
from shared_rules.match import Match

T = dbkit.T0


def _game(stamps, gid):
    """A finished Shoot the Moon game; stamps[i] is merged into line i."""
    m = Match("shoot-the-moon", ["Ann", "Bob", "Cy"], {"target": 3})
    lines = [dict(m.header, id=gid)]
    for _ in range(5):
        e = {"type": "trick", "winner": 1}
        m.apply(e)
        lines.append(dict(e))
    for line, stamp in zip(lines, stamps):
        line.update(stamp)
    return "".join(json.dumps(x) + "\n" for x in lines).encode()


def _commands_work(path, tmp_path):
    for argv in (["games"], ["games", "--json"], ["export", "--format", "csv"], ["export", "--format", "bgstats"],
                 ["report", "--out", tmp_path / "rep"], ["standings"], ["show", "1"]):
        code, out, err = dbkit.cli(*argv, "--db", path)
        assert code == 0 and "Traceback" not in err, (argv, out, err)


def test_a_huge_ms_is_named_ignored_and_breaks_nothing(tmp_path):
    path = str(tmp_path / "m.db")
    stamps = [{"b": 3, "ms": 1000 * i, "t": T + i} for i in range(6)]
    stamps[2]["ms"] = 10 ** 20
    with Database.open(path) as db:
        db.import_log(_game([{"b": 1, "ms": 0, "t": T}], "ok"), device_id="pico")
        status, msg, _ = db.import_log(_game(stamps, "bad"), device_id="pico")
        assert status == "stored", msg
        assert 'its dates are approximate: line 3: "ms" 100000000000000000000 is not a time since power-up' in msg
    games = json.loads(dbkit.cli("games", "--json", "--db", path)[1])
    assert games[1]["approx"] is True and games[1]["date"].startswith("approx. ")
    _commands_work(path, tmp_path)


def test_a_bad_time_already_stored_does_not_stop_the_listings(tmp_path):
    path = str(tmp_path / "m.db")
    with Database.open(path) as db:
        db.import_log(_game([{"t": T}], "a"), device_id="pico")
        db.import_log(_game([{"t": T}], "b"), device_id="pico")
    with sqlite3.connect(path) as c:  # as an earlier version could store it
        c.execute("UPDATE games SET started=?, ended=?, duration=? WHERE id=1", (10 ** 17, 10 ** 17, 10 ** 17))
    _commands_work(path, tmp_path)
    games = json.loads(dbkit.cli("games", "--json", "--db", path)[1])
    assert len(games) == 2 and games[1]["date"].startswith("2026-")


def test_ms_running_back_is_named_and_gives_no_length(tmp_path):
    path = str(tmp_path / "m.db")
    stamps = [{"b": 3, "ms": 1073741000}] + [{"b": 3, "ms": 60000 * i} for i in range(1, 6)]
    with Database.open(path) as db:
        db.record_clocks("pico", {"3": T * 1000})
        status, msg, _ = db.import_log(_game(stamps, "g"), device_id="pico")
        assert status == "stored" and '"ms" goes back within boot 3 (from 1073741000 to 60000)' in msg, msg
    g = json.loads(dbkit.cli("games", "--json", "--db", path)[1])[0]
    assert g["approx"] is True and g["duration_min"] is None
    play = json.loads(dbkit.cli("export", "--format", "bgstats", "--db", path)[1])
    assert "durationMin" not in play and "approximate" in play["comments"]


def test_play_date_is_utc_by_the_offset_recorded_at_sync(tmp_path):
    """BG Stats wants UTC; the device counts the PC's local time as UTC.
    The offset recorded with a boot's clock stays, whatever a later sync's."""
    path = str(tmp_path / "m.db")
    stamps = [{"b": 3, "ms": 60000 * i} for i in range(6)]
    with Database.open(path) as db:
        db.record_clocks("pico", {"3": T * 1000}, utc_offset=2 * 3600)  # set from a PC at UTC+2
        db.record_clocks("pico", {"3": T * 1000}, utc_offset=-5 * 3600)  # a later sync elsewhere
        assert db.import_log(_game(stamps, "g"), device_id="pico")[0] == "stored"
    play = json.loads(dbkit.cli("export", "--format", "bgstats", "--db", path)[1])
    from moontable.times import format_epoch
    assert play["playDate"] == format_epoch(T + 300 - 2 * 3600)
    g = json.loads(dbkit.cli("games", "--json", "--db", path)[1])[0]
    assert g["ended"] == format_epoch(T + 300) and g["utc_offset"] == 7200  # listings keep the local time
