"""The last hostile inputs of issue 22 at the command line: endless files,
a named pipe as --db, links and device files as --out, device names that
cannot name a game, and a database a kill left mid-write. Each is one
clear line and exit 2, or the right thing done; nothing is lost. Real
processes (`python -m moontable.cli`) on real SQLite files."""

import os
import signal
import sqlite3
import stat
import subprocess
import sys

import pytest

import dbkit
from test_cli_errors import refused, run


@pytest.fixture
def stored(tmp_path):
    """A database holding one finished game, and that game's log."""
    path = tmp_path / "m.db"
    log = tmp_path / "g.jsonl"
    log.write_bytes(dbkit.moonstar_log(seed=3)[1])
    r = run("import", "--db", path, log)
    assert r.returncode == 0, r.stderr
    return path, log


# --- endless input ------------------------------------------------------------------
def test_import_of_dev_zero_reads_a_bounded_amount_and_says_so(tmp_path, stored):
    path, _ = stored
    before = dbkit.cli("games", "--db", path, "--json")[1]
    err = refused("import", "--db", path, "/dev/zero", words="larger than 8 MiB")
    assert err.startswith("moontable import: /dev/zero: the log is larger")
    assert dbkit.cli("games", "--db", path, "--json")[1] == before
    conn = sqlite3.connect(str(path))
    assert conn.execute("SELECT COUNT(*) FROM quarantine").fetchone()[0] == 0
    conn.close()


def test_a_huge_junk_file_is_not_kept_in_quarantine(tmp_path, stored):
    """300 MB of junk was stored whole in quarantine; now nothing past
    8 MiB is read and nothing of it is kept (20 MB here: the bound, not
    the size, is what matters)."""
    path, _ = stored
    junk = tmp_path / "junk.jsonl"
    with open(junk, "wb") as f:
        f.write(b'{"type":"header","game":"moon"}\n')
        block = os.urandom(1 << 20)
        for _ in range(20):
            f.write(block)
    size = os.path.getsize(path)
    refused("import", "--db", path, junk, words="larger than 8 MiB")
    conn = sqlite3.connect(str(path))
    assert conn.execute("SELECT COUNT(*) FROM quarantine").fetchone()[0] == 0
    conn.close()
    assert os.path.getsize(path) < size + (1 << 20)


def test_a_log_just_under_the_bound_is_still_read(tmp_path, stored):
    """The bound leaves room: a real log padded with blank lines to just
    under 8 MiB imports as the game it is. (Lines of spaces: 8 million
    empty lines cost the replay 9 s of CPU, and the bound is on bytes.)"""
    path, log = stored
    from moontable.journals import MAX_LOG

    padded = tmp_path / "padded.jsonl"
    data = log.read_bytes()
    pad = MAX_LOG - len(data)
    blank = b" " * 1023 + b"\n"  # under the 2 KB a line may hold (shared_rules/log.py)
    padded.write_bytes(data + blank * (pad // len(blank)) + b"\n" * (pad % len(blank)))
    assert len(padded.read_bytes()) == MAX_LOG
    r = run("import", "--db", path, padded)
    assert r.returncode == 0 and b"already stored" in r.stdout, r.stderr


def test_solve_of_dev_zero_stops_at_the_first_endless_line():
    err = refused("solve", "/dev/zero", words="line 1 is longer than 1 MiB")
    assert "stopped reading there" in err


def test_solve_from_an_endless_pipe_stops_too():
    """Standard input that never ends a line: the same bound."""
    env = dict(os.environ, PYTHONPATH=dbkit.ROOT)
    src = subprocess.Popen(["cat", "/dev/zero"], stdout=subprocess.PIPE)
    try:
        r = subprocess.run([sys.executable, "-m", "moontable.cli", "solve"], cwd=dbkit.ROOT, env=env, stdin=src.stdout,
                           capture_output=True, timeout=120)
    finally:
        src.kill()
        src.wait()
    assert r.returncode == 2 and b"line 1 is longer than 1 MiB" in r.stderr, r.stderr


# --- --db and --out that are not regular files ----------------------------------------
@pytest.mark.parametrize("command", [["games"], ["show", "1"], ["standings"], ["export", "--format", "csv"],
                                     ["report"], ["import", "LOG"], ["players"]])
def test_a_named_pipe_as_db_is_refused_not_waited_on(tmp_path, stored, command):
    _, log = stored
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    argv = [log if a == "LOG" else a for a in command]
    if command[0] == "report":
        argv += ["--out", tmp_path / "rep"]
    err = refused(*argv, "--db", fifo, words="is a named pipe (FIFO), not a database file")
    assert str(fifo) in err


def null_device(tmp_path):
    """A device node of our own (the null device's numbers) in tmp_path,
    so that a moontable which replaced device files (as root it did)
    never touches the system's /dev/null."""
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")
    return node


def test_a_device_file_as_db_is_refused(tmp_path):
    node = null_device(tmp_path)
    refused("games", "--db", node, words="%s is a device file, not a database file" % node)
    refused("import", "--db", node, "x.jsonl", words="is a device file")
    assert stat.S_ISCHR(os.stat(node).st_mode)


def test_export_writes_through_a_symbolic_link(tmp_path, stored):
    """--out naming a link: the file it points to gets the export and the
    link stays a link (before: the link was replaced by a file)."""
    path, _ = stored
    target = tmp_path / "real.csv"
    target.write_text("old\n")
    link = tmp_path / "link.csv"
    os.symlink(target, link)
    r = run("export", "--db", path, "--format", "csv", "--out", link)
    assert r.returncode == 0, r.stderr
    assert os.path.islink(link) and os.readlink(link) == str(target)
    assert target.read_text().startswith("game_id,") or "Ann" in target.read_text()
    assert target.read_text() != "old\n"


@pytest.mark.parametrize("kind", ["fifo", "device", "link to a device"])
def test_export_refuses_an_out_that_is_not_a_regular_file(tmp_path, stored, kind):
    path, _ = stored
    if kind == "fifo":
        out = tmp_path / "out.csv"
        os.mkfifo(out)
        words = "is a named pipe (FIFO), not a regular file"
    elif kind == "device":
        out = null_device(tmp_path)
        words = "%s is a device file, not a regular file" % out
    else:
        node = null_device(tmp_path)
        out = tmp_path / "out.csv"
        os.symlink(node, out)
        words = "(the link %s points to %s)" % (out, node)
    refused("export", "--db", path, "--format", "csv", "--out", out, words=words)
    if kind != "fifo":
        assert stat.S_ISCHR(os.stat(out).st_mode)  # the node is still a device node
    if kind == "fifo":
        assert os.path.exists(out) and not os.path.isfile(out)  # left as it was
    if kind == "link to a device":
        assert os.path.islink(out)


def test_report_refuses_a_named_pipe_where_its_index_goes(tmp_path, stored):
    path, _ = stored
    out = tmp_path / "rep"
    out.mkdir()
    os.mkfifo(out / "index.html")
    err = refused("report", "--db", path, "--out", out, words="index.html is a named pipe (FIFO)")
    assert "refusing to write over it" in err


# --- device names -----------------------------------------------------------------------
@pytest.mark.parametrize("name, words", [
    ("a/b", 'holds a "/"'),
    ("a\x1bb", "control or invisible character"),
    ("", "the device name is empty"),
    ("x" * 10000, "10000 characters long; at most 64"),
    (" pad", "starts or ends with a space"),
])
def test_import_device_names_are_checked(tmp_path, name, words):
    log = tmp_path / "g.jsonl"
    log.write_bytes(dbkit.moonstar_log(seed=4)[1])
    db = tmp_path / "m.db"
    err = refused("import", "--db", db, "--device", name, log, words=words)
    assert "\x1b" not in err
    assert not db.exists()  # checked before the database is made


def test_a_sound_device_name_files_the_game_under_it(tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_bytes(dbkit.moonstar_log(seed=4)[1])
    db = tmp_path / "m.db"
    r = run("import", "--db", db, "--device", "Émile's table-2", log)
    assert r.returncode == 0, r.stderr
    r = run("show", "--db", db, "Émile's table-2/ms-4")
    assert r.returncode == 0, r.stderr


# --- a database left mid-write -----------------------------------------------------------
WRITER = """
import os, sqlite3, sys
from moontable.db import Database
db = Database.open(sys.argv[1])      # created whole
db.close()
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA journal_mode=DELETE")  # a rollback journal: what SQLite leaves when killed mid-change
c.execute("PRAGMA cache_size=1")
c.execute("BEGIN IMMEDIATE")
c.execute("CREATE TABLE scratch(x)")
for i in range(3000):
    c.execute("INSERT INTO scratch VALUES (?)", (b"x" * 1000,))
sys.stdout.write("ready\\n")
sys.stdout.flush()
sys.stdin.readline()
"""


def test_a_database_left_mid_write_is_named_not_called_read_only(tmp_path):
    """A writer killed mid-change (SIGKILL) leaves a hot journal beside a
    writable file; a read command cannot replay it (it never writes), and
    SQLite calls that "attempt to write a readonly database". Now the
    command says what happened, and the next command that writes repairs
    it, as the message says."""
    path = tmp_path / "m.db"
    env = dict(os.environ, PYTHONPATH=dbkit.ROOT)
    p = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], cwd=dbkit.ROOT, env=env,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert p.stdout.readline() == b"ready\n"
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    assert os.path.getsize(str(path) + "-journal") > 0
    err = refused("games", "--db", path, words="was left mid-write")
    assert "read-only" not in err.replace("only reads", "")
    assert "m.db-journal holds the unfinished change" in err
    # The repair the message names: a command that writes, then reads work.
    log = tmp_path / "g.jsonl"
    log.write_bytes(dbkit.moonstar_log(seed=5)[1])
    assert run("import", "--db", path, log).returncode == 0
    r = run("games", "--db", path)
    assert r.returncode == 0 and b"Moonstar" in r.stdout, r.stderr
    conn = sqlite3.connect(str(path))
    assert conn.execute("SELECT name FROM sqlite_master WHERE name='scratch'").fetchone() is None
    conn.close()


def test_a_truly_read_only_database_still_says_read_only(tmp_path, stored):
    path, log = stored
    os.chmod(path, 0o444)
    try:
        refused("import", "--db", path, log, words="read-only")
    finally:
        os.chmod(path, 0o644)
