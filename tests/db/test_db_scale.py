"""The database at a club's scale: what a sync, an import and the file
itself cost must not grow with every game already stored (issue 23).

Costs are counted, never timed: how many journals a sync re-dates, how
many stored journals an import re-reads."""

import sqlite3

import pytest

import dbkit
from moontable import store
from moontable.db import Database
from moontable.migrations import SCHEMA_VERSION
from shared_rules.wire import dumps


def plain(lines):
    return b"".join(dumps(x).encode() + b"\n" for x in lines)


def named(lines, players):
    out = [dict(x) for x in lines]
    out[0]["players"] = list(players)
    return out


@pytest.fixture
def db(tmp_path):
    with Database.open(tmp_path / "m.db") as d:
        yield d


def spy(monkeypatch, owner, name):
    calls = []
    real = getattr(owner, name)

    def counting(*a, **k):
        calls.append(a)
        return real(*a, **k)

    monkeypatch.setattr(owner, name, counting)
    return calls


# ------------------------------------------------------------ record_clocks

def test_a_new_clock_redates_only_the_games_of_its_boot(db, monkeypatch):
    base = dbkit.data_lines("moon-moon21")
    for boot in range(1, 41):  # forty undated games, one per boot
        lines = dbkit.stamped(named(base, ["Ann", "Bob", "B%d" % boot]), boot=boot, start_ms=60000)
        lines[0]["id"] = "g%d" % boot
        assert db.import_log(plain(lines), device_id="pico")[0] == "stored"
    assert all(g["approx"] for g in db.games())
    calls = spy(monkeypatch, Database, "_set_times")
    assert db.record_clocks("pico", {"7": dbkit.T0 * 1000}) == 1
    assert [a[2] for a in calls] == [db.game_pk("pico/g7")]  # one journal decoded, not forty
    dated = [g["game_id"] for g in db.games() if not g["approx"]]
    assert dated == ["g7"]
    assert db.game(db.game_pk("pico/g7"))["started"] == "2026-01-01 09:01:00"
    # the next hello repeats that clock: nothing to redo
    del calls[:]
    db.record_clocks("pico", {"7": dbkit.T0 * 1000})
    assert calls == []
    # a corrected clock for that boot redates it again (it is exact now,
    # so like before only undated games move: none), a clock for two more
    # boots dates exactly those two
    db.record_clocks("pico", {"7": dbkit.T0 * 1000, "8": dbkit.T0 * 1000, "9": (dbkit.T0 + 60) * 1000})
    assert sorted(a[2] for a in calls) == sorted(db.game_pk("pico/g%d" % b) for b in (8, 9))
    assert sorted(g["game_id"] for g in db.games() if not g["approx"]) == ["g7", "g8", "g9"]


def test_a_clock_of_another_device_dates_none_of_these(db, monkeypatch):
    lines = dbkit.stamped(dbkit.data_lines("moon-moon21"), boot=3)
    db.import_log(plain(lines), device_id="pico", game_id="g1")
    calls = spy(monkeypatch, Database, "_set_times")
    db.record_clocks("other", {"3": dbkit.T0 * 1000})
    assert calls == [] and db.games()[0]["approx"]


# ------------------------------------------------------------ imports without an id

def test_imports_sharing_one_header_read_no_stored_journal(db, monkeypatch):
    """Logs without an id whose headers are all the same: each import used
    to re-read every stored game with that header (quadratic)."""
    calls = spy(monkeypatch, store, "canonical_lines")  # where the store reads a journal
    for seed in range(1, 31):
        _, lines = dbkit.moonstar_events(["Ann", "Bob", "Cy"], seed)
        lines[0] = {k: v for k, v in lines[0].items() if k != "id"}  # one header for all
        del calls[:]
        status, msg, _ = db.import_log(plain(lines))
        assert status == "stored", msg
        # the new log itself (its id, then its verification); no stored one
        assert len(calls) <= 2, (seed, len(calls))
    assert len(db.games()) == 30
    assert len({tuple(db.conn.execute("SELECT head FROM games").fetchall())}) == 1


def test_repeats_copies_and_continuations_are_still_found_among_many(db):
    logs = []
    for seed in range(1, 21):
        _, lines = dbkit.moonstar_events(["Ann", "Bob", "Cy"], seed)
        lines[0] = {k: v for k, v in lines[0].items() if k != "id"}
        logs.append(lines)
    for lines in logs[:19]:
        assert db.import_log(plain(lines))[0] == "stored"
    # the same game again, with CRCs and CRLF: the same game
    again = dbkit.journal(logs[4]).replace(b"\n", b"\r\n")
    status, msg, _ = db.import_log(again, game_id="copy")
    assert status == "unchanged" and "is game 5" in msg
    # an older, shorter copy of game 12 (cut at 13 records, past a power of two)
    status, msg, _ = db.import_log(plain(logs[11][:13]), game_id="short")
    assert status == "quarantined" and "an older, shorter copy of game 12" in msg
    # the header alone: a beginning of every stored game, named after the first
    status, msg, _ = db.import_log(plain(logs[0][:1]), game_id="head")
    assert status == "quarantined" and "an older, shorter copy of game 1 " in msg
    # game 20 arrives in two parts: the longer one continues the stored part
    status, msg, part = db.import_log(plain(logs[19][:9]), game_id="g20")
    assert status == "stored"
    status, msg, _ = db.import_log(plain(logs[19]), game_id="g20-later")
    assert status == "stored" and msg.startswith("updated game 20"), msg
    assert len(db.games()) == 20


# ------------------------------------------------------------ the events table

def test_no_per_event_copy_is_kept(db):
    m, data = dbkit.moonstar_log(seed=3)
    db.import_log(data)
    names = {r[0] for r in db.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "events" not in names
    g = db.game(1)
    assert g["events"] == m.count and g["journal"] == data  # the count and the journal itself stay


def _rows(conn):
    return (sorted(conn.execute("SELECT digest, lines, game FROM game_prefixes")),
            sorted(conn.execute("SELECT device_id, boot, game FROM game_boots")))


def test_a_version_4_file_loses_its_events_and_gains_the_indexes(tmp_path):
    """Build a version-4 file from a current one (put back the events
    table, take away what versions 5 and 6 add), then open it."""
    path = tmp_path / "v4.db"
    with Database.open(path) as d:
        for seed in (1, 2, 3):
            _, lines = dbkit.moonstar_events(["Ann", "Bob", "Cy"], seed)
            d.import_log(plain(dbkit.stamped(lines, boot=seed)), device_id="pico")
        want = _rows(d.conn)
        assert len(want[0]) > 3 * 4 and len(want[1]) == 3
    c = sqlite3.connect(path, isolation_level=None)
    dbkit.rewind_to_v4(c)
    c.close()
    # a read-only command upgrades a private copy and leaves the file be
    with Database.open(path, readonly=True) as d:
        assert d.schema_version() == SCHEMA_VERSION == 6 and _rows(d.conn) == want
    with sqlite3.connect(path) as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == 4
    with Database.open(path) as d:
        assert d.schema_version() == SCHEMA_VERSION
        assert _rows(d.conn) == want
        names = {r[0] for r in d.conn.execute("SELECT name FROM sqlite_master")}
        assert "events" not in names and "games_identity" in names
        assert d.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert d.conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert len(d.games()) == 3
