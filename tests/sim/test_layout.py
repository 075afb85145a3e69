"""Every screen of the scripted sessions drawn, and read for text a player
cannot read whole (tests/sim/layout.py): past the panel, over or run into
other text, cut by a shape drawn over it (a title under the minute's
countdown, a score under a scroll mark), over a shape that is not its
background, or against a separator line. The sessions: one start and one
round of each game as bench/presses.py plays them (its driver walks every
menu it meets), and the moments those do not reach: a Moonstar Game 10
round with challenges, a paused minute and a time-up waiting for an entry;
a finished game, Home's Games on flash, the abandon question."""

import sys
from pathlib import Path

import pytest
import simtools as st

import layout

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import presses  # noqa: E402


def logged_board(tmp_path, log):
    return st.SimBoard(tmp_path / "flash", seed=7, env={"MOONSIM_DRAWLOG": str(log)}).start()


def report(log):
    found = layout.check(log)
    assert layout.frames(log), "nothing was drawn"
    assert not found, "text drawn where it cannot be read whole:\n" + "\n".join(found)


@pytest.mark.parametrize("game", sorted(presses.FACTS))
def test_every_screen_of_a_scripted_round_reads_whole(tmp_path, game):
    log = tmp_path / "draw.log"
    presses.play(game, env={"MOONSIM_DRAWLOG": str(log)})
    report(log)


def test_the_moments_the_rounds_do_not_reach_read_whole(tmp_path):
    log = tmp_path / "draw.log"
    b = logged_board(tmp_path, log)
    try:
        # Moonstar Game 10: bids and challenges while the minute runs
        st.choose(b, "New game")
        st.choose(b, "Moonstar")
        st.set_number(b, 3, 4)
        st.choose(b, "10 Challenge")
        for _ in range(3):
            b.press("ok")
        b.press("ok")
        st.choose(b, "Choose setter")
        st.choose(b, "P1")
        b.press("ok")
        st.choose(b, "Skip set-up")
        b.press("ok")
        st.choose(b, "P2")
        b.press("ok")  # P2 bids 20
        for who in ("P1", "P3"):
            b.press("ok")
            st.choose(b, "Challenge")
            st.choose(b, who)
        b.long_press("ok")  # paused: the countdown with its pause mark over each title
        b.press("ok")  # every seat has challenged: the bid at once
        st.choose(b, "P3")
        b.press("back")
        b.press("back")
        b.press("back")
        st.choose(b, "Standings")
        b.press("back")
        b.long_press("ok")
        b.advance(40000)  # some 15 s left
        b.press("ok")
        st.choose(b, "P3")
        b.advance(20000)  # time up, waiting for the entry
        b.press("back")
        b.press("back")  # let go: the time-up goes in; the playing minute, two challengers
        b.advance(1000)
        b.press("ok")  # the points entry over the running minute
        b.press("back")
        b.press("back")
        st.choose(b, "Home")
        st.choose(b, "New game")  # the abandon question
        b.press("back")
        st.choose(b, "Games on flash")
        b.press("ok")
        b.press("ok")
        st.choose(b, "Delete")
        b.press("back")
        b.press("back")
        b.press("back")
        b.press("back")
        st.choose(b, "Settings")
        b.press("back")
        st.no_faults(b)
    finally:
        b.kill()
    report(log)
