"""Storing verified games: stored / unchanged / quarantined, staging by
offset, and the sync-facing API."""

import pytest

import dbkit
from moontable.db import Database, DbError


@pytest.fixture
def db(tmp_path):
    d = Database.open(tmp_path / "m.db")
    yield d
    d.close()


def stage_all(db, dev, gid, data, chunk=97):
    off = db.staged_size(dev, gid)
    while off < len(data):
        db.stage_chunk(dev, gid, off, data[off:off + chunk])
        off = db.staged_size(dev, gid)


def test_store_then_unchanged(db):
    m, data = dbkit.moonstar_log(seed=1)
    db.record_device("pico-1", {"fw": "0.1", "rules": 1, "mpy": "6.3"})
    assert not db.is_stored("pico-1", "g1")
    stage_all(db, "pico-1", "g1", data)
    status, msg = db.commit_game("pico-1", "g1")
    assert status == "stored" and "winner" in msg
    assert db.is_stored("pico-1", "g1")
    g = db.game(db.game_pk("pico-1/g1"))
    assert g["scores"] == m.state["scores"]
    assert g["winners"] == [m.header["players"][m.winner()]]
    assert g["rounds"] == m.state["round"] and len(g["round_scores"]) == g["rounds"]
    assert g["events"] == m.count
    assert g["journal"] == data
    before = db.dump()
    # syncing it again changes nothing
    assert db.staged_size("pico-1", "g1") == len(data)
    stage_all(db, "pico-1", "g1", data)
    assert db.commit_game("pico-1", "g1")[0] == "unchanged"
    assert db.dump() == before
    assert db.device("pico-1")["info"]["fw"] == "0.1"


def test_tampered_log_is_quarantined_and_nothing_else_changes(db):
    m, good = dbkit.moonstar_log(seed=2)
    stage_all(db, "pico-1", "g0", good)
    db.commit_game("pico-1", "g0")
    bad, line = dbkit.tamper_score(dbkit.moonstar_log(seed=3)[1])
    stage_all(db, "pico-1", "g1", bad)
    status, msg = db.commit_game("pico-1", "g1")
    # A sound line the rules refuse: the game is kept as it stood before
    # it (unfinished, so it counts nowhere), the journal quarantined.
    assert status == "partial"
    assert ("line %d" % line) in msg and "points must be a whole number from 0 to" in msg and "999" in msg
    assert "kept as it stood before that line" in msg
    assert db.is_stored("pico-1", "g1")
    g = db.game(db.game_pk("pico-1/g1"))
    assert g["events"] == line - 2 and not g["finished"]
    before = db.dump(skip=("quarantine",))
    q = db.quarantined()
    assert len(q) == 1 and q[0]["line"] == line and '"points":999' in q[0]["excerpt"]
    # the same bad game synced again: still one report, nothing merged
    held = db.staged_size("pico-1", "g1")  # the stored lines: the device sends the rest again
    db.stage_chunk("pico-1", "g1", held, bad[held:])
    assert db.commit_game("pico-1", "g1")[0] == "partial"
    assert len(db.quarantined()) == 1
    assert db.dump(skip=("quarantine",)) == before


@pytest.mark.parametrize("damage, words", [
    (lambda d: d[:-7], "truncated"),
    (lambda d: d.replace(b'"bid"', b'"bad"', 1), "CRC mismatch"),
    (lambda d: b"not json at all\n" + d, "line 1"),
    (lambda d: d.replace(b'"moonstar"', b'"chess"', 1), "CRC"),
])
def test_corrupt_logs_are_quarantined_with_the_cause(db, damage, words):
    m, data = dbkit.moonstar_log(seed=4)
    bad = damage(data)
    status, msg, gid = db.import_log(bad)
    assert status == "quarantined" and words in msg
    assert db.games() == []


def test_plain_log_with_unknown_game_names_it(db):
    m, data = dbkit.moonstar_log(seed=4, crc=False)
    status, msg, gid = db.import_log(data.replace(b'"moonstar"', b'"chess"', 1))
    assert status == "quarantined" and "unknown game 'chess'" in msg


def test_wrong_offset_is_refused(db):
    m, data = dbkit.moonstar_log(seed=5)
    db.stage_chunk("d", "g", 0, data[:50])
    with pytest.raises(ValueError, match="starts at byte 49, but the database holds 50"):
        db.stage_chunk("d", "g", 49, data[49:100])
    with pytest.raises(ValueError, match="starts at byte 0"):
        db.stage_chunk("d", "g", 0, data[:50])
    with pytest.raises(ValueError, match="starts at byte 60"):
        db.stage_chunk("d", "g", 60, data[60:100])
    with pytest.raises(ValueError, match="bytes"):
        db.stage_chunk("d", "g", 50, "text")
    with pytest.raises(ValueError, match="non-negative"):
        db.stage_chunk("d", "g", -1, b"")
    assert db.staged_size("d", "g") == 50
    with pytest.raises(ValueError, match="nothing staged"):
        db.commit_game("d", "other")


def test_staging_survives_reopening_and_resumes(tmp_path):
    m, data = dbkit.moonstar_log(seed=6)
    path = tmp_path / "m.db"
    with Database.open(path) as db:
        db.stage_chunk("d", "g", 0, data[:1234])
    with Database.open(path) as db:  # "the cable was pulled"
        assert db.staged_size("d", "g") == 1234
        stage_all(db, "d", "g", data, chunk=7)
        assert db.commit_game("d", "g")[0] == "stored"
        assert db.game(1)["journal"] == data
        assert db.conn.execute("SELECT COUNT(*) FROM staging").fetchone()[0] == 0


def test_a_game_that_grows_is_updated_from_its_tail(db):
    m, full = dbkit.moonstar_log(seed=7)
    cut = full.index(b"\n", len(full) // 2) + 1  # a partial game, cut at a line end
    stage_all(db, "d", "g", full[:cut])
    status, msg = db.commit_game("d", "g")
    assert status == "stored" and "not finished" in msg
    g = db.game(1)
    assert not g["finished"] and g["winners"] == []
    assert db.standings() == []  # unfinished games count for nobody
    assert db.staged_size("d", "g") == cut  # the next sync only reads the new tail
    stage_all(db, "d", "g", full)
    status, msg = db.commit_game("d", "g")
    assert status == "stored" and msg.startswith("updated game 1")
    g = db.game(1)
    assert g["finished"] and g["journal"] == full and g["scores"] == m.state["scores"]
    assert db.conn.execute("SELECT events FROM games WHERE id=1").fetchone()[0] == m.count
    assert len(db.games()) == 1


def test_a_bad_tail_quarantines_but_keeps_the_stored_part(db):
    m, full = dbkit.moonstar_log(seed=8)
    cut = full.index(b"\n", len(full) // 2) + 1
    stage_all(db, "d", "g", full[:cut])
    db.commit_game("d", "g")
    before = db.dump(skip=("quarantine",))
    tail = b'{"type":"result","points":5000}\n'
    db.stage_chunk("d", "g", cut, tail)
    status, msg = db.commit_game("d", "g")
    assert status == "partial" and "already stored" in msg and "quarantined" in msg
    assert db.dump(skip=("quarantine",)) == before
    assert len(db.quarantined()) == 1


def test_import_log_ids_and_conflicts(db, tmp_path):
    m, data = dbkit.moonstar_log(seed=9)
    status, msg, gid = db.import_log(data)
    assert status == "stored" and gid == "ms-9"  # the header's id
    assert db.import_log(data)[0] == "unchanged"
    other = dbkit.moonstar_log(seed=10)[1].replace(b'"ms-10"', b'"ms-9"')
    assert db.import_log(other, game_id="ms-9")[0] == "quarantined"
    path = tmp_path / "x.jsonl"
    path.write_bytes(dbkit.moonstar_log(seed=10, crc=False)[1])
    status, msg, gid = db.import_log(str(path), device_id="laptop", game_id=None)
    assert status == "stored" and gid == "ms-10"
    with pytest.raises(DbError, match="no such file"):
        db.import_log(str(tmp_path / "missing.jsonl"))
    with pytest.raises(DbError, match="empty"):
        db.import_log(b"\n\n")


def test_players_are_shared_across_games_and_roster(db):
    db.import_log(dbkit.moonstar_log(("Ann", "Bob", "Cy"), seed=12)[1])
    db.import_log(dbkit.moonstar_log(("Bob", "Dee"), seed=13)[1])
    db.import_log(dbkit.moonstar_log(("Bob", "Eve", "A-very-long-name"), seed=14, crc=False)[1])
    names = [p["name"] for p in db.players()]
    assert names == ["A-very-long-name", "Ann", "Bob", "Cy", "Dee", "Eve"]
    roster = db.roster()
    assert roster[0] == "Bob"  # most played first
    assert "A-very-long-name" not in roster and set(roster) == {"Ann", "Bob", "Cy", "Dee", "Eve"}


def test_rename_merge_and_aliases(db):
    db.import_log(dbkit.moonstar_log(("Ann", "Bob"), seed=15)[1])
    db.import_log(dbkit.moonstar_log(("ann b", "Cy"), seed=16)[1])
    db.rename_player("Bob", "Robert")
    with pytest.raises(DbError, match="former name of Robert"):
        db.add_player("bob")
    with pytest.raises(DbError, match="already a player called Ann"):
        db.add_player("ANN")
    with pytest.raises(DbError, match="at most 10"):
        db.add_player("Bartholomew")
    with pytest.raises(DbError, match="font cannot show"):
        db.add_player("Zoë")
    moved = db.merge_players("ann b", "Ann")
    assert moved == 1
    st = {r["player"]: r for r in db.standings()}
    assert st["Ann"]["games"] == 2 and "ann b" not in st
    with pytest.raises(DbError, match="unknown player 'Nobody'"):
        db.merge_players("Nobody", "Ann")
    with pytest.raises(DbError, match="both played game 1"):
        db.merge_players("Robert", "Ann")
    # a later game still naming the old spellings lands on the same players
    db.import_log(dbkit.moonstar_log(("ann b", "Bob"), seed=17)[1])
    st = {r["player"]: r for r in db.standings()}
    assert st["Ann"]["games"] == 3 and st["Robert"]["games"] == 2
    assert [p["name"] for p in db.players()] == ["Ann", "Cy", "Robert"]


def shoot_the_moon_log(seed):
    """A Shoot the Moon partnership game (4 players, 2 teams) entered trick
    by trick until a side has its chips."""
    import random
    from shared_rules.match import Match
    rng = random.Random(seed)
    m = Match("shoot-the-moon", ["Ann", "Bob", "Cy", "Dee"], {"teams": 2}, {"id": "stm-%d" % seed})
    lines = [m.header]
    while not m.state["over"]:
        ev = {"type": "trick", "winner": rng.randrange(4), "t": dbkit.T0 + 30 * len(lines)}
        m.apply(ev)
        lines.append(ev)
    return m, dbkit.journal(lines)


def test_partners_win_together(db):
    m, data = shoot_the_moon_log(51)
    status, msg, gid = db.import_log(data)
    assert status == "stored"
    g = db.game(db.game_pk("file/" + gid))
    w = m.winner()
    partners = [p for s, p in enumerate(m.header["players"]) if s % 2 == w % 2]
    assert sorted(g["winners"]) == sorted(partners) and len(partners) == 2
    assert g["scores"] == m.state["scores"]
    wins = {r["player"]: r["wins"] for r in db.standings("shoot-the-moon")}
    assert sum(wins.values()) == 2
