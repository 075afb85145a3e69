"""PC-side records (issue 44): one person per folded name in the roster, a
web journal filed under its own device, an abandoned game listed as not
finished, Moonstar's variants named and scored apart, dates that say why
they are approximate, and `players` taking several names and answering
an empty roster."""

import csv
import io
import json

import dbkit
from moontable import bgstats, stats
from moontable.db import Database
from shared_rules.wire import dumps

T = dbkit.T0


def plain(lines):
    return b"".join(dumps(x).encode() + b"\n" for x in lines)


def ok(*argv):
    status, out, err = dbkit.cli(*argv)
    assert status == 0, (argv, out, err)
    return out


def bad(*argv):
    status, out, err = dbkit.cli(*argv)
    assert status == 2, (argv, status, out, err)
    assert "Traceback" not in err
    return err


def named(lines, players):
    out = [dict(x) for x in lines]
    out[0]["players"] = list(players)
    return out


# ------------------------------------------------------------ 1: names the rules fold together

def test_players_add_and_rename_refuse_a_name_the_rules_fold_into_another(tmp_path):
    """With "Straße" stored (from a web journal), `players add STRASSE`
    and `players rename Dee STRASSE` were accepted (SQLite's NOCASE folds
    ASCII only), and a later seat "strasse" landed on one of the two."""
    db = str(tmp_path / "m.db")
    log = tmp_path / "g.jsonl"
    log.write_bytes(plain(named(dbkit.data_lines("moonstar-basic"), ["Straße", "Bob", "Cy"])))
    ok("import", log, "--db", db)
    ok("players", "add", "Dee", "--db", db)
    err = bad("players", "add", "STRASSE", "--db", db)
    assert "there is already a player called Straße" in err, err
    err = bad("players", "rename", "Dee", "STRASSE", "--db", db)
    assert "there is already a player called Straße" in err, err
    # a former name is compared by the same fold
    ok("players", "rename", "Bob", "Rob", "--db", db)
    assert "former name of Rob" in bad("players", "add", "BOB", "--db", db)
    # the person's own name in another case is theirs to take
    ok("players", "rename", "Straße", "STRASSE", "--db", db)
    later = tmp_path / "h.jsonl"
    lines = named(dbkit.data_lines("moonstar-basic"), ["strasse", "Dee", "Cy"])
    lines[0]["id"] = "later"
    later.write_bytes(plain(lines))
    ok("import", later, "--db", db)
    roster = {p["name"]: p for p in json.loads(ok("players", "--json", "--db", db))}
    assert sorted(roster) == ["Cy", "Dee", "Rob", "STRASSE"]
    # no alias kept: "Straße" folds to the new name and finds it as it is
    assert roster["STRASSE"]["games"] == 2 and roster["STRASSE"]["aliases"] == []


# ------------------------------------------------------------ 6: a web journal's own device

WEB = "web-7b519c26"


def _web_journal(path, device=WEB, gid="00001-4zvq"):
    lines = dbkit.stamped(dbkit.data_lines("shoot-the-moon-pairs"), boot=1, t_from=(0, T))
    lines[0]["device"] = device
    lines[0]["id"] = gid
    path.write_bytes(dbkit.journal(lines))
    return path


def test_a_web_journal_is_filed_under_the_device_its_header_names(tmp_path):
    db = str(tmp_path / "m.db")
    log = _web_journal(tmp_path / "web.jsonl")
    said = ok("import", log, "--db", db)
    assert "%s/00001-4zvq" % WEB in said, said
    g = json.loads(ok("games", "--json", "--db", db))[0]
    assert (g["device"], g["game_id"]) == (WEB, "00001-4zvq")
    # the PC's BG Stats play is the page's own: one play, sent from either
    play = json.loads(ok("export", "--format", "bgstats", "--db", db))
    with open(log, "rb") as f:
        page = bgstats.play(bgstats.journal_summary(f, WEB, "moontable"))
    assert play["sourcePlayId"] == page["sourcePlayId"] == "%s/00001-4zvq" % WEB
    # --device still wins over the header
    other = str(tmp_path / "o.db")
    ok("import", log, "--device", "paper", "--db", other)
    assert json.loads(ok("games", "--json", "--db", other))[0]["device"] == "paper"


def test_a_header_device_that_is_no_device_name_keeps_the_file_default(tmp_path):
    db = str(tmp_path / "m.db")
    for i, device in enumerate(["a/b", "", " web-1", "x" * 65, 17, None]):
        ok("import", _web_journal(tmp_path / ("w%d.jsonl" % i), device=device, gid="g%d" % i), "--db", db)
    assert {g["device"] for g in json.loads(ok("games", "--json", "--db", db))} == {"file"}


# ------------------------------------------------------------ 7: not finished, in every listing

def test_an_unfinished_game_lists_as_not_finished_as_the_report_says(tmp_path):
    db = str(tmp_path / "m.db")
    log = tmp_path / "g.jsonl"
    log.write_bytes(dbkit.moonstar_log(("Ann", "Bob"), seed=2, finish=False)[1])
    ok("import", log, "--db", db)
    line = ok("games", "--db", db).splitlines()[1]
    assert "(not finished)" in line and "(going)" not in line, line
    ok("report", "--out", tmp_path / "rep", "--db", db)
    assert "(not finished)" in (tmp_path / "rep" / "plays-1.html").read_text()


# ------------------------------------------------------------ 8: variants

def test_moonstar_variants_are_named_and_their_scores_kept_apart(tmp_path):
    """Game 1 is played to 200, Game 8 to 50: Ann's 200 and 55 averaged
    127.5 as "Moonstar", and every listing but `show` called both so."""
    db = str(tmp_path / "m.db")
    for name in ("moonstar-basic", "moonstar-chains"):
        (tmp_path / (name + ".jsonl")).write_bytes(plain(dbkit.data_lines(name)))
        ok("import", tmp_path / (name + ".jsonl"), "--db", db)
    listing = ok("games", "--db", db)
    assert "Moonstar (Game 8)" in listing and listing.count("Moonstar") == 2, listing
    rows = list(csv.DictReader(io.StringIO(ok("export", "--format", "csv", "--db", db))))
    assert {r["game_name"] for r in rows} == {"Moonstar", "Moonstar (Game 8)"}
    with Database.open(db, readonly=True) as d:
        records = stats.records(d.games())
    ann = {key: [r for r in rows if r["player"] == "Ann"][0] for key, rows in records["by_game"].items()}
    assert (ann["moonstar"]["avg"], ann["moonstar"]["best"]) == (200, 200)
    assert (ann["Moonstar (Game 8)"]["avg"], ann["Moonstar (Game 8)"]["best"]) == (55, 55)
    out = tmp_path / "rep"
    ok("report", "--out", out, "--db", db)
    pages = "".join(p.read_text() for p in out.rglob("*.html"))
    assert "127.5" not in pages and "Moonstar (Game 8)" in pages


# ------------------------------------------------------------ 9: dates

def test_a_power_up_no_clock_dated_is_not_called_an_unset_clock(tmp_path):
    """The clock was set by a sync before the game began; a power-up in
    the middle was dated by nothing. Its BG Stats comment said the clock
    was not set when it was played."""
    db = str(tmp_path / "m.db")
    lines = dbkit.data_lines("moon-moon21")
    half = len(lines) // 2
    stamped = dbkit.stamped(lines[:half], boot=1, t_from=(0, T)) + dbkit.stamped(lines[half:], boot=2)
    with Database.open(db) as d:
        d.record_clocks("pico", {"1": T * 1000})
    log = tmp_path / "g.jsonl"
    log.write_bytes(plain(stamped))
    ok("import", log, "--device", "pico", "--db", db)
    g = json.loads(ok("games", "--json", "--db", db))[0]
    assert g["approx"] and g["started"] == "2026-01-01 09:00:00"
    note = json.loads(ok("export", "--format", "bgstats", "--db", db))["comments"]
    assert "not set" not in note and "only part of this game" in note, note


def test_a_stamp_in_2100_is_refused_and_the_comment_says_what_dates_the_game(tmp_path):
    """The docs say a "t" is a date from 2001 to 2099, but 4102444800
    (2100-01-01) was taken: the game was dated 2100 and its comment said
    "dated by its sync"."""
    db = str(tmp_path / "m.db")
    lines = dbkit.data_lines("moon-moon21")
    stamped = dbkit.stamped(lines[:1], boot=1) + dbkit.stamped(lines[1:], boot=2)
    stamped[-1]["t"] = 4102444800
    log = tmp_path / "g.jsonl"
    log.write_bytes(plain(stamped))
    said = ok("import", log, "--db", db)
    assert '"t" 4102444800 is not a date from 2001 to 2099' in said, said
    g = json.loads(ok("games", "--json", "--db", db))[0]
    assert g["approx"] and "2100" not in g["date"]
    play = json.loads(ok("export", "--format", "bgstats", "--db", db))
    assert not play["playDate"].startswith("2100")
    assert "when it reached the PC" in play["comments"], play["comments"]


# ------------------------------------------------------------ 14: players add, an empty roster

def test_players_add_takes_several_names_at_once(tmp_path):
    db = str(tmp_path / "m.db")
    assert ok("players", "add", "Alice", "Bob", "Chloe", "--db", db).strip() == "added Alice, Bob, Chloe"
    assert [p["name"] for p in json.loads(ok("players", "--json", "--db", db))] == ["Alice", "Bob", "Chloe"]
    assert json.loads(ok("players", "add", "Dan", "Eve", "--json", "--db", db)) == {"added": ["Dan", "Eve"]}
    # all or nothing: one name taken (or given twice) adds none of them
    assert "there is already a player called Bob" in bad("players", "add", "Fay", "BOB", "--db", db)
    assert "Gus is given twice" in bad("players", "add", "Gus", "gus", "--db", db)
    assert len(json.loads(ok("players", "--json", "--db", db))) == 5
    assert "usage: moontable players add NAME..." in bad("players", "add", "--db", db)
    # the names may follow an option too (a player's evening: `players add --db X Ann B C`)
    assert ok("players", "add", "--db", db, "Hal", "Ida").strip() == "added Hal, Ida"
    assert "unrecognized arguments: zzz" in bad("games", "--db", db, "zzz")


def test_players_on_a_new_database_is_an_empty_roster(tmp_path):
    db = tmp_path / "new.db"
    status, out, err = dbkit.cli("players", "--db", db)
    assert status == 0 and err == "" and "the roster is empty" in out, (status, out, err)
    assert json.loads(ok("players", "list", "--json", "--db", db)) == []
    assert not db.exists() and list(tmp_path.iterdir()) == []
    # nothing to rename, merge or link in a database that is not there: said, and none is made
    assert "no database at" in bad("players", "rename", "Ann", "Bea", "--db", db)
    assert not db.exists()
