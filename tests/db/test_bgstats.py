"""BG Stats: one play per line, one createPlay link per play, and every
field of every play checked after decoding the link back, for all four
games (Shoot the Moon in partnerships)."""

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

import dbkit
from moontable.db import Database
from shared_rules.match import Match
from shared_rules.wire import dumps

BOOT_EPOCH = dbkit.T0 + 3600  # 2026-01-01 10:00:00 device time at ms 0 of boot 7
BGG = {"moonstar": 1714, "shoot-the-moon": 21435, "moons": 169743}
NAMES = {"moonstar": "Moonstar", "shoot-the-moon": "Shoot the Moon", "moon": "Moon (dominoes)", "moons": "Moons"}


def _log(lines):
    return b"".join(dumps(x).encode() + b"\n" for x in lines)


def _replayed(lines):
    """Final state and who started, worked out here from the rules core."""
    m = Match.from_header(lines[0])
    first = None
    for ev in [None] + lines[1:]:
        if ev is not None:
            m.apply({k: v for k, v in ev.items() if k not in ("b", "ms", "t")})
        if m.state["round"] == 0 or first is None:
            for key in ("first_leader", "setter", "dealer", "first"):
                if isinstance(m.state.get(key), int):
                    first = m.state[key]
                    break
    return m, first


@pytest.fixture
def db4(tmp_path):
    """The four games stored from device "pico": three in boot 7, whose
    clock the PC knows, and Moons in boot 8, which nothing dates."""
    path = str(tmp_path / "m.db")
    games = {}
    with Database.open(path) as db:
        for i, name in enumerate(dbkit.FOUR_GAMES):
            lines = dbkit.data_lines(name)
            boot = 8 if name == "moons-default" else 7
            lines = dbkit.stamped(lines, boot, start_ms=i * 3600000)
            lines[0]["id"] = name
            assert db.import_log(_log(lines), device_id="pico")[0] == "stored"
            games[lines[0]["game"]] = lines
        db.record_clocks("pico", {"7": BOOT_EPOCH * 1000})
    return path, games


def _links_and_plays(path):
    lines = dbkit.cli("export", "--format", "bgstats", "--db", path)
    links = dbkit.cli("export", "--format", "bgstats", "--links", "--db", path)
    assert lines[0] == 0 and links[0] == 0, (lines, links)
    plays = [json.loads(x) for x in lines[1].splitlines()]
    urls = links[1].splitlines()
    return plays, urls


def test_every_field_of_every_play_survives_the_link(db4):
    path, games = db4
    plays, urls = _links_and_plays(path)
    assert len(plays) == len(urls) == 4
    for play, url in zip(plays, urls):
        parts = urlsplit(url)
        assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
        assert list(parse_qs(parts.query)) == ["data"]
        assert re.fullmatch(r"data=[A-Za-z0-9%._~-]+", parts.query)  # fully URL-encoded
        decoded = json.loads(parse_qs(parts.query)["data"][0])
        assert decoded == play  # the link carries exactly the play of the JSON line
        check_play(decoded, games[decoded["game"]["sourceGameId"]])


def check_play(p, lines):
    header = lines[0]
    game = header["game"]
    m, first = _replayed(lines)
    scores = m.state["scores"]
    i = dbkit.FOUR_GAMES.index(header["id"])
    assert set(p) <= {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players", "board", "comments"}
    assert p["sourceName"] == "moontable"
    assert p["sourcePlayId"] == "pico/%s" % header["id"]
    # the game: the box's name, our id, BGG id only where BGG has the game
    expect = {"name": NAMES[game], "sourceGameId": game, "highestWins": True}  # noPoints false: left out
    if game in BGG:
        expect["bggId"] = BGG[game]
    assert p["game"] == expect
    if game == "moon":
        assert "bggId" not in p["game"]
    # when: boot 7's clock is known, so its games have exact end times and
    # durations; Moons (boot 8, no clock) has its length but only an approximate date
    minutes = len(lines) - 1  # the lines are one minute apart
    assert p["durationMin"] == minutes
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", p["playDate"])
    if game != "moons":
        end = BOOT_EPOCH + i * 3600 + minutes * 60
        from moontable.times import format_epoch
        assert p["playDate"] == format_epoch(end)
    # players: seat order, names, stable ids, numbers, shared ranks, every winner flag
    players = p["players"]
    assert [x["name"] for x in players] == header["players"]
    assert [x["score"] for x in players] == scores
    assert all(type(x["score"]) is int for x in players)
    # winner and startPlayer only where true (BG Stats reads a missing key as false)
    assert all(x.get("winner", True) is True and x.get("startPlayer", True) is True for x in players)
    # one scheme with the web page: "moontable-" + the folded name the person was first stored under
    from shared_rules.names import fold
    assert [x["sourcePlayerId"] for x in players] == ["moontable-" + fold(n) for n in header["players"]]
    assert len({x["sourcePlayerId"] for x in players}) == len(players)
    from shared_rules.places import seat_ranks
    assert [x["rank"] for x in players] == seat_ranks(m.placings(), len(players))  # the win rule's places
    assert [x.get("startPlayer", False) for x in players] == [seat == first for seat in range(len(players))]
    assert first is not None
    top = max(scores)
    if game == "shoot-the-moon":
        # partnerships: seats 0+2 and 1+3, in each player's team; both
        # partners win and share the place, and the other team is second
        assert [x["team"] for x in players] == ["Ann & Cat", "Ben & Dan", "Ann & Cat", "Ben & Dan"]
        assert [x.get("winner", False) for x in players] == [False, True, False, True]
        assert [x["rank"] for x in players] == [2, 1, 2, 1]
        assert "board" not in p  # the teams say it
    else:
        assert all("team" not in x and "role" not in x for x in players)
        assert [x.get("winner", False) for x in players] == [s == top for s in scores]
    # an approximate date says so
    assert ("comments" in p) == (game == "moons"), p
    if game == "moons":
        assert "approximate" in p["comments"]
    if game == "moonstar":
        assert p["board"] == "Game %d" % header["options"]["game"]
    if game in ("moon", "moons"):
        assert "board" not in p


def test_plays_are_stable_across_exports_and_renames(db4):
    path, _ = db4
    before, _ = _links_and_plays(path)
    assert dbkit.cli("players", "rename", "Ann", "Annie", "--db", path)[0] == 0
    after, _ = _links_and_plays(path)
    assert [p["sourcePlayId"] for p in before] == [p["sourcePlayId"] for p in after]
    for b, a in zip(before, after):
        assert [x["sourcePlayerId"] for x in b["players"]] == [x["sourcePlayerId"] for x in a["players"]]
    assert "Annie" in [x["name"] for p in after for x in p["players"]]


def test_no_duration_when_nothing_says_how_long(tmp_path):
    """A log with no times at all: dated by its import, marked approx., and
    no durationMin key (BG Stats would read 0 as a real length)."""
    path = str(tmp_path / "m.db")
    with Database.open(path) as db:
        db.import_log(_log(dbkit.data_lines("moon-moon21")))
    plays, _ = _links_and_plays(path)
    assert len(plays) == 1 and "durationMin" not in plays[0]
    games = json.loads(dbkit.cli("games", "--json", "--db", path)[1])
    assert games[0]["approx"] is True and games[0]["date"].startswith("approx. ")
    assert "approx." in dbkit.cli("games", "--db", path)[1]


def test_report_has_a_link_and_a_qr_code_per_finished_game(db4, tmp_path):
    path, _ = db4
    out = tmp_path / "rep"
    assert dbkit.cli("report", "--out", out, "--db", path)[0] == 0
    pages = "".join((out / "games" / ("%d.html" % n)).read_text() for n in range(1, 5))
    page = (out / "index.html").read_text() + pages
    _, urls = _links_and_plays(path)
    import html
    for url in urls:
        assert 'href="%s"' % html.escape(url, quote=True) in pages
    assert pages.count("Send to BG Stats") == 4
    assert pages.count("<svg") == 8  # a chart and a QR code each
    for name in NAMES.values():
        assert html.escape(name) in page
    for gid in ("shoot-the-moon", "moonstar", "moons"):
        assert ">%s<" % gid not in page and ": %s," % gid not in page


def test_qr_code_encodes_the_link():
    """The SVG is a real QR symbol of the link: painted from its path and
    read back by a decoder, with every one of the eight masks, and the
    quiet zone a camera needs is light."""
    from moontable import bgstats, qr
    url = bgstats.CREATE_PLAY + "%7B%22a%22%3A1%7D"
    svg = qr.svg(url)
    assert svg.startswith("<svg") and svg.endswith("</svg>") and svg.count("<path") == 1
    assert dbkit.read_qr_svg(svg) == url
    drawings = {qr.svg(url, mask) for mask in range(8)}
    assert len(drawings) == 8 and all(dbkit.read_qr_svg(d) == url for d in drawings)
    size, rows = qr.matrix(url)
    assert size >= 21 and len(rows) == size and all(len(r) == size for r in rows)
    side = size + 2 * qr.BORDER
    assert 'viewBox="0 0 %d %d"' % (side, side) in svg and 'width="%d"' % (side * qr.SCALE) in svg
    # strokes start inside the border: nothing dark in the quiet zone
    starts = [int(x) for x in re.findall(r"M(\d+) ", svg)]
    assert min(starts) >= qr.BORDER


def test_a_six_player_link_fits_a_qr_code_and_a_long_text_is_told():
    from moontable import bgstats, qr
    names = ["Bartholomew-%d" % n for n in range(6)]
    url = bgstats.CREATE_PLAY + bgstats.percent_encode(json.dumps({"players": names * 4}))
    assert dbkit.read_qr_svg(qr.svg(url)) == url
    with pytest.raises(qr.TooLong):
        qr.svg("https://example.org/?" + "x" * 8000)


def test_listings_name_games_as_the_box_does_and_ties_share_ranks(db4):
    path, _ = db4
    ids = ("moonstar", "shoot-the-moon", "moons")  # "moon" is a word of the box names too
    texts = [dbkit.cli("games", "--db", path)[1], dbkit.cli("standings", "--db", path)[1]]
    for text in texts:
        for gid in ids:
            assert not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(gid), text), (gid, text)
    heads = [dbkit.cli("show", str(n), "--db", path)[1].splitlines()[0] for n in range(1, 5)]
    # Moonstar with its variant (the sample is Game 3), as every listing names it
    assert [h.split("  ")[0] for h in heads] == ["game 1: Moonstar (Game 3)", "game 2: Shoot the Moon",
                                                  "game 3: Moon (dominoes)", "game 4: Moons"]
    listing = texts[0]
    for name in NAMES.values():
        assert name in listing
    assert "Moon (dominoes)" in texts[1] and "Shoot the Moon" in texts[1]
    # Shoot the Moon partners tie: the database's rank column shares the rank
    stm = json.loads(dbkit.cli("show", "2", "--json", "--db", path)[1])
    assert stm["game_name"] == "Shoot the Moon" and stm["ranks"] == [2, 1, 2, 1]
    assert "final: 1. Ben 8, 1. Dan 8, 2. Ann 2, 2. Cat 2" in dbkit.cli("show", "2", "--db", path)[1]
    # standings: equal records, equal ranks
    rows = json.loads(dbkit.cli("standings", "--game", "Shoot the Moon", "--json", "--db", path)[1])["overall"]
    assert [(r["player"], r["rank"]) for r in rows] == [("Ben", 1), ("Dan", 1), ("Ann", 3), ("Cat", 3)]


CYRILLIC = ["Александра Петровна", "Константин Сергеевич", "Валентина Ивановна", "Владислав Андреевич",
            "Станислава Юрьевна", "Максимилиан Олегович"]


def _six_cyrillic_partners():
    """A finished six-player Shoot the Moon game in two partnerships of
    long Cyrillic names: its link percent-encodes to over 4,000 characters."""
    m = Match("shoot-the-moon", CYRILLIC, {"teams": 2, "start": [2, 6]})
    lines = [dict(m.header, id="cyr")]
    for _ in range(5):
        e = {"type": "trick", "winner": 1}
        m.apply(e)
        lines.append(e)
    assert m.state["over"]
    return _log(lines)


def test_report_shows_a_link_too_long_for_a_qr_code_without_one_and_never_fails_for_one_game(tmp_path):
    """Issue 22: a 4,700-character link made `report` fail with
    DataOverflowError and write no page; a game that cannot be shown at
    all (its stored journal damaged) must not take the others with it."""
    import sqlite3

    from moontable import bgstats
    path = str(tmp_path / "m.db")
    with Database.open(path) as db:
        assert db.import_log(_six_cyrillic_partners(), device_id="pico")[0] == "stored"
        assert db.import_log(dbkit.moonstar_log(seed=3)[1], device_id="pico")[0] == "stored"
        assert db.import_log(dbkit.moonstar_log(seed=4)[1], device_id="pico")[0] == "stored"
    with sqlite3.connect(path) as c:
        c.execute("UPDATE games SET journal=? WHERE id=3", (b"\x00not a journal",))
    out = tmp_path / "rep"
    code, text, err = dbkit.cli("report", "--out", out, "--db", path)
    assert code == 0, (text, err)
    plays = [json.loads(x) for x in dbkit.cli("export", "--format", "bgstats", "--db", path)[1].splitlines()]
    cyr = [p for p in plays if p["sourcePlayId"] == "pico/cyr"][0]
    url = bgstats.link(cyr)
    assert len(url) > 2953
    import html
    page = (out / "games" / "1.html").read_text()  # the report's page of the Cyrillic game
    assert 'href="%s"' % html.escape(url, quote=True) in page
    assert "No QR code: the link is too long for one." in page
    assert "game 1: its BG Stats link is too long for a QR code" in err
    assert "No QR code" not in (out / "games" / "2.html").read_text()
    assert (out / "games" / "3.html").is_file() and (out / "index.html").is_file()  # the damaged journal's game too
    for fmt in ("json", "csv", "bgstats"):  # the exports list the others too
        code, text, err = dbkit.cli("export", "--format", fmt, "--db", path)
        assert code == 0 and "Moonstar" in text, (fmt, err)
    # partnerships in each player's team, ranked by team: winners first, the other team second
    assert [x["team"] for x in cyr["players"]][:2] == [" & ".join(CYRILLIC[0::2]), " & ".join(CYRILLIC[1::2])]
    assert [x["rank"] for x in cyr["players"]] == [2, 1, 2, 1, 2, 1]
