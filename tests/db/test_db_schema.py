"""Schema, migrations and the database's location."""

import io
import json
import os
import sqlite3

import pytest

import dbkit
from moontable import db as dbmod
from moontable import clock
from moontable.db import Database, DbError
from moontable.migrations import MIGRATIONS, SCHEMA_VERSION
from shared_rules.log import Replay


def tables(path):
    with sqlite3.connect(path) as c:
        return sorted(r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'"))


def test_fresh_database_has_current_schema_and_wal(tmp_path):
    path = tmp_path / "sub" / "m.db"
    db = Database.open(path)
    assert db.schema_version() == SCHEMA_VERSION == 6
    assert db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
    assert db.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    db.close()
    assert tables(path) == ["device_clocks", "devices", "game_boots", "game_prefixes", "games", "player_aliases",
                            "players", "quarantine", "results", "rounds", "staging"]


def test_default_path_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert dbmod.default_path() == str(tmp_path / "data" / "moontable" / "moontable.db")
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")  # the XDG spec says: ignore it
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert dbmod.default_path() == str(tmp_path / "home" / ".local" / "share" / "moontable" / "moontable.db")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert dbmod.default_path().endswith(os.path.join(".local", "share", "moontable", "moontable.db"))


def test_commands_use_the_xdg_database_without_db(tmp_path):
    m, data = dbkit.moonstar_log(seed=5)
    log = tmp_path / "g.jsonl"
    log.write_bytes(data)
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    r = dbkit.cli_process("import", log, env=env)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "xdg" / "moontable" / "moontable.db").exists()
    r = dbkit.cli_process("games", "--json", env=env)
    assert [g["game"] for g in json.loads(r.stdout)] == ["moonstar"]


def make_v1(path, data):
    """A database exactly as version 1 wrote it, holding one real game."""
    c = sqlite3.connect(path, isolation_level=None)
    for stmt in MIGRATIONS[0]:
        c.execute(stmt)
    c.execute("PRAGMA user_version=1")
    rep = Replay().feed(io.BytesIO(data))
    h = rep.match.header
    c.execute("INSERT INTO devices VALUES ('dev', '{}', '2026-01-01 10:00:00', '2026-01-01 10:00:00')")
    pk = c.execute(
        "INSERT INTO games(device_id, game_id, game, header, journal, digest, events, rounds, finished, started, "
        "ended, stored) VALUES ('dev', 'g1', ?, ?, ?, 'x', ?, ?, 1, NULL, NULL, '2026-01-01 10:00:00')",
        (h["game"], json.dumps(h), data, rep.events, len(rep.rounds))).lastrowid
    for seat, name in enumerate(h["players"]):
        pid = c.execute("INSERT INTO players(name, created) VALUES (?, '2026-01-01')", (name,)).lastrowid
        c.execute("INSERT INTO results VALUES (?, ?, ?, ?, 1, ?)",
                  (pk, seat, pid, rep.match.state["scores"][seat], int(seat == rep.match.winner())))
    c.close()
    return rep


def test_upgrade_from_version_1_keeps_data_and_backfills_rounds(tmp_path):
    path = tmp_path / "old.db"
    m, data = dbkit.moonstar_log(seed=11)
    rep = make_v1(path, data)
    assert "rounds" not in tables(path)
    db = Database.open(path)
    assert db.schema_version() == SCHEMA_VERSION
    g = db.game(db.game_pk("dev/g1"))
    assert g["round_scores"] == rep.rounds and len(rep.rounds) > 3
    assert g["scores"] == rep.match.state["scores"]
    # the upgraded file works like a new one
    assert db.import_log(data, device_id="dev", game_id="g1")[0] == "unchanged"
    m2, data2 = dbkit.moonstar_log(seed=12)
    assert db.import_log(data2)[0] == "stored"
    assert db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    # opening again does not migrate twice
    db = Database.open(path)
    assert db.schema_version() == SCHEMA_VERSION
    assert len(db.games()) == 2
    db.close()


@pytest.mark.parametrize("start", [0, 1, 2, 3, 4])
def test_every_step_upgrades_to_current(tmp_path, start):
    path = tmp_path / ("v%d.db" % start)
    c = sqlite3.connect(path, isolation_level=None)
    for step in range(start):
        for item in MIGRATIONS[step]:
            item(c) if callable(item) else c.execute(item)
    c.execute("PRAGMA user_version=%d" % start)
    c.close()
    Database.open(path).close()
    fresh = tmp_path / "fresh.db"
    Database.open(fresh).close()
    schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    with sqlite3.connect(path) as a, sqlite3.connect(fresh) as b:
        assert a.execute(schema).fetchall() == b.execute(schema).fetchall()


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "future.db"
    Database.open(path).close()
    with sqlite3.connect(path) as c:
        c.execute("PRAGMA user_version=%d" % (SCHEMA_VERSION + 1))
    with pytest.raises(DbError, match="newer than this moontable"):
        Database.open(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not SQLite\n" * 100)
    with pytest.raises(DbError, match="not a usable moontable database"):
        Database.open(path)
    assert path.read_bytes().startswith(b"these are my notes")  # untouched
    with pytest.raises(DbError, match="is a folder"):
        Database.open(tmp_path)
    with pytest.raises(DbError, match="no database at"):
        Database.open(tmp_path / "missing.db", create=False)


def test_device_times_read_back_as_the_wall_clock_they_were_set_to():
    # sync sets the device clock to local wall time counted as UTC seconds
    assert clock.format_time(dbkit.T0) == "2026-01-01 09:00:00"
    assert clock.epoch(12345) is None  # a clock never set: counts from boot
    assert clock.epoch(True) is None and clock.epoch("2026") is None
