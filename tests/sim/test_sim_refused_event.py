"""A game in progress whose journal holds an event the rules refuse (a
journal an older firmware wrote: it skipped such an event at resume and
appended on). Before, the device skipped it again and kept appending to
that journal, so the PC could never replay the game. Now the simulated
board (the real firmware under MicroPython) resumes from the events
before the refused one as a new game that continues it, and never writes
another byte to the old journal, which stays for the PC."""

import sys
from pathlib import Path

import simtools as st
from moontable.sim.board_link import deploy
from shared_rules import RuleError
from shared_rules.match import Match
from shared_rules.wire_read import decode

from test_sim_boot_hostile import boot, listed, warning_text

ROOT = Path(__file__).resolve().parents[2]
for p in (str(ROOT / "firmware"), str(ROOT / "tests")):
    if p not in sys.path:
        sys.path.append(p)

REFUSED = {"type": "result", "points": 999}


def refused_journal(j, k=6, after=3):
    """A Moonstar game in progress: k legal events, one the rules refuse,
    then `after` more that are legal once it is skipped. Returns (id,
    header, the events written)."""
    from gamegen import random_moonstar

    m, events = random_moonstar(["Ann", "Bob", "Cy"], 11, 1767258000, k + after, False)
    check = Match.from_header(m.header)
    for ev in events[:k]:
        check.apply(dict(ev))
    try:
        check.apply(dict(REFUSED))
        raise AssertionError("the rules took %r" % (REFUSED,))
    except RuleError:
        pass
    written = events[:k] + [dict(REFUSED)] + events[k:k + after]
    gid = j.new_game(m.header)
    for ev in written:
        j.append(dict(ev))
    return gid, m.header, written


def test_the_board_never_appends_after_a_refused_event(tmp_path):
    from store.journal import Journal
    from store.files import Store

    flash = tmp_path / "flash"
    deploy(flash)
    j = Journal(Store(str(flash / "data")))
    gid, header, written = refused_journal(j)
    old = Path(j.path(gid)).read_bytes()
    b = boot(flash)
    try:
        text = warning_text(b)
        assert "event 7 of game %s is refused by the rules" % gid in text, text
        assert "resumed from the 6 events before it" in text, text
        games = listed(b)
        assert len(games) == 2 and games[0] == gid, games
        new = games[1]
        b.press("ok")
        st.no_faults(b)
    finally:
        b.kill()
    assert Path(j.path(gid)).read_bytes() == old  # kept byte for byte
    idx = Store(str(flash / "data")).read_json("index.json", None)
    assert idx["cur"] == new  # what the board appends to from now on
    lines = [decode(x) for x in Path(j.path(new)).read_bytes().splitlines(True)]
    assert lines[0]["continues"] == gid and lines[0]["id"] == new
    for a, b_ in zip(lines[1:], written[:6]):
        assert {k: v for k, v in a.items() if k not in ("b", "ms")} == b_
    assert len(lines) == 7
    m = Match.from_header(lines[0])  # the continuation replays whole
    for ev in lines[1:]:
        m.apply(ev)
