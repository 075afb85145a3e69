"""The PC's tools say things as players say them (issue 21, item 15):
`moontable show` gives a game's options in words, not JSON, and an
unfinished game's scores as "so far", never "final"; a count of one is
singular ("1 round", "1 game"); the report leaves out games stopped before
their first round was scored, and chart lines with equal scores stay
visible (drawn apart where they meet, each end labelled)."""

import json
import re

import dbkit
from moontable import svgchart
from moontable.commands import report
from moontable.db import Database
from shared_rules.wire import dumps


def plain(lines):
    return b"".join(dumps(x).encode() + b"\n" for x in lines)


def ok(*argv):
    status, out, err = dbkit.cli(*argv)
    assert status == 0, err
    return out


def test_show_gives_options_in_words_and_an_unfinished_game_so_far(tmp_path):
    db = tmp_path / "m.db"
    with Database.open(db) as d:
        d.import_log(plain(dbkit.data_lines("moonstar-counts")))  # Game 3, 9 moons, 7 dice
        d.import_log(plain(dbkit.data_lines("shoot-the-moon-pairs")))
        d.import_log(plain(dbkit.data_lines("moons-custom-table")))
        d.import_log(dbkit.moonstar_log(("Ann", "Dee"), seed=34, finish=False)[1])
    out = ok("show", "1", "--db", db)
    assert "options: Game 3; 9 moons; 7 dice\n" in out, out
    assert "{" not in out and "final: " in out and "so far" not in out
    out = ok("show", "2", "--db", db)
    opts = [l for l in out.splitlines() if l.startswith("options:")]
    g = json.loads(ok("show", "2", "--json", "--db", db))
    p = g["players"]
    assert opts == ["options: partners %s & %s vs %s & %s" % (p[0], p[2], p[1], p[3])], out
    out = ok("show", "3", "--db", db)
    table = dbkit.data_lines("moons-custom-table")[0]["options"]["scoring"]
    assert "options: groups of 1-4 planets score %s\n" % ", ".join(map(str, table)) in out, out
    out = ok("show", "4", "--db", db)
    g = json.loads(ok("show", "4", "--json", "--db", db))
    assert not g["finished"]
    n = len(g["round_table"])
    assert "\nso far, after %d rounds: 1. " % n in out and "final" not in out, out
    assert "winner: none yet (game not finished)" in out


def test_one_is_singular(tmp_path):
    from moontable.words import count

    assert (count(1, "round"), count(2, "round"), count(0, "game")) == ("1 round", "2 rounds", "0 games")
    db = tmp_path / "m.db"
    m, lines = dbkit.moonstar_events(["Ann", "Bob"], 5, finish=False)
    # the header and the events up to the end of round 1
    for cut in range(1, len(lines)):
        from shared_rules.match import Match

        r = Match.from_header(lines[0])
        for ev in lines[1:cut]:
            r.apply(ev)
        if r.state["round"] == 1:
            break
    one_round = plain(lines[:cut])
    journal = tmp_path / "one.jsonl"
    journal.write_bytes(one_round)
    out = ok("import", "--db", db, journal)
    assert ", 1 round, not finished" in out and "1 rounds" not in out, out
    out = ok("replay", journal)
    assert "1 round\n" in out.splitlines()[0] + "\n" and "1 rounds" not in out, out
    finished = tmp_path / "done.db"
    with Database.open(finished) as d:
        d.import_log(dbkit.moonstar_log(("Ann", "Bob"), seed=32)[1])
        (w,) = d.games()[0]["winners"]
    out = ok("players", "--db", finished)
    assert re.search(r"^%s +1 game +1 win$" % w, out, re.M), out
    assert "1 games" not in out and "1 wins" not in out


def test_report_leaves_out_games_with_no_round_scored(tmp_path):
    db = tmp_path / "m.db"
    lines = dbkit.data_lines("moonstar-basic")
    with Database.open(db) as d:
        d.import_log(plain(lines))
        stray = dict(lines[0], players=["Zed", "Yan", "Xi"], id="stray")
        d.import_log(plain([stray]))  # a start nobody played: no round scored
        d.import_log(plain([dict(stray, id="stray2"), lines[1]]))  # nor here
        assert [g["rounds"] for g in d.games()][1:] == [0, 0]
        out = tmp_path / "rep"
        report.build(d, str(out))
    index = (out / "index.html").read_text()
    assert "Zed" not in index and "1 game stored" in index, index[:400]
    assert not (out / "players").exists() or not any("Zed" in p.read_text() for p in (out / "players").glob("*.html"))


def points(svg):
    return {html_title: [tuple(map(float, p.split(","))) for p in pts.split()]
            for pts, html_title in re.findall(r'points="([^"]+)"><title>([^<]*)</title>', svg)}


def test_chart_lines_with_equal_scores_are_drawn_apart_and_labelled_at_their_ends():
    series = [("Ann", [0, 10, 20, 20]), ("Bob", [0, 10, 20, 20]), ("Cy", [0, 5, 20, 30])]
    svg = svgchart.line_chart(series, "round", "score")
    lines = points(svg)
    assert set(lines) == {"Ann", "Bob", "Cy"}
    for i in range(4):
        ys = [lines[name][i][1] for name in ("Ann", "Bob")]
        assert abs(ys[0] - ys[1]) >= svgchart.SPREAD_PX, (i, ys)  # never on top of each other
    # a point no other line shares stays where its score is
    ann, cy = lines["Ann"], lines["Cy"]
    assert cy[1][1] != ann[1][1] and cy[3][1] < ann[3][1]
    # three lines at 20 after round 2: spread around it, the middle one on it
    at2 = sorted(lines[n][2][1] for n in ("Ann", "Bob", "Cy"))
    assert at2[1] - at2[0] == at2[2] - at2[1] == svgchart.SPREAD_PX
    ends = re.findall(r'<text x="[^"]+" y="[^"]+" class="end">([^<]*)</text>', svg)
    assert sorted(ends) == ["Ann, Bob", "Cy"]
