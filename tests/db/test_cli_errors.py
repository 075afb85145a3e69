"""Bad input at the command line: one clear line on stderr and exit status
2, never a traceback. Real processes (`python -m moontable.cli`), so what a
person sees is what is checked, with bytes arguments where the shell hands
over bytes that are not UTF-8."""

import json
import os
import resource
import signal
import subprocess
import sys

import pytest

import dbkit
from shared_rules.wire import dumps

DEEP = 100000


def run(*argv, stdout=None, preexec_fn=None, stdin=None, timeout=300):
    """`moontable ARGV` as a process; argv items may be bytes."""
    env = dict(os.environ, PYTHONPATH=dbkit.ROOT)
    env.pop("MOONTABLE_DEBUG", None)
    args = [sys.executable.encode(), b"-m", b"moontable.cli"] + [a if isinstance(a, bytes) else str(a).encode()
                                                            for a in argv]
    kw = {"stdout": stdout} if stdout is not None else {"stdout": subprocess.PIPE}
    return subprocess.run(args, cwd=dbkit.ROOT, env=env, stderr=subprocess.PIPE, timeout=timeout,
                          preexec_fn=preexec_fn, input=stdin, **kw)


def refused(*argv, words=None, **kw):
    """Run, expect exit 2 with one line on stderr (no traceback); return it."""
    r = run(*argv, **kw)
    err = r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2, (argv, r.returncode, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    if words:
        assert words in err, err
    return err


def plain(lines):
    return b"".join(dumps(x).encode() + b"\n" for x in lines)


@pytest.fixture
def dbfile(tmp_path):
    path = tmp_path / "m.db"
    log = tmp_path / "g.jsonl"
    log.write_bytes(plain(dbkit.data_lines("moonstar-basic")))
    assert run("import", log, "--db", path).returncode == 0
    return path


def test_json_nested_100000_deep(tmp_path):
    header = b'{"type":"header","game":"moonstar","players":' + b"[" * DEEP + b"]" * DEEP + b"}\n"
    log = tmp_path / "deep.jsonl"
    log.write_bytes(header)
    refused("replay", log)
    # import keeps the file in quarantine, with the reason, and exits 2
    refused("import", log, "--db", tmp_path / "m.db", words="deep.jsonl")
    sit = tmp_path / "deep-sit.jsonl"
    sit.write_bytes(b"[" * DEEP + b"]" * DEEP + b"\n")
    r = run("solve", sit, "--json")
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert "too deeply" in json.loads(r.stdout)["error"]


@pytest.mark.parametrize("game", [["moonstar"], {"moonstar": 1}])
def test_header_game_that_is_not_a_name(tmp_path, game):
    log = tmp_path / "g.jsonl"
    log.write_bytes(plain([{"type": "header", "game": game, "players": ["Ann", "Bob"]}]))
    refused("replay", log)
    refused("import", log, "--db", tmp_path / "m.db")


@pytest.mark.parametrize("header", [
    {"rules": True}, {"rules": 1.0}, {"options": []}, {"options": ""}, {"options": None},
])
def test_header_values_of_the_wrong_type_are_refused(tmp_path, header):
    lines = dbkit.data_lines("moonstar-basic")
    lines[0].update(header)
    log = tmp_path / "g.jsonl"
    log.write_bytes(plain(lines))
    refused("replay", log)
    refused("import", log, "--db", tmp_path / "m.db")


def test_a_lone_surrogate_in_a_name(tmp_path):
    text = plain(dbkit.data_lines("moonstar-basic")).replace(b'"Bob"', b'"B\\ud800b"', 1)
    log = tmp_path / "g.jsonl"
    log.write_bytes(text)
    db = tmp_path / "m.db"
    for argv in (["replay", log], ["import", log, "--db", db], ["games", "--db", db],
                 ["games", "--quarantine", "--db", db]):
        r = run(*argv)
        assert r.returncode in (0, 2) and b"Traceback" not in r.stderr, (argv, r.stderr)
        if r.returncode == 2:
            assert len(r.stderr.strip().splitlines()) == 1


def test_replay_of_a_folder_or_an_unreadable_file(tmp_path):
    refused("replay", tmp_path, words="folder")
    refused("replay", tmp_path / "missing.jsonl", words="no such file")
    if os.path.exists("/proc/self/mem"):  # Linux: opens, but reading it at 0 fails with EIO
        refused("replay", "/proc/self/mem", words="cannot be read")
    if os.geteuid() != 0:  # root reads a file whatever its permission bits say
        locked = tmp_path / "locked.jsonl"
        locked.write_bytes(b"{}\n")
        os.chmod(locked, 0)
        refused("replay", locked, words="permission denied")


def test_solve_of_a_file_that_is_not_utf8(tmp_path):
    f = tmp_path / "sit.jsonl"
    f.write_bytes(b'{"moons": [1, 2], "dice": [1, 2], "name": "\xff\xfe"}\n')
    r = run("solve", f, "--json")
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert "not UTF-8" in json.loads(r.stdout)["error"]
    refused("solve", tmp_path, words="folder")


def test_show_of_numbers_that_are_not_game_numbers(dbfile):
    refused("show", "99999999999999999999", "--db", dbfile, words="no game 99999999999999999999")
    refused("show", "²", "--db", dbfile, words="give the number")
    refused("show", "-1", "--db", dbfile)


@pytest.mark.parametrize("argv", [
    ["games", "--player", b"\xff"],
    ["show", b"pico/\xff"],
    ["export", "--format", "csv", "--player", b"\xffA"],
    ["players", "merge", b"\xff", "Ann"],
    ["import", "--device", b"dev\xff", "LOG"],
    ["standings", "--game", b"\xff"],
])
def test_arguments_that_are_not_utf8(dbfile, tmp_path, argv):
    log = tmp_path / "g.jsonl"
    argv = [log if a == "LOG" else a for a in argv]
    refused(*argv, "--db", dbfile, words="not valid UTF-8")


def test_quarantine_excerpts_cannot_drive_the_terminal(tmp_path):
    lines = plain(dbkit.data_lines("moonstar-basic")).split(b"\n")
    lines[3] = b'{"type":"bid","player":0,"amount":40,"note":"\x1b[2J\x1b]0;owned\x07\r"}'
    log = tmp_path / "esc.jsonl"
    log.write_bytes(b"\n".join(lines))
    db = tmp_path / "m.db"
    err = refused("import", log, "--db", db)
    out = run("games", "--quarantine", "--db", db)
    assert out.returncode == 0
    for text in (err.encode(), out.stdout):
        assert b"\x1b" not in text and b"\r" not in text and b"\x07" not in text
        assert b"\\x1b" in text


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_stdout_on_a_full_disk(dbfile):
    with open("/dev/full", "wb") as full:
        for argv in (["games"], ["show", "1"], ["standings"], ["export", "--format", "csv"], ["players"]):
            err = refused(*argv, "--db", dbfile, stdout=full)
            assert "cannot write the output" in err and "No space left" in err
        # help is output too: argparse alone would swallow the failed write
        for argv in (["--help"], ["games", "--help"], ["sync", "--help"]):
            err = refused(*argv, stdout=full)
            assert "cannot write the output" in err and "No space left" in err


# ------------------------------------------------------------ read-only files and folders

def _imported(tmp_path):
    """(folder, database, log): a database holding one imported Moonstar game."""
    d = str(tmp_path)
    db = os.path.join(d, "m.db")
    log = os.path.join(d, "g.jsonl")
    with open(log, "wb") as f:
        f.write(plain(dbkit.data_lines("moonstar-basic")))
    os.chmod(log, 0o644)
    assert run("import", log, "--db", db).returncode == 0
    return d, db, log


def test_a_read_only_database(tmp_path):
    _, db, log = _imported(tmp_path)
    os.chmod(db, 0o444)
    # the folder stays writable: only the file is read-only
    refused("import", log, "--db", db, words="read-only")
    refused("players", "add", "Zed", "--db", db, words="read-only")
    r = run("games", "--db", db)  # reading still works
    assert r.returncode == 0 and b"Moonstar" in r.stdout, r.stderr


def test_a_read_only_folder(tmp_path):
    d, db, log = _imported(tmp_path)
    os.chmod(db, 0o666)
    os.chmod(d, 0o555)  # the folder is read-only
    err = refused("players", "add", "Zed", "--db", db)
    assert "folder" in err and "read-only" in err and "not a usable" not in err
    r = run("games", "--db", db)
    os.chmod(d, 0o755)
    assert r.returncode == 0 and b"Moonstar" in r.stdout, r.stderr


def test_a_full_disk_during_import_reports_what_was_stored(tmp_path):
    logs = []
    basic = dbkit.data_lines("moonstar-basic")
    for i in range(60):
        lines = [dict(basic[0], players=["Ann", "Bob", "P%d" % i])] + basic[1:]
        p = tmp_path / ("g%02d.jsonl" % i)
        p.write_bytes(plain(lines))
        logs.append(p)
    db = tmp_path / "m.db"

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (400000, 400000))  # a new file (~110 KB) and a few games

    r = run("import", *logs, "--db", db, preexec_fn=limit)
    err = r.stderr.decode()
    assert r.returncode == 2 and "Traceback" not in err, err
    assert "stopped there" in err and "Stored before it:" in err
    stored = [line for line in r.stdout.decode().splitlines() if "stored game" in line]
    assert 0 < len(stored) < 60
    games = json.loads(run("games", "--json", "--db", db).stdout)
    assert len(games) == len(stored)  # exactly the games it said it stored
    for line in stored:
        assert line.split(":")[0] in err
