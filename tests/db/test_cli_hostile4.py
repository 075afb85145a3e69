"""Issue 44, the PC tools' robustness: the report leaves seat labels out
of its players as `standings` does, its worker processes end with it
whatever ends it, a hostile config file is one line and exit 2, --out and
index.html keep the modes a saved file gets, --out's messages say what is
true, and solve and the rating chart read as they should. Real processes
(`python -m moontable.cli`) on real SQLite files."""

import html
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time

import pytest

import dbkit
from moontable import svgchart
from moontable.db import Database
from test_cli_errors import plain, refused, run
from test_report import Page, all_pages


def ok(*argv, **kw):
    r = run(*argv, **kw)
    assert r.returncode == 0, r.stderr
    return r


@pytest.fixture
def stored(tmp_path):
    """A database holding one finished Moonstar game among Ann, Bob and Cy."""
    path = tmp_path / "m.db"
    log = tmp_path / "g.jsonl"
    log.write_bytes(plain(dbkit.data_lines("moonstar-basic")))
    ok("import", "--db", path, log)
    return path


def wait_for(condition, seconds, what):
    """Poll `condition` until it holds; fail naming `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting: %s" % what
        time.sleep(0.005)


# --- 5: seat labels are nobody in the report ------------------------------------------------
def test_the_report_leaves_seat_labels_out_of_its_players(tmp_path, stored):
    """A Moon game finished on the web page with the seats left as P1, P2
    and P3, downloaded and imported: the report's players are the people
    `standings` lists, P1-P3 get no page, and every link still leads to a
    page of the report (a label is shown, not linked)."""
    lines = dbkit.data_lines("moon-moon21")
    lines[0] = dict(lines[0], players=["P1", "P2", "P3"], id="00003")
    log = tmp_path / "moontable-00003.jsonl"
    log.write_bytes(plain(lines))
    ok("import", "--db", stored, "--device", "web", log)
    out = tmp_path / "rep"
    ok("report", "--db", stored, "--out", out)
    people = {r["player"] for r in json.loads(ok("standings", "--json", "--db", stored).stdout)["overall"]}
    assert people == {"Ann", "Bob", "Cy"}
    index = (out / "index.html").read_text()
    assert {html.unescape(n) for n in re.findall(r'<a href="players/\d+\.html"[^>]*>([^<]*)</a>', index)} == people
    with Database.open(stored, readonly=True) as db:
        web = db.game(2)
        assert web["players"] == ["P1", "P2", "P3"] and web["finished"]
        labels = set(web["player_ids"])
    assert not any((out / "players" / ("%d.html" % pid)).exists() for pid in labels)
    for path in all_pages(out):
        page = Page(path)
        for _, _, url in page.links:
            if not url.startswith("https:"):
                assert (path.parent / page.base / url).resolve().is_file(), (path, url)
    game = Page(out / "games" / "2.html")
    assert {"P1", "P2", "P3"} <= set(game.texts)  # who sat there is still shown


# --- 10: the report's workers end with it ---------------------------------------------------
@pytest.fixture(scope="module")
def many(tmp_path_factory):
    """A database of 150 finished games: enough new pages (64 or more) for
    the report to hand them to its worker processes."""
    path = tmp_path_factory.mktemp("many") / "m.db"
    with Database.open(path) as db:
        for seed in range(1, 151):
            status, msg, _ = db.import_log(dbkit.moonstar_log(seed=seed)[1], device_id="pico")
            assert status == "stored", msg
    return path


def _proc_stat(pid):
    """(state, parent pid) of a process from /proc, or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[1])


def _children(pid):
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _proc_stat(int(entry))
            if st is not None and st[1] == pid and st[0] not in "ZX":
                kids.append(int(entry))
    return kids


def _running(pid):
    st = _proc_stat(pid)
    return st is not None and st[0] not in "ZX"  # a zombie has ended; only its parent's wait is left


def _default_signals():
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads processes from /proc (Linux)")
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the report uses worker processes on 2 or more CPUs")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=["TERM", "HUP", "KILL"])
def test_killing_the_report_ends_its_workers(tmp_path, many, sig):
    """The report is stopped (SIGSTOP) as soon as its workers appear, so
    they are surely still there, then sent the signal: they must end too,
    not live on for good under pid 1."""
    env = dict(os.environ, PYTHONPATH=dbkit.ROOT)
    proc = subprocess.Popen([sys.executable, "-m", "moontable.cli", "report", "--db", str(many), "--out",
                             str(tmp_path / "rep")], cwd=dbkit.ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, preexec_fn=_default_signals)
    workers = []
    try:
        def found():
            assert proc.poll() is None, "the report ended before its workers were seen"
            workers[:] = _children(proc.pid)
            return len(workers) >= 2
        wait_for(found, 120, "the report's worker processes")
        os.kill(proc.pid, signal.SIGSTOP)
        assert all(_running(w) for w in workers)
        os.kill(proc.pid, sig)
        os.kill(proc.pid, signal.SIGCONT)
        assert proc.wait(timeout=60) == -sig
        wait_for(lambda: not any(_running(w) for w in workers), 30, "workers %s to end" % workers)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for w in workers:
            if _running(w):
                os.kill(w, signal.SIGKILL)


# --- 11: the config file is not trusted -----------------------------------------------------
def _config_refused(monkeypatch, config, words, timeout=60):
    monkeypatch.setenv("MOONTABLE_CONFIG", str(config))
    err = refused("games", "--db", "/nonexistent/m.db", words=words, timeout=timeout)
    assert err.startswith("moontable games: config: %s" % config), err
    return err


def test_a_config_that_is_an_endless_device_is_refused(monkeypatch):
    _config_refused(monkeypatch, "/dev/zero", "/dev/zero is a device file, not a file of settings")


def test_a_config_that_is_a_named_pipe_is_refused_not_waited_on(tmp_path, monkeypatch):
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    _config_refused(monkeypatch, fifo, "is a named pipe (FIFO), not a file of settings")


def test_a_config_that_is_a_folder_is_refused(tmp_path, monkeypatch):
    _config_refused(monkeypatch, tmp_path, "is a folder, not a file of settings")


def test_a_config_too_large_to_be_settings_is_refused(tmp_path, monkeypatch):
    big = tmp_path / "config.toml"
    big.write_text("# a comment line of sixty-four characters, over and over........\n" * 1025)
    _config_refused(monkeypatch, big, "is larger than 64 KB; a config file holds a few settings")


def test_a_config_nested_too_deeply_is_refused(tmp_path, monkeypatch):
    deep = tmp_path / "config.toml"
    deep.write_text("location = " + "[" * 1000 + "]" * 1000 + "\n")
    _config_refused(monkeypatch, deep, "nests its values too deeply to be a config file")


# --- 12: file modes -------------------------------------------------------------------------
def _umask(mask):
    return lambda: os.umask(mask)


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_export_follows_the_umask(tmp_path, stored):
    for mask, mode in ((0o022, 0o644), (0o027, 0o640)):
        out = tmp_path / ("e%o.csv" % mask)
        ok("export", "--db", stored, "--format", "csv", "--out", out, preexec_fn=_umask(mask))
        assert _mode(out) == mode


def test_a_replaced_export_keeps_its_mode_through_a_link_too(tmp_path, stored):
    target = tmp_path / "real.csv"
    target.write_text("old\n")
    os.chmod(target, 0o644)
    link = tmp_path / "link.csv"
    os.symlink(target, link)
    ok("export", "--db", stored, "--format", "csv", "--out", link, preexec_fn=_umask(0o077))
    assert os.path.islink(link) and _mode(target) == 0o644 and "Ann" in target.read_text()
    os.chmod(target, 0o640)
    ok("export", "--db", stored, "--format", "json", "--out", target, preexec_fn=_umask(0o022))
    assert _mode(target) == 0o640 and target.read_text().startswith("[")


def test_the_reports_index_has_the_mode_of_its_other_pages(tmp_path, stored):
    out = tmp_path / "rep"
    ok("report", "--db", stored, "--out", out, preexec_fn=_umask(0o022))
    assert _mode(out / "index.html") == 0o644 == _mode(out / "plays-1.html")
    os.chmod(out / "index.html", 0o640)
    ok("report", "--db", stored, "--out", out, preexec_fn=_umask(0o022))
    assert _mode(out / "index.html") == 0o640


# --- 13: what --out and --location say ------------------------------------------------------
def test_an_out_with_a_trailing_slash_is_refused(tmp_path, stored):
    out = str(tmp_path / "e.csv") + "/"
    refused("export", "--db", stored, "--format", "csv", "--out", out, words="ends with a slash")
    assert not os.path.exists(out[:-1])


def test_an_out_that_is_standard_output_is_written_into(tmp_path, stored):
    """--out /dev/stdout: into a pipe, into a file (`>`) and onto the end
    of one (`>>`, whose earlier text stays)."""
    csv = ok("export", "--db", stored, "--format", "csv").stdout
    r = ok("export", "--db", stored, "--format", "csv", "--out", "/dev/stdout")
    assert r.stdout == csv and r.stderr == b""
    f = tmp_path / "all.csv"
    f.write_bytes(b"earlier\n")
    with open(f, "ab") as appended:
        ok("export", "--db", stored, "--format", "csv", "--out", "/dev/stdout", stdout=appended)
    assert f.read_bytes() == b"earlier\n" + csv
    with open(f, "wb") as replaced:
        ok("export", "--db", stored, "--format", "csv", "--out", "/dev/stdout", stdout=replaced)
    assert f.read_bytes() == csv


@pytest.mark.skipif(not os.path.isfile("/proc/version"), reason="Linux's /proc/version")
def test_an_out_that_cannot_be_written_says_why(tmp_path, stored):
    err = refused("export", "--db", stored, "--format", "csv", "--out", "/proc/version", words="read-only")
    assert "No such file" not in err
    locked = tmp_path / "locked.csv"
    locked.write_text("kept\n")
    os.chmod(locked, 0o444)
    refused("export", "--db", stored, "--format", "csv", "--out", locked, words="%s is read-only" % locked)
    assert locked.read_text() == "kept\n"


@pytest.mark.parametrize("place, words", [
    ("Club\u202eroom", "U+202E"),
    ("Club\u200broom", "U+200B"),
    ("Club\u00a0room", "U+00A0"),
])
def test_a_place_is_checked_as_a_player_name_is(tmp_path, monkeypatch, stored, place, words):
    r = run("export", "--db", stored, "--format", "csv", "--location", place)
    err = r.stderr.decode()
    assert r.returncode == 2 and "Traceback" not in err, err  # a usage error, as for a control character
    assert err.splitlines()[-1].startswith("moontable export: error: argument --location:") and words in err, err
    config = tmp_path / "config.toml"
    config.write_text('location = "%s"\n' % place, encoding="utf-8")
    err = _config_refused(monkeypatch, config, words)
    assert "location" in err


# --- 14c: solve's text mode and help --------------------------------------------------------
def test_solve_in_text_mode_says_its_errors_as_text(tmp_path):
    sits = tmp_path / "s.jsonl"
    sits.write_text('{"moons": [0, 1], "dice": [1, 5]}\n{"moons": [0], "dice": [7]}\n')
    r = run("solve", sits)
    assert r.returncode == 2
    out = r.stdout.decode()
    assert out.splitlines()[0].startswith("best possible: ")
    assert "error: line 2: die 0 shows 7, but a die shows 1-6" in out.splitlines()
    assert "{" not in out
    assert r.stderr.decode() == "moontable solve: 1 line failed\n"


def test_solve_help_names_the_fields_a_situation_takes():
    text = " ".join(ok("solve", "--help", stdin=b"").stdout.decode().split())
    for field in ("moons", "dice", "planets", "scoring", "movement", "favorite_star", "stars"):
        assert re.search(r"\b%s\b" % field, text), field
    for value in ("planets, squares or chains", "standard or more"):
        assert value in text


# --- 14d: the rating chart of a player with one game a title --------------------------------
def _legend(svg):
    """(x, y, text) of each legend entry: where its name starts, less the
    swatch's room, its row and its name."""
    return [(int(x) - svgchart.SWATCH_PX, int(y), t)
            for x, y, t in re.findall(r'(?:h24"/>|fill="[^"]+"/>)<text x="(\d+)" y="(\d+)">([^<]*)</text>', svg)]


def _no_overlap(entries, width):
    by_row = {}
    for x, y, label in entries:
        by_row.setdefault(y, []).append((x, x + svgchart.SWATCH_PX + svgchart.CHAR_PX * len(label)))
    for spans in by_row.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans
        assert spans[-1][1] <= width, spans


def test_a_player_with_one_game_a_title_gets_points_and_a_readable_legend(tmp_path):
    path = tmp_path / "m.db"
    for name in ("moonstar-basic", "shoot-the-moon-pairs", "moon-moon21", "moons-default"):
        log = tmp_path / (name + ".jsonl")
        log.write_bytes(plain(dbkit.data_lines(name)))
        ok("import", "--db", path, log)
    out = tmp_path / "rep"
    ok("report", "--db", path, "--out", out)
    with Database.open(path, readonly=True) as db:
        ann = db.game(1)["player_ids"][db.game(1)["players"].index("Ann")]
    page = (out / "players" / ("%d.html" % ann)).read_text()
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert "<polyline" not in svg  # a line of one point shows nothing
    dots = re.findall(r'<circle cx="[^"]+" cy="[^"]+" r="\d+" fill="[^"]+"><title>([^<]*)</title></circle>', svg)
    assert len(dots) == 4  # one game of each title: each drawn as a dot
    legend = _legend(svg)
    assert len(legend) == 4
    _no_overlap(legend, int(re.search(r'viewBox="0 0 (\d+)', svg).group(1)))


def test_legend_entries_wrap_instead_of_overlapping():
    labels = ["%s rating" % n for n in ("Moonstar", "Shoot the Moon", "Moon (dominoes)", "Moons")] + ["x" * 80]
    svg = svgchart.line_chart([(label, [k, k + 1]) for k, label in enumerate(labels)], "games", "rating")
    legend = _legend(svg)
    assert [t for _, _, t in legend] == labels
    _no_overlap(legend, 640)
    height = int(re.search(r'viewBox="0 0 \d+ (\d+)', svg).group(1))
    assert max(y for _, y, _ in legend) + 8 <= height  # every row inside the picture
