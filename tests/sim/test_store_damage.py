"""The simulated board (the real firmware under MicroPython) booted on a
data folder damaged in ways a board once met (issue 43, item 11): an
index.json with a byte changed or gone, an index whose next game number
names no game, a long journal in progress with an event past the game's
end, a journal file the device cannot open. Each time the board says
what it repaired, lists every game it can serve (and only those) with
the right state, and goes on without a traceback."""

import sys
from pathlib import Path

import simtools as st
from moontable.sim.board_link import deploy
from shared_rules.match import Match
from shared_rules.wire import encode
from shared_rules.wire_read import decode

from test_sim_boot_hostile import ask, boot, check_answers, listed, make_flash, warning_text

ROOT = Path(__file__).resolve().parents[2]
for p in (str(ROOT / "firmware"), str(ROOT / "tests")):
    if p not in sys.path:
        sys.path.append(p)


def states(b):
    """{id: state} of every game the board lists, page by page; no size
    the PC could not use."""
    out = {}
    i = 0
    seq = 200
    while i is not None:
        seq += 1
        reply = ask(b, seq, "ls", i=i)
        assert reply.get("ok") == 1, reply
        for gid, size, state in reply["games"]:
            assert isinstance(size, int) and size >= 0, reply
            out[gid] = state
        i = reply["next"]
    return out


def stm_in_progress(tmp_path):
    """Three closed Shoot the Moon games and one in progress, its first
    trick played (written by the firmware's own Journal under CPython)."""
    flash, j, ids = make_flash(tmp_path)
    j.append({"type": "trick", "winner": 1})
    m = Match.from_header(decode(Path(j.path(ids[-1])).read_bytes().splitlines()[0]))
    for line in Path(j.path(ids[-1])).read_bytes().splitlines()[1:]:
        m.apply(decode(line))  # the trick is one the rules take
    return flash, j, ids


def test_a_damaged_or_missing_index_resumes_the_game_in_progress(tmp_path):
    for damage in ("changed", "missing"):
        case = tmp_path / damage
        case.mkdir()
        flash, j, ids = stm_in_progress(case)
        cur = ids[-1]
        index = flash / "data" / "index.json"
        if damage == "changed":
            data = bytearray(index.read_bytes())
            at = data.index(b"\"cur\"") + 9  # a digit of the game in progress's id
            data[at] = ord("7") if data[at] != ord("7") else ord("8")
            index.write_bytes(bytes(data))
        else:
            index.unlink()
        b = boot(flash)
        try:
            text = warning_text(b)
            assert "rebuilt from the game files" in text and cur in text, text
            assert states(b) == {ids[0]: "done", ids[1]: "done", ids[2]: "done", cur: "open"}
            reply = ask(b, 300, "ack", g=cur)
            assert reply.get("ok") != 1 and reply.get("e") == "open", reply  # never stored as closed
            b.press("ok")
            scr = st.screen(b)
            assert scr.split("\n")[0] != "moontable" and "trick 2/5" in scr, scr  # the game, one trick on
            st.no_faults(b)
        finally:
            b.kill()
        b = boot(flash)  # the repair was written back: made and told once
        try:
            scr = st.screen(b)
            assert "Warning" not in scr and "trick 2/5" in scr, scr
            assert states(b)[cur] == "open"
        finally:
            b.kill()


def test_a_damaged_index_after_a_game_that_ended_keeps_it_closed(tmp_path):
    """The newest game had ended (closed at its end): the rebuilt index
    takes it back as the game in progress only to find it over, and
    closes it again, so the board boots to Home as it did before."""
    from gamegen import random_moonstar
    from store.files import Store
    from store.journal import Journal

    flash = tmp_path / "flash"
    deploy(flash)
    j = Journal(Store(str(flash / "data")))
    m, events = random_moonstar(["Ann", "Bob", "Cy"], 66, 1767258000, 400, True)
    gid = j.new_game(m.header)
    for ev in events:
        j.append(dict(ev))
    j.finish(gid)
    (flash / "data" / "index.json").unlink()
    b = boot(flash)
    try:
        assert "rebuilt from the game files" in warning_text(b)
        assert states(b) == {gid: "done"}
        b.press("ok")
        assert st.screen(b).split("\n")[0] == "moontable", st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_an_index_number_no_game_can_be_named_with_is_repaired(tmp_path):
    from store.files import Store

    flash, j, ids = make_flash(tmp_path, closed=2, in_progress=False)
    store = Store(str(flash / "data"))
    idx = store.read_json("index.json")
    idx["next"] = 10000000000
    store.write_json("index.json", idx)  # CRC-valid
    b = boot(flash)
    try:
        text = warning_text(b)
        assert "10000000000" in text, text
        b.press("ok")
        st.start_shoot_the_moon(b)
        b.press("ok")  # P2 leads ...
        st.choose(b, "no moons")  # ... the first trick
        st.no_faults(b)
        games = listed(b)
        assert games[:2] == ids and len(games) == 3, games
        new = games[2]
        assert new.startswith("00003-"), new  # one past the highest game on flash
        assert len(st.journal_events(flash)) == 1
    finally:
        b.kill()


def test_a_long_journal_with_an_event_past_the_end_forks_in_bounded_memory(tmp_path):
    """2,413 lines (the game ended at line 66, then 2,347 events it
    refuses): held whole, the events took more than the heap."""
    from gamegen import random_moonstar
    from store.files import Store
    from store.journal import Journal

    flash = tmp_path / "flash"
    deploy(flash)
    j = Journal(Store(str(flash / "data")))
    m, events = random_moonstar(["Ann", "Bob", "Cy"], 66, 1767258000, 400, True)
    assert len(events) == 65 and m.state["over"]
    gid = j.new_game(m.header)
    with open(j.path(gid), "ab") as f:  # written at once: 2,412 synced appends take long on a PC
        for ev in events:
            f.write(encode(ev))
        t = events[-1]["t"]
        for k in range(2413 - 66):
            f.write(encode({"type": "time_up", "t": t + k}))
    old = Path(j.path(gid)).read_bytes()
    assert old.count(b"\n") == 2413 and len(old) > 80000
    b = boot(flash)
    try:
        text = warning_text(b)
        assert "event 66 of game %s is refused by the rules" % gid in text, text
        assert "resumed from the 65 events before it" in text, text
        got = states(b)
        assert len(got) == 2 and got[gid] == "done", got
        new = [g for g in got if g != gid][0]
        assert got[new] == "open"
        assert ask(b, 300, "ack", g=gid).get("ok") == 1  # the PC can store it now
        b.press("ok")
        st.no_faults(b)
    finally:
        b.kill()
    assert Path(j.path(gid)).read_bytes() == old  # kept byte for byte for the PC
    lines = Path(j.path(new)).read_bytes().splitlines()
    assert len(lines) == 66 and decode(lines[0])["continues"] == gid
    m = Match.from_header(decode(lines[0]))
    for line in lines[1:]:
        m.apply(decode(line))
    assert m.state["over"]


def test_a_journal_the_device_cannot_open_is_named_and_not_listed(tmp_path):
    flash, j, ids = make_flash(tmp_path)
    Path(j.path("00009-zzzz")).symlink_to(tmp_path / "nowhere")  # a name the folder lists, no file behind it
    b = boot(flash)
    try:
        text = warning_text(b)
        assert "games/00009-zzzz.jsonl" in text.replace(" ", "") and "cannot be opened" in text, text
        check_answers(b, ids)
        assert states(b)[ids[-1]] == "open"
    finally:
        b.kill()
