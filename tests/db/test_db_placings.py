"""Stored ranks and winners come from the game's win rule (issue 22,
"Placings are a rule"): the Moon bidder who went out with a lower total is
first, Shoot the Moon partners share a place and the next team is second,
and a database from before (ranked by score) is re-ranked on upgrade."""

import sqlite3

import dbkit
from pathlib import Path

import dbkit
from moontable.db import Database
from moontable.migrations import MIGRATIONS

DATA = Path(__file__).resolve().parents[1] / "data"


def _import(db, name):
    status, msg, gid = db.import_log(DATA / name)
    assert status == "stored", msg
    return db.games()[-1], msg


def test_moon_bidder_out_is_ranked_first(tmp_path):
    db = Database.open(tmp_path / "m.db")
    g, msg = _import(db, "moon-bidder-out.jsonl")
    assert g["scores"] == [22, 21, 22]
    assert g["ranks"] == [2, 1, 2] and g["winners"] == ["Bob"] and g["winner_seats"] == [1]
    assert "winner Bob" in msg
    db.close()


def test_partners_share_a_place_and_the_next_team_is_second(tmp_path):
    db = Database.open(tmp_path / "m.db")
    g, msg = _import(db, "shoot-the-moon-pairs.jsonl")
    assert g["ranks"] == [2, 1, 2, 1] and g["winner_seats"] == [1, 3]
    assert "winners Ben & " in msg, msg
    g, _ = _import(db, "shoot-the-moon-three-pairs.jsonl")
    assert sorted(set(g["ranks"])) == list(range(1, len(set(g["ranks"])) + 1)), g["ranks"]  # 1, 2, 3: no gaps
    db.close()


def test_upgrade_re_ranks_games_stored_by_score(tmp_path):
    path = tmp_path / "v4.db"
    db = Database.open(path)
    _import(db, "moon-bidder-out.jsonl")
    db.close()
    with sqlite3.connect(path) as c:  # as version 4 ranked it: by score, and had no source ids
        c.execute("UPDATE results SET rank = CASE seat WHEN 1 THEN 3 ELSE 1 END")
        dbkit.rewind_to_v4(c)
    db = Database.open(path)
    assert db.schema_version() == len(MIGRATIONS)
    g = db.games()[0]
    assert g["ranks"] == [2, 1, 2] and g["winner_seats"] == [1]
    db.close()
