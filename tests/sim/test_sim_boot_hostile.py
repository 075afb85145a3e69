"""Boot of the simulated board when flash holds what the device never
writes: a folder at a journal's .tmp/.new path, a folder named like a
journal, `data` as a file, a huge (valid) roster.json, a roster with a name
twice. Each time the real firmware under MicroPython boots to its screens
(never to the REPL), shows a warning, answers `hello` and lists every game
on the serial link, and keeps every byte it did not write."""

import sys
from pathlib import Path

import simtools as st
from moontable.sim.board_link import deploy, SimBoard
from shared_rules.match import Match
from shared_rules.wire import encode
from shared_rules.wire_read import decode

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "firmware") not in sys.path:
    sys.path.append(str(ROOT / "firmware"))


def make_flash(tmp_path, closed=3, in_progress=True):
    """A deployed flash folder whose data holds `closed` finished games and
    one in progress, written by the firmware's own Journal (CPython)."""
    from store.journal import Journal
    from store.files import Store

    flash = tmp_path / "flash"
    deploy(flash)
    j = Journal(Store(str(flash / "data")))
    ids = []
    for k in range(closed + (1 if in_progress else 0)):
        header = Match("shoot-the-moon", ["P1", "P2", "P3"], {}).header
        gid = j.new_game(header)
        if k < closed:
            j.finish(gid)
        ids.append(gid)
    return flash, j, ids


def boot(flash):
    b = SimBoard(flash, seed=7, do_deploy=False).start()
    b.advance(200)
    return b


def ask(b, seq, cmd, **fields):
    """One request on the board's serial link; its reply."""
    req = {"s": seq, "c": cmd}
    req.update(fields)
    b.send_serial(encode(req))
    for _ in range(20):
        b.tick()
        for line in b.serial_text().splitlines():
            if line.startswith("{"):
                try:
                    reply = decode(line)
                except ValueError:
                    continue
                if reply.get("s") == seq:
                    return reply
    raise AssertionError("no reply to %s; serial:\n%s" % (cmd, b.serial_text()[-2000:]))


def listed(b):
    """Every game the board lists, page by page, as the PC reads them."""
    games = []
    i = 0
    seq = 100
    while i is not None:
        seq += 1
        reply = ask(b, seq, "ls", i=i)
        assert reply.get("ok") == 1, reply
        games.extend(g[0] for g in reply["games"])
        i = reply["next"]
    return games


def warning_text(b):
    """The whole boot warning, scrolled through with DOWN (the board
    stays on the notice: DOWN only scrolls it)."""
    scr = st.screen(b)
    assert scr.startswith("Warning"), scr
    seen = []
    for _ in range(12):
        for line in st.screen(b).split("\n")[1:-1]:  # below the title, above "OK: continue"
            if line not in seen:
                seen.append(line)
        b.press("down")
    return " ".join(seen)


def check_answers(b, ids):
    hello = ask(b, 1, "hello")
    assert hello.get("ok") == 1 and hello["boot"] >= 1 and isinstance(hello["ms"], int), hello
    assert listed(b) == ids
    st.no_faults(b)


def test_folders_at_tmp_and_new_paths(tmp_path):
    flash, j, ids = make_flash(tmp_path)
    cur = ids[-1]
    Path(j.path(cur) + ".tmp").mkdir()
    (Path(j.path(cur) + ".tmp") / "notes.txt").write_bytes(b"mine")
    Path(j.path(ids[0]) + ".new").mkdir()
    b = boot(flash)
    try:
        text = warning_text(b)
        assert "with files in it" in text or "empty folder" in text, text
        check_answers(b, ids)
        assert (Path(j.path(cur) + ".tmp") / "notes.txt").read_bytes() == b"mine"
        assert not Path(j.path(ids[0]) + ".new").exists()
        b.press("ok")
        assert "Warning" not in st.screen(b)
        b.press("ok")
        st.no_faults(b)
    finally:
        b.kill()


def test_a_folder_named_like_a_journal(tmp_path):
    flash, j, ids = make_flash(tmp_path)
    Path(j.path("00002-zzzz")).mkdir()
    b = boot(flash)
    try:
        assert "is a folder, not a game" in warning_text(b)
        check_answers(b, ids)
    finally:
        b.kill()


def test_data_is_a_file(tmp_path):
    flash = tmp_path / "flash"
    deploy(flash)
    (flash / "data").write_bytes(b"somebody's notes\n")
    b = boot(flash)
    try:
        assert "was a file" in warning_text(b)
        check_answers(b, [])
        assert (flash / "data.file1").read_bytes() == b"somebody's notes\n"
        assert (flash / "data").is_dir()
        b.press("ok")
        assert "New game" in st.screen(b)
    finally:
        b.kill()


def test_a_huge_valid_roster(tmp_path):
    flash, j, ids = make_flash(tmp_path)
    names = ["N%05d" % k for k in range(20000)]
    big = encode({"v": names})
    roster = flash / "data" / "roster.json"
    roster.write_bytes(big)
    b = boot(flash)
    try:
        assert "too large" in warning_text(b)
        check_answers(b, ids)
        assert roster.read_bytes() == big  # kept until a PC pushes a roster
    finally:
        b.kill()


def test_a_roster_file_with_a_name_twice(tmp_path):
    flash, j, ids = make_flash(tmp_path)
    from store.files import Store

    Store(str(flash / "data")).write_json("roster.json", ["Ann", "Bob", "ANN"])
    b = boot(flash)
    try:
        text = warning_text(b)
        assert "roster.json ignored" in text and "twice" in text, text
        check_answers(b, ids)
    finally:
        b.kill()
