"""`moontable report`: pages players would open (records with their
evidence, ratings, head-to-head, a newest-first play log, a page per game
and per player), self-contained and offline, built with autoescaping, and
made once per game."""

import html
import io
import json
import os
import re
import sys
import time
from html.parser import HTMLParser
from urllib.parse import unquote

import pytest

import dbkit
from moontable import stats
from moontable.commands import report
from moontable.db import Database
from shared_rules.wire import dumps

PLAYERS = (("Ann", "Bob", "Cy"), ("Ann", "Dan"), ("Bob", "Cy", "<b>Eve</b>", "Ann"))


def plain(lines):
    return b"".join(dumps(x).encode() + b"\n" for x in lines)


@pytest.fixture
def dbfile(tmp_path):
    """Fifteen Moonstar games among five players (one named like an HTML
    tag), the five games of the other boxes and one unfinished game."""
    path = tmp_path / "m.db"
    with Database.open(path) as db:
        for s in range(1, 16):
            lines = dbkit.stamped(dbkit.moonstar_events(list(PLAYERS[s % 3]), s)[1], boot=s, start_ms=1000)
            if s % 4 == 0:
                lines[0]["location"] = "Café <Luna>"
            db.import_log(plain(lines), device_id="pico")
        for name in dbkit.FOUR_GAMES + ("shoot-the-moon-two-players",):
            db.import_log(plain(dbkit.data_lines(name)))
        db.import_log(dbkit.moonstar_log(("Ann", "Dee"), seed=34, finish=False)[1])
    return str(path)


def ok(*argv):
    status, out, err = dbkit.cli(*argv)
    assert status == 0, err
    assert err == ""
    return out


class Page(HTMLParser):
    """Every tag, link and text of a page: parsed, so escaping is checked
    the way a browser reads it."""

    def __init__(self, path):
        super().__init__(convert_charrefs=True)
        self.tags, self.links, self.texts = [], [], []
        self.base = ""
        with open(path, encoding="utf-8") as f:
            self.raw = f.read()
        self.feed(self.raw)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "base":
            self.base = dict(attrs)["href"]
        for k, v in attrs:
            if k in ("href", "src") and tag != "base":
                self.links.append((tag, k, v))

    def handle_data(self, data):
        if data.strip():
            self.texts.append(data.strip())


def all_pages(out):
    return sorted(p for p in out.rglob("*.html"))


def test_pages_are_self_contained_offline_and_escaped(dbfile, tmp_path):
    out = tmp_path / "rep"
    said = ok("report", "--out", out, "--db", dbfile)
    assert said.startswith("wrote %s" % (out / "index.html")) and "21 game pages made" in said
    pages = all_pages(out)
    names = {p.relative_to(out).as_posix() for p in pages}
    assert {"index.html", "plays-1.html"} <= names
    assert {"games/%d.html" % n for n in range(1, 22)} <= names
    with Database.open(dbfile, readonly=True) as db:
        games = db.games()
        assert {"players/%d.html" % pid for g in games for pid in g["player_ids"]} <= names
    bgstats_links = 0
    for path in pages:
        page = Page(path)
        # nothing fetched from anywhere: no script, image, frame, style sheet or font
        assert not {"script", "img", "iframe", "link", "object", "embed"} & set(page.tags), path
        assert page.base == ("../" if path.parent != out else "")  # the report's folder
        assert "url(" not in page.raw and "@import" not in page.raw
        for tag, attr, url in page.links:
            if url.startswith("https://app.bgstatsapp.com/createPlay.html?data="):
                bgstats_links += 1
                continue
            assert not re.match(r"[a-z]+:", url), (path, url)  # every other link is a page of the report
            assert (path.parent / page.base / url).resolve().is_file(), (path, url)
        # the player called <b>Eve</b> is text, never a tag
        assert "b" not in page.tags
        if "<b>Eve</b>" in [t for t in page.texts]:
            assert "&lt;b&gt;Eve&lt;/b&gt;" in page.raw
    assert bgstats_links == 20  # one per finished game, on its page
    assert "&lt;b&gt;Eve&lt;/b&gt;" in Page(out / "index.html").raw
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert size < 700_000, size  # was 1.3 MB of base64 PNGs for 21 games
    assert (out / "index.html").stat().st_size < 60_000


def test_each_finished_game_page_has_its_chart_link_and_qr(dbfile, tmp_path):
    from moontable import bgstats
    out = tmp_path / "rep"
    ok("report", "--out", out, "--db", dbfile)
    with Database.open(dbfile, readonly=True) as db:
        games = db.games()
        for s in games:
            page = Page(out / "games" / ("%d.html" % s["id"]))
            links = [u for _, _, u in page.links if u.startswith("https:")]
            if not s["finished"]:
                assert links == [] and "not finished" in page.raw
                continue
            url = bgstats.link(bgstats.play(s))
            assert links == [url]
            assert page.raw.count("<svg") == 2  # the chart and the QR code
            qr = page.raw[page.raw.index('<svg xmlns="http://www.w3.org/2000/svg" class="qr"'):]
            assert dbkit.read_qr_svg(qr[:qr.index("</svg>") + 6]) == url  # what a phone reads is the link
            # placings as stored, winners in bold, linked to their pages
            for seat, name in enumerate(s["players"]):
                assert html.escape(name) in page.raw
            assert "Game %d: %s" % (s["id"], s["game_name"]) in page.texts


def _play_log_ids(path):
    return [int(m) for m in re.findall(r'<tr><td class="l"><a href="games/(\d+)\.html">', path.read_text())]


def test_the_play_log_is_newest_first_with_duration_and_location(dbfile, tmp_path, monkeypatch):
    out = tmp_path / "rep"
    monkeypatch.setattr(report, "PLAYS_PER_PAGE", 5)
    monkeypatch.setattr(report, "INDEX_PLAYS", 7)
    status, said, err = dbkit.cli("report", "--out", out, "--db", dbfile)
    assert status == 0, err
    with Database.open(dbfile, readonly=True) as db:
        games = db.games()
    newest = [g["id"] for g in reversed(games)]
    assert _play_log_ids(out / "index.html") == newest[:7]
    assert "the latest 7 of 21" in (out / "index.html").read_text()
    pages = sorted(out.glob("plays-*.html"), key=lambda p: int(p.stem.split("-")[1]))
    assert len(pages) == 5
    assert sum((_play_log_ids(p) for p in pages), []) == newest
    dated = [g for g in games if g["duration_min"]]
    assert dated and all(">%d min<" % g["duration_min"] in "".join(p.read_text() for p in pages) for g in dated)
    assert "Café &lt;Luna&gt;" in "".join(p.read_text() for p in pages)
    assert "(not finished)" in "".join(p.read_text() for p in pages)


def _records_order(games):
    finished = [g for g in games if g["finished"]]
    tally = {}
    for g in finished:
        for seat, name in enumerate(g["players"]):
            w, n = tally.get(name, (0, 0))
            tally[name] = (w + (seat in g["winner_seats"]), n + 1)
    return tally


def test_records_show_their_evidence_and_order_by_its_low_end(dbfile, tmp_path):
    out = tmp_path / "rep"
    ok("report", "--out", out, "--db", dbfile)
    with Database.open(dbfile, readonly=True) as db:
        games = db.games()
    tally = _records_order(games)
    rows = re.findall(r'<tr><td class="l"><a href="players/\d+\.html">([^<]*)</a></td><td>(\d+)</td><td>(\d+)</td>'
                      r'<td>(\d+)%</td><td class="dim">(\d+)%&ndash;(\d+)%</td></tr>', (out / "index.html").read_text())
    overall = rows[:len(tally)]
    assert {html.unescape(r[0]): (int(r[2]), int(r[1])) for r in overall} == tally
    lows = [stats.wilson(int(r[2]), int(r[1]))[0] for r in overall]
    assert lows == sorted(lows, reverse=True)
    for name, plays, wins, rate, lo, hi in overall:
        low, high = stats.wilson(int(wins), int(plays))
        assert (int(lo), int(hi)) == (round(100 * low), round(100 * high))


def test_wilson_interval_puts_a_long_record_above_a_short_lucky_one():
    # reference values of the Wilson score interval at 95%
    assert stats.wilson(8, 20) == pytest.approx((0.2188, 0.6134), abs=1e-4)
    assert stats.wilson(3, 3) == pytest.approx((0.4385, 1.0), abs=1e-4)
    assert stats.wilson(0, 5) == pytest.approx((0.0, 0.4345), abs=1e-4)
    one_of_one, twelve_of_twenty = stats.wilson(1, 1)[0], stats.wilson(12, 20)[0]
    assert twelve_of_twenty > one_of_one  # though 60% < 100%
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_head_to_head_counts_who_placed_above_whom(dbfile, tmp_path):
    with Database.open(dbfile, readonly=True) as db:
        games = db.games()
    players, beat = stats.head_to_head(games, "moonstar")
    want = {}
    for g in games:
        if g["game"] != "moonstar" or not g["finished"]:
            continue
        for i, a in enumerate(g["players"]):
            for j, b in enumerate(g["players"]):
                if g["ranks"][i] < g["ranks"][j]:
                    want[(a, b)] = want.get((a, b), 0) + 1
    name = dict(players)
    assert {(name[a], name[b]): n for (a, b), n in beat.items()} == want
    # partners place together and never count against each other
    _, beat = stats.head_to_head(games, "shoot-the-moon")
    pairs = [g for g in games if g["game"] == "shoot-the-moon" and g["options"].get("teams")]
    assert pairs
    for g in pairs:
        ids = g["player_ids"]
        for s in range(len(ids)):
            partner = ids[(s + g["options"]["teams"]) % len(ids)]
            assert (ids[s], partner) not in beat
    out = tmp_path / "rep"
    ok("report", "--out", out, "--db", dbfile)
    assert re.search(r"<h3>Head to head</h3>", (out / "index.html").read_text())


def test_ratings_per_game_with_teams_and_uncertainty(dbfile):
    with Database.open(dbfile, readonly=True) as db:
        games = db.games()
    rated = stats.ratings(games)
    assert set(rated) == {"moonstar", "shoot-the-moon", "moon", "moons"}
    for rows in rated.values():
        for r in rows:
            assert r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"])
            assert r["sigma"] < 25 / 3  # every game played narrows the start's uncertainty
        ords = [r["ordinal"] for r in rows]
        assert ords == sorted(ords, reverse=True)
    ms = {r["player"]: r for r in rated["moonstar"]}
    assert ms["Ann"]["plays"] == sum(1 for g in games if g["game"] == "moonstar" and g["finished"]
                                     and "Ann" in g["players"])
    assert ms["Ann"]["sigma"] < ms["Dan"]["sigma"]  # more games, surer
    # Shoot the Moon in partnerships: partners rate as one team, so the
    # two partners of the only pairs game move exactly alike
    pairs = [g for g in games if g["game"] == "shoot-the-moon" and g["options"].get("teams")][0]
    only_pairs = stats.ratings([pairs])["shoot-the-moon"]
    by = {r["player"]: r for r in only_pairs}
    teams = stats.teams_of(pairs)
    for seats in teams:
        a, b = (by[pairs["players"][s]] for s in seats)
        assert (a["mu"], a["sigma"]) == (b["mu"], b["sigma"])
    winners = [by[pairs["players"][s]]["mu"] for s in pairs["winner_seats"]]
    losers = [r["mu"] for r in only_pairs if r["player"] not in [pairs["players"][s] for s in pairs["winner_seats"]]]
    assert min(winners) > 25 > max(losers)


def test_standings_ratings_in_text_and_json(dbfile):
    data = json.loads(ok("standings", "--ratings", "--json", "--db", dbfile))
    with Database.open(dbfile, readonly=True) as db:
        want = stats.ratings(db.games())
    assert list(data["ratings"]) == ["moonstar", "shoot-the-moon", "moon", "moons"]
    for game, rows in data["ratings"].items():
        assert [r["player"] for r in rows] == [r["player"] for r in want[game]]
        for r, w in zip(rows, want[game]):
            assert set(r) == {"player", "mu", "sigma", "ordinal", "plays"}
            assert r["mu"] == round(w["mu"], 3) and r["plays"] == w["plays"]
    text = ok("standings", "--ratings", "--db", dbfile)
    assert "Moonstar ratings (openskill)" in text and "rating +- 2sd" in text
    top = want["moonstar"][0]
    assert re.search(r"%s\s+%.1f \+-\s+%.1f\s+%.1f\s+%d" % (re.escape(top["player"]), top["mu"], 2 * top["sigma"],
                                                         top["ordinal"], top["plays"]), text)
    assert "ratings" not in ok("standings", "--db", dbfile)
    assert "ratings" not in json.loads(ok("standings", "--json", "--db", dbfile))


def test_game_pages_are_made_once_and_remade_when_their_game_changes(dbfile, tmp_path):
    out = tmp_path / "rep"
    ok("report", "--out", out, "--db", dbfile)
    stamp = {p: p.stat().st_mtime_ns for p in (out / "games").glob("*.html")}
    time.sleep(0.01)
    assert "0 game pages made, 21 unchanged" in ok("report", "--out", out, "--db", dbfile)
    assert {p: p.stat().st_mtime_ns for p in (out / "games").glob("*.html")} == stamp
    # a new game: one page made
    with Database.open(dbfile) as db:
        db.import_log(dbkit.moonstar_log(("Cy", "Dan"), seed=77)[1], device_id="pico")
    assert "1 game page made, 21 unchanged" in ok("report", "--out", out, "--db", dbfile)
    # a renamed player: the pages of that player's games again
    with Database.open(dbfile) as db:
        db.rename_player("Dan", "Daniel")
        dans = [g["id"] for g in db.games(player="Daniel")]
    said = ok("report", "--out", out, "--db", dbfile)
    assert "%d game pages made, %d unchanged" % (len(dans), 22 - len(dans)) in said
    assert "Daniel" in (out / "games" / ("%d.html" % dans[0])).read_text()
    # a page deleted, or the record of what was made lost: made again
    os.unlink(out / "games" / "3.html")
    assert "1 game page made" in ok("report", "--out", out, "--db", dbfile)
    os.unlink(out / "games" / ".made.json")
    assert "22 game pages made" in ok("report", "--out", out, "--db", dbfile)


def _page_times(out):
    return {p.name: p.stat().st_mtime_ns for p in (out / "games").glob("*.html")}


def test_a_second_run_makes_no_game_page_and_leaves_each_file_alone(dbfile, tmp_path, monkeypatch):
    out = tmp_path / "rep"
    with Database.open(dbfile, readonly=True) as db:
        first = report.build(db, str(out))
    assert first["games_made"] == 21 and first["games_kept"] == 0
    before = _page_times(out)
    made = []
    real = report._make_game_pages
    monkeypatch.setattr(report, "_make_game_pages", lambda jobs: made.extend(jobs) or real(jobs))
    time.sleep(0.01)
    with Database.open(dbfile, readonly=True) as db:
        second = report.build(db, str(out))
    assert (second["games_made"], second["games_kept"]) == (0, 21) and made == []
    assert _page_times(out) == before  # not one page written again


def test_a_game_that_changes_gets_its_page_made_again_and_only_it(dbfile, tmp_path):
    out = tmp_path / "rep"
    ok("report", "--out", out, "--db", dbfile)
    with Database.open(dbfile, readonly=True) as db:
        unfinished = [g for g in db.games() if not g["finished"]]
    assert len(unfinished) == 1
    pk = unfinished[0]["id"]
    page = out / "games" / ("%d.html" % pk)
    assert "not finished" in page.read_text() and "Send to BG Stats" not in page.read_text()
    before = _page_times(out)
    time.sleep(0.01)
    # the same game played to its end: a longer journal of the stored game
    with Database.open(dbfile) as db:
        status, msg, _ = db.import_log(dbkit.moonstar_log(("Ann", "Dee"), seed=34)[1])
        assert status == "stored" and "updated game %d" % pk in msg, msg
    assert "1 game page made, 20 unchanged" in ok("report", "--out", out, "--db", dbfile)
    after = _page_times(out)
    assert after[page.name] != before[page.name]
    assert {k: v for k, v in after.items() if k != page.name} == {k: v for k, v in before.items() if k != page.name}
    text = page.read_text()
    assert "winner: Ann" in text and "Send to BG Stats" in text and 'class="qr"' in text


def test_a_changed_page_template_remakes_every_page(dbfile, tmp_path, monkeypatch):
    out = tmp_path / "rep"
    ok("report", "--out", out, "--db", dbfile)
    monkeypatch.setattr(report, "GAME_PAGE_VERSION", report.GAME_PAGE_VERSION + 1)
    assert "21 game pages made" in ok("report", "--out", out, "--db", dbfile)


def test_worker_processes_make_the_same_pages(dbfile, tmp_path, monkeypatch):
    serial, pooled = tmp_path / "a", tmp_path / "b"
    monkeypatch.setattr(report, "POOL_FROM", 10 ** 9)
    with Database.open(dbfile, readonly=True) as db:
        report.build(db, str(serial))
    monkeypatch.setattr(report, "POOL_FROM", 2)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    with Database.open(dbfile, readonly=True) as db:
        done = report.build(db, str(pooled))
    assert done["games_made"] == 21 and done["problems"] == []
    for page in (serial / "games").glob("*.html"):
        assert page.read_bytes() == (pooled / "games" / page.name).read_bytes()


def test_a_link_too_long_for_a_qr_code_leaves_the_page_without_one(dbfile, tmp_path, monkeypatch):
    assert report.qr_svg("https://example.org/?" + "x" * 8000) is None
    monkeypatch.setattr(report, "qr_svg", lambda url: None)
    out = tmp_path / "rep"
    with Database.open(dbfile, readonly=True) as db:
        done = report.build(db, str(out))
    assert len(done["problems"]) == 20 and all("too long for a QR code" in p for _, p in done["problems"])
    page = (out / "games" / "1.html").read_text()
    assert "Send to BG Stats" in page and "No QR code: the link is too long for one." in page


def test_progress_shows_on_a_terminal_when_the_run_is_slow(dbfile, tmp_path, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    real = report._make_game_pages

    def slow(jobs):
        time.sleep(1.2)  # past the bar's one-second delay
        return real(jobs)

    real_ratings = stats.ratings

    def slow_ratings(games):
        time.sleep(1.2)
        return real_ratings(games)

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(report, "_make_game_pages", slow)
    with Database.open(dbfile, readonly=True) as db:
        report.build(db, str(tmp_path / "rep"))
    assert "game pages" in err.getvalue() and "21/21" in err.getvalue()
    # a run with nothing to make that is slow all the same (reading, rating)
    err.seek(0)
    err.truncate()
    monkeypatch.setattr(report.statsmod, "ratings", slow_ratings)
    with Database.open(dbfile, readonly=True) as db:
        assert report.build(db, str(tmp_path / "rep"))["games_made"] == 0
    assert "player pages" in err.getvalue() and "play log" in err.getvalue()  # once past its second



@pytest.mark.parametrize("name", dbkit.FOUR_GAMES + ("shoot-the-moon-two-players",))
def test_game_chart_is_svg_with_whole_number_ticks_and_lines_told_apart(tmp_path, name):
    from moontable.bgstats import partnerships
    path = tmp_path / "m.db"
    with Database.open(path) as db:
        db.import_log(plain(dbkit.data_lines(name)))
        g = db.game(1)
    svg = report.game_chart(g)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    for axis in ("yl", "xl"):
        ticks = re.findall(r'class="%s">(-?\d+(?:\.\d+)?)</text>' % axis, svg)
        assert len(ticks) >= 2 and all(re.fullmatch(r"-?\d+", t) for t in ticks), ticks
    lines = re.findall(r'<polyline fill="none" stroke="([^"]+)" stroke-width="2"(?: stroke-dasharray="([^"]+)")? '
                       r'points="([^"]+)"><title>([^<]*)</title>', svg)
    labels = [html.unescape(t) for *_, t in lines]
    teams = partnerships(g["game"], g["options"], g["players"])
    assert labels == ([t for t, _ in teams] if teams else g["players"])
    assert len({(c, d) for c, d, _, _ in lines}) == len(lines)  # colour and dash differ
    assert len({d for _, d, _, _ in lines}) == len(lines)  # dashes alone tell them apart
    # the first point is the rules' starting score (Shoot the Moon: 2 chips), then one a round
    for _, _, pts, label in lines:
        assert len(pts.split()) == len(g["round_scores"]) + 1
    if name == "shoot-the-moon-pairs":
        assert len({pts for _, _, pts, _ in lines}) == len(lines)
    assert "game 1: %s," % g["game_name"] in svg


def test_pages_are_readable_by_others_like_any_saved_file(dbfile, tmp_path):
    out = tmp_path / "rep"
    old = os.umask(0o022)
    try:
        ok("report", "--out", out, "--db", dbfile)
    finally:
        os.umask(old)
    for p in [out / "games" / "1.html", out / "players" / "1.html", out / "plays-1.html"]:
        assert p.stat().st_mode & 0o777 == 0o644, p
