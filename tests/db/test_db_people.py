"""People, not labels (issue 22): a seat label (P1, P2, ... for a seat
nobody named on the device or the web page) never maps to a person; a new
name maps to a person only by its folded name; `moontable players link`
says who sat at a seat of one game; and the PC and the web page give one
person one BG Stats sourcePlayerId."""

import io
import json
import sqlite3

import dbkit
from moontable import bgstats
from moontable.db import Database
from shared_rules.match import Match


def _game(players, gid):
    """A finished Shoot the Moon game, won by the second seat."""
    m = Match("shoot-the-moon", players, {"target": 3})
    lines = [dict(m.header, id=gid)]
    for _ in range(5):
        e = {"type": "trick", "winner": 1}
        m.apply(e)
        lines.append(e)
    assert m.state["over"]
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines).encode()


def _wins(path):
    return {r["player"]: r["wins"] for r in json.loads(dbkit.cli("standings", "--json", "--db", path)[1])["overall"]}


def test_renaming_a_label_is_refused_and_points_to_link(tmp_path):
    path = str(tmp_path / "m.db")
    with Database.open(path) as db:
        db.import_log(_game(["P1", "P2", "P3"], "w1"), device_id="web")
    code, out, err = dbkit.cli("players", "rename", "P1", "Ann", "--db", path)
    assert code == 2 and "P1 is a seat label" in err and "players link GAME P1 NAME" in err, err
    code, out, err = dbkit.cli("players", "add", "p2", "--db", path)
    assert code == 2 and "seat label" in err
    code, out, err = dbkit.cli("players", "merge", "P2", "Ann", "--db", path)
    assert code == 2 and "seat label" in err


def test_a_web_journal_played_as_labels_credits_nobody(tmp_path):
    """After `players rename P1 Ann` (as version 4 allowed), importing a
    web-page journal played as P1/P2/P3 credited Ann with a win she never
    played. Labels never map to a person now, and the upgrade forgets the
    label as Ann's former name (her own games stay hers)."""
    path = str(tmp_path / "m.db")
    with Database.open(path) as db:
        db.import_log(_game(["Bob", "P1", "Cy"], "d1"), device_id="pico")  # P1 won on the device: Ann, in fact
    with sqlite3.connect(path) as c:  # what `players rename P1 Ann` did in version 4
        c.execute("UPDATE players SET name='Ann' WHERE name='P1'")
        c.execute("INSERT INTO player_aliases(name, player) SELECT 'P1', id FROM players WHERE name='Ann'")
        dbkit.rewind_to_v4(c)
    with Database.open(path) as db:
        assert _wins(path) == {"Ann": 1, "Bob": 0, "Cy": 0}
        status, msg, _ = db.import_log(_game(["P1", "P2", "P3"], "w1"), device_id="web")
        assert status == "stored", msg
    assert _wins(path) == {"Ann": 1, "Bob": 0, "Cy": 0}  # P2 won the page's game: nobody's record
    names = [p["name"] for p in json.loads(dbkit.cli("players", "--json", "--db", path)[1])]
    assert sorted(names) == ["Ann", "Bob", "Cy"]  # labels are no one's name in the list


def test_link_says_who_sat_at_a_seat_of_one_game(tmp_path):
    path = str(tmp_path / "m.db")
    with Database.open(path) as db:
        db.import_log(_game(["Ann", "Bob", "Cy"], "d1"), device_id="pico")
        db.import_log(_game(["P1", "P2", "P3"], "w1"), device_id="web")
        db.import_log(_game(["P1", "P2", "P3"], "w2"), device_id="web")
    code, out, err = dbkit.cli("players", "link", "web/w1", "P2", "Ann", "--db", path)
    assert code == 0 and out.strip() == "game web/w1: P2 is Ann", (out, err)
    assert _wins(path) == {"Bob": 1, "Ann": 1, "Cy": 0}  # game w1 only: w2's P2 is still nobody
    g = json.loads(dbkit.cli("show", "web/w1", "--json", "--db", path)[1])
    assert g["players"] == ["P1", "Ann", "P3"] and g["winners"] == ["Ann"]
    # one person holds one seat; a label is not a person; a seat must exist
    code, _, err = dbkit.cli("players", "link", "web/w1", "3", "Ann", "--db", path)
    assert code == 2 and "Ann already sat at seat 2 (P2) of game 2" in err, err
    code, _, err = dbkit.cli("players", "link", "web/w1", "P1", "P3", "--db", path)
    assert code == 2 and "P3 is a seat label, not a person" in err
    code, _, err = dbkit.cli("players", "link", "web/w1", "P9", "Dan", "--db", path)
    assert code == 2 and "game 2 has no seat P9 (its seats: P1, P2, P3)" in err, err
    code, _, err = dbkit.cli("players", "link", "web/w2", "1", "Dan", "--db", path)  # a new person
    assert code == 0, err
    assert _wins(path)["Dan"] == 0


def test_a_new_name_finds_its_person_by_folded_name(tmp_path):
    path = str(tmp_path / "m.db")
    with Database.open(path) as db:
        db.import_log(_game(["\u00c9mile", "Stra\u00dfe", "Cy"], "a"), device_id="pico")
        status, msg, _ = db.import_log(_game(["\u00c9MILE", "STRASSE", "cy"], "b"), device_id="pico")
        assert status == "stored", msg
        ids = {p["name"]: p["games"] for p in db.players()}
    assert ids == {"\u00c9mile": 2, "Stra\u00dfe": 2, "Cy": 2}


def test_pc_and_page_give_one_person_one_source_player_id(tmp_path):
    path = str(tmp_path / "m.db")
    journal = _game(["Zo\u00eb", "P2", "\u0410\u043d\u044f"], "g1")
    with Database.open(path) as db:
        db.import_log(journal, device_id="web1")
    pc = json.loads(dbkit.cli("export", "--format", "bgstats", "--db", path)[1])
    page = bgstats.play(bgstats.journal_summary(io.BytesIO(journal), "web1", "moontable", "g1"))
    ids = [x["sourcePlayerId"] for x in pc["players"]]
    assert ids == [x["sourcePlayerId"] for x in page["players"]]
    assert ids == ["moontable-zo\u00eb", "moontable-seat-web1/g1-P2", "moontable-\u0430\u043d\u044f"]
    # a rename on the PC keeps the person's id
    assert dbkit.cli("players", "rename", "Zo\u00eb", "Zoe", "--db", path)[0] == 0
    pc = json.loads(dbkit.cli("export", "--format", "bgstats", "--db", path)[1])
    assert pc["players"][0]["name"] == "Zoe" and pc["players"][0]["sourcePlayerId"] == "moontable-zo\u00eb"
