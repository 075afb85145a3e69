"""The BG Stats play builder the web page ships (host/bgstats.py's
journal_summary + play + link), run on journals alone, against what the PC
gives for the same journals through `moontable import` and `moontable
export --format bgstats`; and the same builder under the real MicroPython
interpreter, which must give the same plays and the same links. No browser:
test_page.py checks the link the page itself shows."""

import json
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
MOONTABLE = str(ROOT / ".venv" / "bin" / "moontable")
MICROPYTHON = str(ROOT / ".venv" / "bin" / "micropython")
TIMEOUT_S = 300  # a bound for a hung tool, not a speed check
DEVICE = "dev1"
T0 = 1790000000  # 2026-09-21 14:13:20 as the device counts (local time as if UTC)

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from moontable import bgstats  # noqa: E402

# the fields the page's play and the PC's must agree on: sourcePlayerId
# too, one scheme for both (a person's folded name, a label's seat of the play)
AGREE = ("sourceName", "sourcePlayId", "game", "board", "playDate", "durationMin")
AGREE_PLAYER = ("name", "sourcePlayerId", "score", "rank", "winner", "startPlayer", "team")


def timed(src, dst):
    """A copy of a journal whose every line carries "t", a minute apart
    (as the device writes them once its clock is set)."""
    lines = [json.loads(line) for line in src.read_text().splitlines() if line.strip()]
    for i, obj in enumerate(lines):
        obj["t"] = T0 + 60 * i
    dst.write_text("".join(json.dumps(obj) + "\n" for obj in lines))
    return dst


def device_timed(src, dst):
    """A copy stamped as the device stamps lines once its clock is set:
    "b" (boot), "ms" since that boot, and "t" the whole epoch second then
    (so "t" and "ms" disagree by the fraction of a second the clock was
    set at), 61.789 s apart."""
    lines = [json.loads(line) for line in src.read_text().splitlines() if line.strip()]
    for i, obj in enumerate(lines):
        ms = 1234 + 61789 * i
        obj["b"], obj["ms"], obj["t"] = 3, ms, (T0 * 1000 + 750 + ms) // 1000
    dst.write_text("".join(json.dumps(obj) + "\n" for obj in lines))
    return dst


def run(*argv):
    out = subprocess.run([MOONTABLE, *map(str, argv)], capture_output=True, text=True, timeout=TIMEOUT_S)
    assert out.returncode == 0, out.stderr + out.stdout
    return out.stdout


@pytest.fixture(scope="module")
def journals(tmp_path_factory):
    """{path: game id the PC gave it} for every sample journal (each also
    in a timed copy), with the PC's plays {sourcePlayId: play}."""
    tmp = tmp_path_factory.mktemp("bgstats")
    paths = []
    for src in sorted(DATA.glob("*.jsonl")):
        paths.append(src)
        paths.append(timed(src, tmp / ("timed-" + src.name)))
        paths.append(device_timed(src, tmp / ("timed-device-" + src.name)))
    db = tmp / "records.db"
    ids = {}
    # one `moontable import` of them all: a line each, in the order given
    lines = run("import", "--db", db, "--json", "--device", DEVICE, *paths).splitlines()
    assert len(lines) == len(paths), lines
    for p, line in zip(paths, lines):
        res = json.loads(line)
        assert res["status"] == "stored" and res["file"] == str(p), res
        ids[p] = res["game_id"]
    pc = {}
    for line in run("export", "--db", db, "--format", "bgstats").splitlines():
        play = json.loads(line)
        pc[play["sourcePlayId"]] = play
    return ids, pc


def page_play(path, game_id):
    with open(path, "rb") as f:
        g = bgstats.journal_summary(f, DEVICE, "moontable", game_id)
    return None if g is None else bgstats.play(g)


def test_page_plays_agree_with_the_pcs_export(journals):
    ids, pc = journals
    finished = 0
    for path, gid in ids.items():
        mine = page_play(path, gid)
        theirs = pc.get("%s/%s" % (DEVICE, gid))
        assert (mine is None) == (theirs is None), path
        if mine is None:
            continue
        finished += 1
        if not path.name.startswith("timed-"):
            # an undated journal: the PC dates it by the import ("approx."), the page cannot
            assert "playDate" not in mine and "durationMin" not in mine, mine
            theirs = {k: v for k, v in theirs.items() if k not in ("playDate", "durationMin")}
        for key in AGREE:
            assert mine.get(key) == theirs.get(key), (path.name, key, mine.get(key), theirs.get(key))
        assert len(mine["players"]) == len(theirs["players"])
        for a, b in zip(mine["players"], theirs["players"]):
            for key in AGREE_PLAYER:
                assert a.get(key) == b.get(key), (path.name, key, a, b)
            assert a["sourcePlayerId"] == bgstats.source_player_id("moontable", a["name"], b and theirs["sourcePlayId"])
    assert finished >= 10  # the samples are finished games: the comparison ran


def test_timed_journal_is_dated_by_its_last_line(journals, tmp_path):
    path = timed(DATA / "shoot-the-moon-pairs.jsonl", tmp_path / "g.jsonl")
    n = len([line for line in path.read_text().splitlines() if line.strip()])
    play = page_play(path, "g1")
    assert play["playDate"] == bgstats.date_text(T0 + 60 * (n - 1))
    assert play["durationMin"] == n - 1


def test_date_text_is_the_calendar():
    import datetime

    for epoch in (0, 951782400, 1709164799, 1790000000, 4102444799, 1234567890):
        want = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
        assert bgstats.date_text(epoch) == want


def test_fallback_percent_encoder_is_quote(monkeypatch):
    text = '{"name":"Zoë & Ann/ß","x":"a b+c%d~_.-"}'
    want = urllib.parse.quote(text, safe="")
    monkeypatch.setattr(bgstats, "quote", None)
    assert bgstats.percent_encode(text) == want


def test_unfinished_and_rejected_journals(tmp_path):
    lines = (DATA / "shoot-the-moon-pairs.jsonl").read_text().splitlines()
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines[:3]) + "\n")
    assert page_play(part, "p") is None  # not finished: no link
    bad = tmp_path / "bad.jsonl"
    head = json.loads(lines[0])
    head["players"] = head["players"][:1]  # one player: the rules refuse the game
    bad.write_text(json.dumps(head) + "\n" + "\n".join(lines[1:]) + "\n")
    from shared_rules.errors import LogError

    with pytest.raises(LogError):
        page_play(bad, "b")


UPY_SCRIPT = """
import sys
sys.path.insert(0, %r)
sys.path.insert(0, %r)
import bgstats
for path, gid in %r:
    with open(path, "rb") as f:
        g = bgstats.journal_summary(f, %r, "moontable", gid)
    print(bgstats.link(bgstats.play(g)) if g else "-")
"""


def test_micropython_builds_the_same_links(journals, tmp_path):
    """The page's interpreter (MicroPython) gives the same play for each
    journal, and a link that decodes to it; non-ASCII names included."""
    ids, _pc = journals
    zoe = tmp_path / "zoe.jsonl"
    zoe.write_text((DATA / "moons-default.jsonl").read_text().replace('"Cat"', '"Zoë"'))
    ids = dict(ids)
    ids[zoe] = "zoe"
    items = [(str(p), gid) for p, gid in ids.items()]
    script = tmp_path / "links.py"
    # bgstats imports the PC side's times module by the package's import
    # name, which is not the folder's (host/): link the folder in under it
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / bgstats.__name__.split(".")[0]).symlink_to(ROOT / "host", target_is_directory=True)
    (lib / "shared_rules").symlink_to(ROOT / "shared_rules", target_is_directory=True)
    script.write_text(UPY_SCRIPT % (str(lib), str(ROOT / "host"), items, DEVICE))
    out = subprocess.run([MICROPYTHON, str(script)], capture_output=True, text=True, timeout=TIMEOUT_S, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr + out.stdout
    got = out.stdout.splitlines()
    assert len(got) == len(items)
    for (path, gid), url in zip(items, got):
        mine = page_play(path, gid)
        if mine is None:
            assert url == "-"
            continue
        assert url.startswith(bgstats.CREATE_PLAY)
        data = url[len(bgstats.CREATE_PLAY):]
        assert all(c.isalnum() or c in "%-._~" for c in data), url
        assert json.loads(urllib.parse.unquote(data)) == mine, path
    assert any("Zo%C3%AB" in u for u in got)


def test_a_doubtful_date_says_so_in_the_pages_play_too(tmp_path):
    """Issue 22: the page's play of a journal whose "ms" runs back within
    a boot is dated by its "t" alone and says the date is approximate."""
    src = device_timed(DATA / "shoot-the-moon-pairs.jsonl", tmp_path / "a.jsonl")
    lines = [json.loads(x) for x in src.read_text().splitlines()]
    lines[2]["ms"] = 1  # back from line 2's
    src.write_text("".join(json.dumps(x) + "\n" for x in lines))
    play = page_play(src, "g")
    assert "approximate" in play["comments"] and "durationMin" in play
    ok = page_play(device_timed(DATA / "shoot-the-moon-pairs.jsonl", tmp_path / "b.jsonl"), "g")
    assert "comments" not in ok


def test_the_pages_play_date_is_utc_by_the_browsers_offset(tmp_path):
    """BG Stats wants UTC: the page's board stamps the browser's local time
    as if UTC, so the play takes off the browser's offset (issue 22)."""
    path = timed(DATA / "shoot-the-moon-pairs.jsonl", tmp_path / "g.jsonl")
    n = len([line for line in path.read_text().splitlines() if line.strip()])
    with open(path, "rb") as f:
        g = bgstats.journal_summary(f, DEVICE, "moontable", "g1", utc_offset=2 * 3600)
    assert bgstats.play(g)["playDate"] == bgstats.date_text(T0 + 60 * (n - 1) - 2 * 3600)


def test_rank_and_winner_never_disagree(journals):
    """Issue 22: every play of every sample game, from the PC and from the
    page's builder, names as winners exactly the players ranked first."""
    ids, pc = journals
    checked = 0
    for path, gid in ids.items():
        for play in (page_play(path, gid), pc.get("%s/%s" % (DEVICE, gid))):
            if play is None:
                continue
            players = play["players"]
            assert [p.get("winner", False) for p in players] == [p["rank"] == 1 for p in players], (path, play)
            checked += 1
    assert checked >= 20
