"""The database commands: output, --json, and a clear message with exit
status 2 for every bad input."""

import csv
import io
import json
import os
import re

import pytest

import dbkit
from moontable.db import Database


@pytest.fixture
def dbfile(tmp_path):
    """A database with three finished Moonstar games and one unfinished."""
    path = tmp_path / "m.db"
    with Database.open(path) as db:
        db.import_log(dbkit.moonstar_log(("Ann", "Bob", "Cy"), seed=31)[1], device_id="pico")
        db.import_log(dbkit.moonstar_log(("Ann", "Bob"), seed=32)[1], device_id="pico")
        db.import_log(dbkit.moonstar_log(("Cy", "Dee"), seed=33, crc=False)[1])
        db.import_log(dbkit.moonstar_log(("Ann", "Dee"), seed=34, finish=False)[1])
    return str(path)


def ok(*argv):
    status, out, err = dbkit.cli(*argv)
    assert status == 0, err
    assert err == ""
    return out


def bad(*argv):
    status, out, err = dbkit.cli(*argv)
    assert status == 2, (out, err)
    assert "Traceback" not in err and err.strip()
    return err


def test_games_table_and_json(dbfile):
    out = ok("games", "--db", dbfile)
    assert out.splitlines()[0].split()[:5] == ["id", "date", "game", "rounds", "winner"]
    assert len(out.splitlines()) == 5 and "(not finished)" in out
    data = json.loads(ok("games", "--json", "--db", dbfile))
    assert [g["id"] for g in data] == [1, 2, 3, 4]
    assert data[3]["finished"] is False and data[0]["finished"] is True
    assert set(data[0]) >= {"id", "device", "game_id", "game", "players", "scores", "winners", "rounds", "date"}
    only = json.loads(ok("games", "--json", "--player", "dee", "--db", dbfile))
    assert [g["id"] for g in only] == [3, 4]
    assert json.loads(ok("games", "--json", "--game", "moons", "--db", dbfile)) == []


def test_show_table_json_and_best_scores(dbfile):
    from shared_rules.moonstar import solver
    out = ok("show", "1", "--db", dbfile)
    assert out.startswith("game 1: Moonstar")
    assert "best" in [l for l in out.splitlines() if l.startswith("round")][0] and "winner:" in out
    data = json.loads(ok("show", "pico/ms-31", "--json", "--db", dbfile))
    m, lines = dbkit.moonstar_events(["Ann", "Bob", "Cy"], 31)
    assert data["scores"] == m.state["scores"]
    assert len(data["round_table"]) == m.state["round"]
    # each played round's best is the solver's answer for that round's set-up
    from shared_rules.match import Match
    replay = Match.from_header(lines[0])
    sits = []
    for ev in lines[1:]:
        before = replay.state["round"]
        replay.apply(ev)
        if replay.state["round"] > before:
            sits.append(replay.state["last"])
    checked = 0
    for row, last in zip(data["round_table"], sits):
        if last.get("bidder") is not None:
            assert row["bid"] == last["bid"] and row["points"] == last["points"]
            assert row["best"] == solver.solve(last["sit"])["best"]
            checked += 1
        else:
            assert row.get("best") is None and row["bidder"] is None
    assert checked >= 3
    plain = json.loads(ok("show", "1", "--json", "--no-best", "--db", dbfile))
    assert all(r.get("best") is None for r in plain["round_table"])


def test_standings(dbfile):
    out = ok("standings", "--db", dbfile)
    assert out.startswith("overall") and "\nMoonstar\n" in out and "moonstar" not in out
    data = json.loads(ok("standings", "--json", "--db", dbfile))
    rows = {r["player"]: r for r in data["overall"]}
    assert sum(r["wins"] for r in rows.values()) == 3  # three finished games, one winner each
    assert rows["Ann"]["games"] == 2 and rows["Dee"]["games"] == 1  # the unfinished game not counted
    for r in rows.values():
        assert r["win_rate"] == round(r["wins"] / r["games"], 4)
    assert data["by_game"]["moonstar"] == data["overall"]
    one = json.loads(ok("standings", "--game", "moonstar", "--json", "--db", dbfile))
    assert list(one["by_game"]) == ["moonstar"]


def test_players_commands(dbfile):
    assert "Ann" in ok("players", "--db", dbfile)
    assert ok("players", "add", "Eve", "--db", dbfile).strip() == "added Eve"
    assert ok("players", "rename", "Eve", "Evie", "--db", dbfile).strip() == "renamed Eve to Evie"
    out = ok("players", "merge", "Dee", "Evie", "--json", "--db", dbfile)
    assert json.loads(out) == {"merged": "Dee", "into": "Evie", "results_moved": 2}
    rows = json.loads(ok("players", "--json", "--db", dbfile))
    evie = [p for p in rows if p["name"] == "Evie"][0]
    assert evie["games"] == 1 and sorted(evie["aliases"]) == ["Dee", "Eve"]
    assert "Dee" not in [p["name"] for p in rows]
    g = json.loads(ok("show", "3", "--json", "--db", dbfile))
    assert g["players"] == ["Cy", "Evie"] and g["logged_players"] == ["Cy", "Dee"]


def test_export_csv_and_json(dbfile, tmp_path):
    out = ok("export", "--format", "csv", "--db", dbfile)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 3 + 2 + 2 + 2
    assert rows[0]["player"] == "Ann" and rows[0]["game"] == "moonstar"
    assert sum(int(r["winner"]) for r in rows) == 3
    target = tmp_path / "out.json"
    assert ok("export", "--format", "json", "--out", target, "--db", dbfile) == ""
    games = json.loads(target.read_text())
    assert len(games) == 4 and games[0]["round_scores"][-1] == games[0]["scores"]
    assert "journal" not in games[0]


def test_export_bgstats_is_one_play_per_line(dbfile):
    out = ok("export", "--format", "bgstats", "--db", dbfile)
    plays = [json.loads(line) for line in out.splitlines()]
    assert len(plays) == 3  # unfinished games are not plays yet
    for p in plays:
        assert p["sourceName"] == "moontable"
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", p["playDate"])
        assert isinstance(p["durationMin"], int) and p["durationMin"] > 0
        assert p["game"] == {"name": "Moonstar", "sourceGameId": "moonstar", "bggId": 1714,
                             "highestWins": True}
        assert sum(pl.get("winner", False) for pl in p["players"]) == 1
        assert sum(pl.get("startPlayer", False) for pl in p["players"]) == 1
        best = max(pl["score"] for pl in p["players"])
        assert [pl for pl in p["players"] if pl.get("winner")][0]["score"] == best
    assert plays[0]["sourcePlayId"] == "pico/ms-31"
    assert len({p["sourcePlayId"] for p in plays}) == 3


def test_report_last_n_makes_pages_for_the_newest_games_only(dbfile, tmp_path):
    out_dir = tmp_path / "rep"
    out = ok("report", "--out", out_dir, "--last", "1", "--db", dbfile)
    assert out.startswith("wrote ") and "1 game page made" in out
    assert sorted(p.name for p in (out_dir / "games").glob("*.html")) == ["4.html"]
    page = (out_dir / "index.html").read_text()
    assert re.findall(r'<a href="games/(\d+)\.html">', page) == ["4"]
    for player in ("Ann", "Bob", "Cy", "Dee"):  # records still count every game
        assert ">%s</a></td>" % player in page
    for player in out_dir.glob("players/*.html"):  # histories link only to pages that exist
        for ref in re.findall(r'href="games/(\d+)\.html"', player.read_text()):
            assert ref == "4"
    ok("report", "--out", tmp_path / "none", "--last", "0", "--db", dbfile)
    assert list((tmp_path / "none" / "games").glob("*.html")) == []


def test_import_command(tmp_path):
    db = str(tmp_path / "m.db")
    good = tmp_path / "good.jsonl"
    good.write_bytes(dbkit.moonstar_log(seed=41)[1])
    out = ok("import", good, "--db", db)
    assert "stored game 1" in out
    assert "already stored" in ok("import", good, "--db", db)
    tampered, line = dbkit.tamper_score(dbkit.moonstar_log(seed=42)[1])
    t = tmp_path / "tampered.jsonl"
    t.write_bytes(tampered)
    err = bad("import", t, "--db", db)
    assert "tampered.jsonl" in err and ("line %d" % line) in err and "points must be" in err
    q = json.loads(ok("games", "--quarantine", "--json", "--db", db))
    assert len(q) == 1 and q[0]["line"] == line
    assert "line %d" % line in ok("games", "--quarantine", "--db", db)


@pytest.mark.parametrize("content, words", [
    (b'{"type":"header","game":"moonstar"', "truncated"),
    (b'{"type": "header", oops}\n', "not valid JSON"),
    (b'[1, 2, 3]\n', "expected a JSON object"),
    (b'{"type":"header","game":"moonstar","players":["A"]}\n', "2 to 8 players"),
])
def test_import_bad_files_exit_2(tmp_path, content, words):
    f = tmp_path / "bad.jsonl"
    f.write_bytes(content)
    err = bad("import", f, "--db", tmp_path / "m.db")
    assert words in err and "line 1" in err


def test_bad_inputs_exit_2_with_a_message(dbfile, tmp_path):
    assert "no game 99" in bad("show", "99", "--db", dbfile)
    assert "no game pico/none" in bad("show", "pico/none", "--db", dbfile)
    assert "number from `moontable games`" in bad("show", "last", "--db", dbfile)
    assert "unknown player 'Zed'" in bad("games", "--player", "Zed", "--db", dbfile)
    assert "unknown player 'Zed'" in bad("players", "rename", "Zed", "Z", "--db", dbfile)
    assert "unknown player 'Zed'" in bad("players", "merge", "Zed", "Ann", "--db", dbfile)
    assert "usage: moontable players add NAME" in bad("players", "add", "--db", dbfile)
    assert "unknown game 'chess'" in bad("standings", "--game", "chess", "--db", dbfile)
    assert "unknown game 'chess'" in bad("export", "--format", "csv", "--game", "chess", "--db", dbfile)
    assert "no such file" in bad("import", tmp_path / "nope.jsonl", "--db", dbfile)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00garbage" * 500)
    assert "not a usable moontable database" in bad("games", "--db", junk)
    assert "no database at" in bad("show", "1", "--db", tmp_path / "missing.db")
    assert "--last must be" in bad("report", "--last", "-1", "--db", dbfile)


def test_a_real_process_prints_no_traceback(tmp_path):
    f = tmp_path / "cut.jsonl"
    f.write_bytes(dbkit.moonstar_log(seed=43)[1][:-20])
    r = dbkit.cli_process("import", f, "--db", tmp_path / "m.db")
    assert r.returncode == 2 and "truncated" in r.stderr and "Traceback" not in r.stderr
    r = dbkit.cli_process("show", "7", "--db", tmp_path / "m.db")
    assert r.returncode == 2 and "no game 7" in r.stderr and "Traceback" not in r.stderr


def test_report_chart_starts_from_the_rules_starting_scores(tmp_path):
    """Shoot the Moon starts everyone on 2 chips: a chart's first point
    comes from the rules core, not an assumed 0."""
    from moontable.db import Database

    path = tmp_path / "m.db"
    db = Database.open(path)
    try:
        with open(os.path.join(dbkit.ROOT, "tests", "data", "shoot-the-moon-individual.jsonl"), "rb") as f:
            db.import_log(f.read())
        g = db.game(db.games()[0]["id"])
    finally:
        db.close()
    assert g["start_scores"] == [2, 2, 2]
