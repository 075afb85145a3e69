"""At the table, third round (issue 43), Moonstar, through the simulated
board's buttons under the real MicroPython: an undo after a restart gives
the phase its minute as it was; a refused points entry keeps the best
possible to itself while the playing minute is not over; the default bid
comes from the bids that stand; menus keep their order (the cursor, not
the items, sits on the likely answer); the toast of a result says what
happened to the bidder's score."""

import sys
from pathlib import Path

import simtools as st
from test_sim_boot import restart
from test_table_round2 import flat, moonstar_bidding, timer_left

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import presses  # noqa: E402


def menu_items(b):
    """Every item of the menu shown, in menu order from its first row (the
    selection is walked round the wrapping menu and back: no choice made)."""
    d = presses.Driver(b, b.flash)
    items = d.menu_items()  # from the selected one on
    lines = st.screen_lines(b.emu)[1:]
    top = items.index(next(x for x in items if x.strip() == lines[0].strip()))
    return [x.strip() for x in items[top:] + items[:top]]


def picker_value(b):
    """The number the picker shows (read by walking it down and back)."""
    return presses.Driver(b, b.flash).number_shown()[0]


def two_player(b, game_label):
    """A 2-player game of `game_label`, P1 the first setter, in its set-up."""
    st.start_two_player_moonstar(b, game_label, "P1")
    assert "Set-up" in st.screen(b), st.screen(b)


def time_up_now(b):
    b.press("back")
    st.choose(b, "Time up now")


# -- 2. an undo after a restart: the minute as it was ---------------------------
def test_an_undo_after_a_restart_gives_the_bidding_minute_back_as_it_ran_out(tmp_path):
    b = moonstar_bidding(tmp_path)
    flash = tmp_path / "flash"
    try:
        b.advance(timer_left(flash) + 8000)  # the bidding minute runs out; 8 s of play
        assert st.journal_events(flash)[-1]["type"] == "time_up"
        assert 51000 < timer_left(flash) <= 52000
        b.kill()  # the power goes
        b = restart(tmp_path)
        b.advance(300)
        scr = st.screen(b)
        assert "R1 Play" in scr and "PAUSED" in scr and 51000 < timer_left(flash) <= 52000, scr
        b.long_press("back")  # undo the time-up
        scr = st.screen(b)
        assert "R1 Bids" in scr, scr
        assert timer_left(flash) == 0, timer_left(flash)
        assert "TIME UP" in scr and "PAUSED" not in scr, scr  # not a fresh minute
        st.wait_toast(b)
        b.advance(5000)
        assert st.journal_events(flash)[-1]["type"] == "undo"  # nothing runs out again on its own
        assert st.screen_lines(b.emu)[-1].startswith("OK:bid"), st.screen(b)  # as after an undo with no restart
        st.no_faults(b)
    finally:
        b.kill()


def test_a_restart_after_the_playing_minute_ran_out_keeps_it_out_for_an_undo(tmp_path):
    """The result entry has no minute: what the playing minute had left is
    kept all the same, for an undo back into the play."""
    b = moonstar_bidding(tmp_path)
    flash = tmp_path / "flash"
    try:
        b.advance(timer_left(flash) + 100)
        b.advance(timer_left(flash) + 500)  # the playing minute runs out too
        assert [e["type"] for e in st.journal_events(flash)[-2:]] == ["time_up", "time_up"]
        b.advance(200)
        b.kill()
        b = restart(tmp_path)
        b.advance(300)
        b.long_press("back")
        scr = st.screen(b)
        assert "R1 Play" in scr and "TIME UP" in scr, scr
        assert timer_left(flash) == 0
        st.no_faults(b)
    finally:
        b.kill()


# -- 3. a refused points entry keeps the best to itself in the play ---------------
def _refused(b, flash, paused):
    """Device-rolled set-up, P2 bids 20, play: the points entry at the most
    the rules take; the refusal's toast (the check, in slices)."""
    from shared_rules.moonstar.solver import solve

    two_player(b, "1 Basic")
    b.press("ok")
    st.choose(b, "Device rolls")
    b.press("ok")  # the drawn set-up's OK: on to the bid
    st.choose(b, "P2")
    b.press("ok")  # 20
    time_up_now(b)
    best = solve(st.replay(flash).state["sit"])["best"]
    if paused:
        b.long_press("ok")
        assert "PAUSED" in st.screen(b), st.screen(b)
    b.press("ok")  # the points entry
    st.set_number(b, best + 4, 20)
    b.advance(1500)
    return best


def test_a_refused_points_entry_in_a_paused_playing_minute_names_no_best(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        best = _refused(b, flash, paused=True)
        said = flat(b)
        assert "%d is more than this set-up allows" % (best + 4) in said, said
        assert "best" not in said, said
        assert st.journal_events(flash)[-1]["type"] == "time_up"  # refused
        st.no_faults(b)
    finally:
        b.kill()


def test_a_refused_points_entry_in_a_running_playing_minute_names_no_best(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        best = _refused(b, flash, paused=False)
        said = flat(b)
        assert "more than this set-up allows" in said and "best" not in said, said
        st.no_faults(b)
    finally:
        b.kill()


# -- 4. the default bid comes from the bids that stand -----------------------------
def test_the_default_bid_after_an_undo_comes_from_the_bids_that_stand(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        d = presses.Driver(b, flash)
        d.answer(presses.FACTS["moonstar"]["start"], 1)
        d.settle()
        b.press("ok")
        st.choose(b, "Skip set-up")
        b.press("ok")
        st.choose(b, "P2")
        st.set_number(b, 25, 20)  # P2 bids 25
        b.long_press("back")  # undone
        st.wait_toast(b)
        assert st.replay(flash).state["bid"] == 0
        b.press("ok")
        st.choose(b, "P3")
        st.set_number(b, 40, 20)  # P3 bids 40, the first bid that stands
        b.press("ok")
        st.choose(b, "P2")
        assert "standing 40" in flat(b), st.screen(b)
        assert picker_value(b) == 45, st.screen(b)  # one raise of 5 above it, not 55
        b.press("ok")
        ev = st.journal_events(flash)[-1]
        assert (ev["type"], ev["player"], ev["amount"]) == ("bid", 1, 45), ev
        st.no_faults(b)
    finally:
        b.kill()


# -- 5. menus keep their order ---------------------------------------------------------
SETUP_MENU = ["Device rolls", "Enter set-up", "Skip set-up"]


def test_the_set_up_menu_keeps_its_order_after_a_skipped_set_up(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        two_player(b, "1 Basic")
        b.press("ok")
        assert menu_items(b) == SETUP_MENU and st.selected(b).strip() == "Device rolls", st.screen(b)
        st.choose(b, "Skip set-up")
        time_up_now(b)  # nobody bid: the setter scores 20 and sets up again
        assert st.replay(flash).state["round"] == 1
        st.wait_toast(b)
        b.press("ok")
        # the same items in the same place; the cursor on the likely answer
        assert menu_items(b) == SETUP_MENU, st.screen(b)
        assert st.selected(b).strip() == "Skip set-up", st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_who_bids_lists_the_seats_in_order_with_the_cursor_on_the_likely_bidder(tmp_path):
    b = moonstar_bidding(tmp_path)  # 4 players, P1 sets up, P2 stands at 30
    flash = tmp_path / "flash"
    try:
        seats = ["P1", "P2", "P3", "P4"]
        b.press("ok")
        assert st.screen(b).startswith("Who bids?"), st.screen(b)
        assert menu_items(b) == seats and st.selected(b).strip() == "P3", st.screen(b)
        st.choose(b, "P3")
        b.press("ok")  # P3 bids 35
        b.press("ok")
        # P2 and P3 outbid each other: P2 likely next, the list as it was
        assert menu_items(b) == seats and st.selected(b).strip() == "P2", st.screen(b)
        assert [(e["player"], e["amount"]) for e in st.journal_events(flash)[-2:]] == [(1, 30), (2, 35)]
        st.no_faults(b)
    finally:
        b.kill()


# -- 7. the result's toast says what happened to the score --------------------------------
def test_a_failed_challenged_bid_s_toast_says_what_it_cost(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        two_player(b, "10 Challenge")
        b.press("ok")
        st.choose(b, "Skip set-up")
        b.press("ok")  # no bid to challenge yet: straight to the bid
        st.choose(b, "P2")
        st.set_number(b, 30, 20)  # P2 bids 30
        b.press("ok")
        st.choose(b, "Challenge")
        st.choose(b, "P1")  # P1 challenges
        time_up_now(b)  # bids over
        time_up_now(b)  # play over
        b.press("ok")  # P2's points
        st.set_number(b, 25, 30)
        b.advance(200)
        said = flat(b)
        assert st.replay(flash).state["scores"] == [25, -25]
        assert "P2 failed 30: -25" in said and "points" not in said, said
        st.no_faults(b)
    finally:
        b.kill()


def test_a_made_bid_s_toast_says_what_it_gained(tmp_path):
    b = st.new_board(tmp_path)
    try:
        two_player(b, "1 Basic")
        b.press("ok")
        st.choose(b, "Skip set-up")
        b.press("ok")
        st.choose(b, "P2")
        st.set_number(b, 30, 20)
        time_up_now(b)
        b.press("ok")
        st.set_number(b, 41, 30)
        b.advance(200)
        assert "P2 made 30: +30" in flat(b), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()

