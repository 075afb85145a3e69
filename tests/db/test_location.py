"""config.toml's `location`: where the games are played, shown in the
report's play log and game pages and sent in the BG Stats plays for a game
whose log names no place; a log's own place and `--location` win; a bad
value stops the command with one line naming the file and the key."""

import csv
import io
import json
from urllib.parse import parse_qs, urlsplit

import pytest

import dbkit
from moontable.db import Database
from shared_rules.wire import dumps

CLUB = "Moon Club <back room>"


def plain(lines):
    return b"".join(dumps(x).encode() + b"\n" for x in lines)


@pytest.fixture
def dbfile(tmp_path):
    """Two finished Moonstar games: game 1's log names its place, game 2's
    does not."""
    path = tmp_path / "m.db"
    with Database.open(path) as db:
        for seed in (1, 2):
            lines = dbkit.stamped(dbkit.moonstar_events(["Ann", "Bob", "Cy"], seed)[1], boot=seed, start_ms=1000)
            if seed == 1:
                lines[0]["location"] = "Ann's kitchen"
            status, msg, _ = db.import_log(plain(lines), device_id="pico")
            assert status == "stored", msg
    return str(path)


@pytest.fixture
def config(tmp_path, monkeypatch):
    """Write config.toml (named by $MOONTABLE_CONFIG) and return its path."""
    path = tmp_path / "config.toml"
    monkeypatch.setenv("MOONTABLE_CONFIG", str(path))

    def write(text):
        path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
        return path
    return write


def ok(*argv):
    status, out, err = dbkit.cli(*argv)
    assert status == 0, err
    return out


def bgstats_plays(dbfile, *extra):
    return [json.loads(line) for line in ok("export", "--format", "bgstats", "--db", dbfile, *extra).splitlines()]


def test_config_location_is_shown_and_exported_for_a_game_without_one(dbfile, tmp_path, config):
    config('location = "%s"\n' % CLUB)
    out = tmp_path / "rep"
    ok("report", "--out", out, "--db", dbfile)
    log = (out / "plays-1.html").read_text()
    escaped = "Moon Club &lt;back room&gt;"
    # the log's own place for game 1, the configured one for game 2 (escaped: a name is text)
    assert '<td class="l">Ann&#39;s kitchen</td>' in log and '<td class="l">%s</td>' % escaped in log
    assert escaped in (out / "games" / "2.html").read_text()
    assert escaped not in (out / "games" / "1.html").read_text()
    # BG Stats: in the export and in the game page's link (and so its QR code)
    plays = bgstats_plays(dbfile)
    assert [p.get("location") for p in plays] == ["Ann's kitchen", CLUB]
    link = ok("export", "--format", "bgstats", "--links", "--db", dbfile).splitlines()[1]
    assert json.loads(parse_qs(urlsplit(link).query)["data"][0])["location"] == CLUB
    # the csv carries it on every row
    rows = list(csv.DictReader(io.StringIO(ok("export", "--format", "csv", "--db", dbfile))))
    assert {r["id"]: r["location"] for r in rows} == {"1": "Ann's kitchen", "2": CLUB}


def test_no_location_anywhere_leaves_it_out(dbfile, tmp_path, config):
    config('database = "%s"\n' % dbfile)
    plays = bgstats_plays(dbfile)
    assert "location" in plays[0] and "location" not in plays[1]
    rows = list(csv.DictReader(io.StringIO(ok("export", "--format", "csv", "--db", dbfile))))
    assert {r["id"]: r["location"] for r in rows} == {"1": "Ann's kitchen", "2": ""}


def test_the_option_wins_over_the_file_and_a_changed_place_remakes_the_page(dbfile, tmp_path, config):
    config('location = "%s"\n' % CLUB)
    assert bgstats_plays(dbfile, "--location", "Town hall")[1]["location"] == "Town hall"
    out = tmp_path / "rep"
    ok("report", "--out", out, "--db", dbfile)
    config('location = "Town hall"\n')
    said = ok("report", "--out", out, "--db", dbfile)
    assert "1 game page made, 1 unchanged" in said  # game 2's page: its place changed
    assert "Town hall" in (out / "games" / "2.html").read_text()


@pytest.mark.parametrize("text, says", [
    ("location = 3\n", "location must be where the games are played, as one line of text"),
    ('location = "  "\n', "location must be where the games are played"),
    ('location = "Club\\nroom"\n', "holds the control character '\\n'"),
    ('location = "%s"\n' % ("x" * 101), "location is 101 characters long; a place's name may have 100 at most"),
    ('locaton = "Club"\n', "unknown setting 'locaton' (known: database, location, port)"),
])
def test_a_bad_location_stops_the_command_naming_the_file_and_key(dbfile, tmp_path, config, text, says):
    path = config(text)
    out = tmp_path / "rep"
    status, said, err = dbkit.cli("report", "--out", out, "--db", dbfile)
    assert status == 2 and said == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("moontable report: config: %s" % path) and says in err, err
    assert not out.exists()  # nothing written


@pytest.mark.parametrize("value, says", [
    ("", "--location must be where the games are played"),
    ("a\tb", "holds the control character '\\t'"),
    ("y" * 101, "--location is 101 characters long"),
])
def test_a_bad_location_option_is_refused(dbfile, value, says):
    status, out, err = dbkit.cli("export", "--format", "csv", "--location", value, "--db", dbfile)
    assert status == 2 and out == "" and says in err, err


def test_help_names_the_config_file_and_its_keys(tmp_path, config, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")  # argparse would wrap the path at its hyphens
    path = config("")
    status, out, err = dbkit.cli("--help")
    text = " ".join(out.split())
    assert status == 0 and str(path) in text
    for key in ('port = "/dev/ttyACM0"', 'database = "~/games.db"', 'location = "Club room"'):
        assert key in text
    assert "--location" in " ".join(dbkit.cli("report", "--help")[1].split())
