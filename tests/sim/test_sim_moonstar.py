"""A complete short Moonstar game played through the buttons of the
simulated board: setter roll, device set-up, the bidding minute with
hold-to-accelerate bid entry, the playing minute, results, until a player
passes 200. The journal on flash must replay to what the screen showed."""

import re

import simtools as st
from shared_rules.moonstar.solver import solve


def check_best_possible(b, flash):
    """After a round with a device-rolled set-up: the bidder's points and
    "best possible: N", N being what the solver finds on the PC for the
    situation the journal recorded."""
    scr = st.screen(b)
    assert "R1 result" in scr and "made" in scr, scr
    assert re.search(r"points: *20$", scr, re.M), scr
    sit = st.replay(flash).state["last"]["sit"]
    assert sit and sit["dice"], sit
    best = re.search(r"best possible:? *(\d+)$", scr, re.M)
    assert best, scr
    want = solve(sit)["best"]
    assert int(best.group(1)) == want, (scr, sit)


def start_game(b, game_label, players=None):
    st.choose(b, "New game")
    st.choose(b, game_label)


def test_moonstar_full_game(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.snap(b, "home")
        start_game(b, "Moonstar")
        # players: 4 by default, two presses down for 2
        b.press("down")
        b.press("down")
        b.press("ok")
        st.choose(b, "1 Basic")
        b.press("ok")  # seat 1: P1
        b.press("ok")  # seat 2: P2
        assert "Who sets up?" in st.screen(b)
        b.press("ok")
        st.choose(b, "Roll for setter")
        scr = st.screen(b)
        assert "sets up" in scr or "roll again" in scr, scr
        assert re.search(r"^P1 [1-6] [1-6] [1-6] [1-6] =\d+$", scr, re.M), scr  # each player's dice and total
        b.press("ok")
        for rnd in range(4):
            assert "Set-up" in st.screen(b), st.screen(b)
            b.press("ok")
            # the device's roll first, but after a table set-up, skipping it again
            assert st.selected(b).strip() == ("Skip set-up" if rnd >= 2 else "Device rolls"), st.screen(b)
            st.choose(b, "Device rolls" if rnd == 0 else "Skip set-up")
            if rnd == 0:
                assert "by P2" in st.screen(b) and "value@star" not in st.screen(b), st.screen(b)  # the drawn board
                st.snap(b, "moonstar-situation")
                b.press("back")  # (OK would go on to the bid at once)
            scr = st.screen(b)
            assert "Bids" in scr, scr
            if rnd == 0:
                st.snap(b, "moonstar-bidding")
            b.press("ok")  # the only legal action in Game 1: straight to the bid
            assert "Who bids?" in st.screen(b)
            st.choose(b, "P1")
            assert "first bid" in st.screen(b)
            if rnd:
                b.hold("up", 3000)  # hold to accelerate: 20 -> 70 in three seconds
            if rnd == 0:
                st.snap(b, "moonstar-bid-entry")
            b.press("ok")
            ev = st.journal_events(tmp_path / "flash")[-1]
            assert [ev.get(k) for k in ("type", "player", "amount")] == ["bid", 0, 70 if rnd else 20], ev
            if rnd == 0:
                st.snap(b, "moonstar-standing-bid")
                b.advance(61000)  # the bidding minute runs out on its own
            else:
                b.press("back")
                st.choose(b, "Time up now")
            scr = st.screen(b)
            assert "Play" in scr, scr
            if rnd == 0:
                st.snap(b, "moonstar-playing")
            b.press("ok")
            assert ("bid %d" % (70 if rnd else 20)) in st.screen(b)
            b.press("ok")  # points default to the bid
            if rnd == 0:
                check_best_possible(b, tmp_path / "flash")
                b.press("ok")
            else:
                assert "made 70" in st.screen(b) or rnd == 3, st.screen(b)  # no situation: a toast says it
                st.wait_toast(b)
        assert "P1 wins!" in st.screen(b), st.screen(b)  # the winner's banner
        b.advance(3100)
        scr = st.screen(b)
        assert "Won: P1" in scr, scr
        st.snap(b, "moonstar-over")
        m = st.replay(tmp_path / "flash")
        assert m.state["scores"] == [230, 0] and m.winner() == 0
        kinds = [e["type"] for e in st.journal_events(tmp_path / "flash")]
        assert kinds.count("time_up") == 4 and kinds.count("result") == 4
        st.no_faults(b)
    finally:
        b.kill()


def test_best_possible_after_a_squares_round(tmp_path):
    """Game 7 (squared piles) takes the solver's branch and bound
    (shared_rules/moonstar/piles.py), loaded beside the game within the
    tests' heap; the screen's number is the PC's."""
    b = st.new_board(tmp_path, seed=3)
    try:
        st.start_two_player_moonstar(b, "7 No planets", "P2")
        b.press("ok")
        st.choose(b, "Device rolls")
        b.press("ok")  # the situation: its OK goes on to the bid
        st.choose(b, "P1")
        b.press("ok")  # the lowest legal bid
        b.press("back")
        st.choose(b, "Time up now")
        b.press("ok")
        b.press("ok")  # points: the bid
        b.advance(1000)  # the result is checked in slices before it is journaled
        sit = st.replay(tmp_path / "flash").state["last"]["sit"]
        assert sit["scoring"] == "squares"
        b.advance(2000)  # a few hundred loop passes at most for the search
        scr = st.screen(b)
        best = re.search(r"best possible:? *(\d+)$", scr, re.M)
        assert best and int(best.group(1)) == solve(sit)["best"], (scr, sit)
        assert "points: 20" in scr, scr
        st.snap(b, "moonstar-best")
        b.press("ok")
        assert "R2" in st.screen(b), st.screen(b)
        b.press("back")
        st.choose(b, "Last round")  # the screen again, from the game menu
        b.advance(2000)
        assert best.group(0) in st.screen(b), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()
