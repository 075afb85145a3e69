"""Defects found by feeding the database hostile input (issue #12): each
one here as the case that used to go wrong."""

import hashlib
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys

import dbkit
from moontable.db import Database
from shared_rules.wire import dumps, encode


def plain(lines):
    return b"".join(dumps(x).encode() + b"\n" for x in lines)


def named(lines, players):
    out = [dict(lines[0])] + lines[1:]
    out[0]["players"] = list(players)
    return out


def ok(*argv):
    status, out, err = dbkit.cli(*argv)
    assert status == 0, err
    return out


def bad(*argv):
    status, out, err = dbkit.cli(*argv)
    assert status == 2, (out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) >= 1
    return err


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# ------------------------------------------------------------ (1) players

def test_a_rename_never_puts_two_seats_on_one_player(tmp_path):
    db = str(tmp_path / "m.db")
    basic = dbkit.data_lines("moonstar-basic")  # Ann, Bob, Cy
    f1 = tmp_path / "one.jsonl"
    f1.write_bytes(plain(basic))
    ok("import", f1, "--db", db)
    ok("players", "rename", "Bob", "Rob", "--db", db)
    f2 = tmp_path / "two.jsonl"
    f2.write_bytes(plain(named(basic, ["Rob", "Bob", "Cy"])))
    out = ok("import", f2, "--db", db)
    assert "Bob is now a player of its own" in out
    g = json.loads(ok("show", "2", "--json", "--db", db))
    assert g["players"] == ["Rob", "Bob", "Cy"] and len(set(g["player_ids"])) == 3
    first = json.loads(ok("show", "1", "--json", "--db", db))
    assert first["players"] == ["Ann", "Rob", "Cy"]  # the renamed player's old game stays his
    assert first["player_ids"][1] == g["player_ids"][0]
    names = [p["name"] for p in json.loads(ok("players", "--json", "--db", db))]
    assert sorted(names) == ["Ann", "Bob", "Cy", "Rob"]


def test_one_name_in_three_spellings_is_refused_with_the_reason(tmp_path):
    db = str(tmp_path / "m.db")
    f = tmp_path / "ann.jsonl"
    f.write_bytes(plain(named(dbkit.data_lines("moonstar-basic"), ["Ann", "ann", "ANN"])))
    err = bad("import", f, "--db", db)
    # the rules core refuses such a header itself; the database would too
    assert "ann" in err and ("same name" in err or "used twice" in err)
    assert json.loads(ok("games", "--json", "--db", db)) == []
    assert len(json.loads(ok("games", "--quarantine", "--json", "--db", db))) == 1


def test_a_name_in_another_case_is_the_same_player(tmp_path):
    db = str(tmp_path / "m.db")
    basic = dbkit.data_lines("moonstar-basic")
    (tmp_path / "a.jsonl").write_bytes(plain(basic))
    (tmp_path / "b.jsonl").write_bytes(plain(named(basic, ["ANN", "bob", "Cy"]) + [{"type": "undo"}]))
    ok("import", tmp_path / "a.jsonl", tmp_path / "b.jsonl", "--db", db)
    games = json.loads(ok("games", "--json", "--db", db))
    assert [g["players"] for g in games] == [["Ann", "Bob", "Cy"], ["Ann", "Bob", "Cy"]]


# ------------------------------------------------------------ (2) one game, many byte forms

def test_the_same_game_in_other_bytes_is_stored_once(tmp_path):
    db = str(tmp_path / "m.db")
    lines = dbkit.data_lines("moonstar-basic")
    forms = {
        "plain": plain(lines),
        "crlf": plain(lines).replace(b"\n", b"\r\n"),
        "blank-lines": plain(lines) + b"\n\n",
        "crc": b"".join(encode(x) for x in lines),
        "spaces": b"".join(json.dumps(x, indent=None).encode() + b"\n" for x in lines),
    }
    paths = []
    for name, data in forms.items():
        p = tmp_path / ("%s.jsonl" % name)
        p.write_bytes(data)
        paths.append(p)
    out = ok("import", *paths, "--db", db)
    assert out.count("stored game 1") == 1 and out.count("already stored") == 4
    assert len(json.loads(ok("games", "--json", "--db", db))) == 1
    rows = json.loads(ok("standings", "--json", "--db", db))["overall"]
    assert {r["player"]: r["games"] for r in rows} == {"Ann": 1, "Bob": 1, "Cy": 1}
    # the same game from a device, under the device's own id: still once
    with Database.open(db) as d:
        status, msg, _ = d.import_log(forms["crc"], device_id="pico", game_id="g7")
    assert status == "unchanged" and "game 1" in msg


# ------------------------------------------------------------ (3) an older, shorter copy

def test_an_older_shorter_copy_is_named_as_such_and_the_longer_game_kept(tmp_path):
    db = str(tmp_path / "m.db")
    lines = dbkit.data_lines("moonstar-basic")
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    full.write_bytes(plain(lines))
    part.write_bytes(plain(lines[:20]))
    ok("import", full, "--db", db)
    err = bad("import", part, "--db", db)
    assert "an older, shorter copy of game 1" in err and "already stored" in err
    assert "breaks the rules" not in err
    games = json.loads(ok("games", "--json", "--db", db))
    assert len(games) == 1 and games[0]["rounds"] == 8 and games[0]["finished"]


def test_a_longer_copy_imported_later_updates_the_game(tmp_path):
    db = str(tmp_path / "m.db")
    lines = dbkit.data_lines("moonstar-basic")
    (tmp_path / "part.jsonl").write_bytes(plain(lines[:20]))
    (tmp_path / "full.jsonl").write_bytes(plain(lines))
    ok("import", tmp_path / "part.jsonl", "--db", db)
    assert "updated game 1" in ok("import", tmp_path / "full.jsonl", "--db", db)
    games = json.loads(ok("games", "--json", "--db", db))
    assert len(games) == 1 and games[0]["rounds"] == 8


# ------------------------------------------------------------ (4) export on a full disk

def _limited(limit):
    def setup():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return setup


def test_export_on_a_full_disk_keeps_the_previous_export(tmp_path):
    db = str(tmp_path / "m.db")
    logs = tmp_path / "logs"
    logs.mkdir()
    basic = dbkit.data_lines("moonstar-basic")
    for i in range(40):  # 40 games: an export well past the size limit below
        (logs / ("g%d.jsonl" % i)).write_bytes(plain(named(basic, ["Ann", "Bob", "P%d" % i])))
    ok("import", *sorted(logs.iterdir()), "--db", db)
    target = tmp_path / "games.json"
    target.write_text("the previous export\n")
    env = dict(os.environ, PYTHONPATH=dbkit.ROOT)
    r = subprocess.run([sys.executable, "-m", "moontable.cli", "export", "--format", "json", "--out", str(target),
                        "--db", db], cwd=dbkit.ROOT, env=env, capture_output=True, text=True, timeout=300,
                       preexec_fn=_limited(40000))  # room for SQLite's 32 KB -shm file, not the export
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "games.json" in r.stderr and "unchanged" in r.stderr
    assert target.read_text() == "the previous export\n"
    assert [n for n in os.listdir(tmp_path) if n.startswith(".games") or n.endswith(".tmp")] == []
    # with room, the export replaces it whole
    ok("export", "--format", "json", "--out", target, "--db", db)
    assert json.loads(target.read_text())[0]["game_name"] == "Moonstar"


# ------------------------------------------------------------ (5) not our file / read-only commands

def test_another_programs_database_is_refused_and_untouched(tmp_path):
    foreign = tmp_path / "notes.db"
    with sqlite3.connect(foreign) as c:
        c.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT)")
        c.execute("INSERT INTO notes(text) VALUES ('buy milk')")
    c.close()
    before = digest(foreign)
    log = tmp_path / "g.jsonl"
    log.write_bytes(plain(dbkit.data_lines("moonstar-basic")))
    for argv in (["games"], ["show", "1"], ["standings"], ["export", "--format", "csv"], ["players"],
                 ["report", "--out", tmp_path / "rep"], ["import", log], ["players", "add", "Zed"]):
        err = bad(*argv, "--db", foreign)
        assert "another program" in err, (argv, err)
    assert digest(foreign) == before
    assert sorted(os.listdir(tmp_path)) == ["g.jsonl", "notes.db"]


def test_read_only_commands_never_write(tmp_path):
    db = str(tmp_path / "m.db")
    (tmp_path / "g.jsonl").write_bytes(plain(dbkit.data_lines("moonstar-basic")))
    ok("import", tmp_path / "g.jsonl", "--db", db)
    before = digest(db)
    for argv in (["games"], ["games", "--quarantine"], ["show", "1"], ["standings"], ["players"],
                 ["export", "--format", "bgstats"], ["report", "--out", tmp_path / "rep"]):
        ok(*argv, "--db", db)
    assert digest(db) == before
    # a missing file is not created by a read
    missing = tmp_path / "none.db"
    assert "no database at" in bad("games", "--db", missing)
    assert not missing.exists()


def test_an_older_database_is_read_without_being_upgraded(tmp_path):
    from test_db_schema import make_v1
    path = tmp_path / "v1.db"
    make_v1(path, plain(dbkit.data_lines("moonstar-basic")))
    before = digest(path)
    games = json.loads(ok("games", "--json", "--db", path))
    assert len(games) == 1 and games[0]["game_name"] == "Moonstar"
    for argv in (["show", "1"], ["standings"], ["players"], ["export", "--format", "bgstats"],
                 ["report", "--out", tmp_path / "rep"]):
        ok(*argv, "--db", path)
    assert digest(path) == before
    with sqlite3.connect(path) as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == 1
    c.close()


# ------------------------------------------------------------ times in the records

def test_device_clocks_date_stored_games_exactly(tmp_path):
    db = str(tmp_path / "m.db")
    lines = dbkit.stamped(dbkit.data_lines("moon-moon21"), boot=3, start_ms=120000)
    with Database.open(db) as d:
        d.import_log(plain(lines), device_id="pico", game_id="g1")
    g = json.loads(ok("show", "1", "--json", "--db", db))
    assert g["approx"] and g["date"].startswith("approx. ") and g["duration_min"] == 19
    assert "approx." in ok("show", "1", "--db", db)
    with Database.open(db) as d:
        assert d.record_clocks("pico", {"3": dbkit.T0 * 1000, "bad": 1}) == 1
    g = json.loads(ok("show", "1", "--json", "--db", db))
    assert not g["approx"] and g["started"] == "2026-01-01 09:02:00" and g["ended"] == "2026-01-01 09:21:00"
    out = ok("show", "1", "--db", db)
    assert "started 2026-01-01 09:02:00, 19 min" in out and "first bidder: Ann" in out
    assert "2026-01-01 09:21:00" in ok("games", "--db", db)
