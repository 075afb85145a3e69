"""At the table, second round (issue 21), through the simulated board's
buttons under the real MicroPython: a bid called in time survives the
time-up; a running game is never dropped without a word (Resume, the
abandon question, its undo, an unscored game not kept); the rematch is a
shown choice; the banners of Shoot the Moon; a partnership's win; the
pause mark, and OK in a paused minute; Games on flash as players know
them; a ten-second hold on every number entry."""

import re
import sys
from pathlib import Path

import simtools as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import presses  # noqa: E402


def timer_left(flash):
    from shared_rules.wire_read import decode

    return decode((Path(flash) / "data" / "timer.json").read_bytes(), need_crc=True)["v"]["left_ms"]


def moonstar_bidding(tmp_path):
    """A 4-player Moonstar game (Game 1) in the bidding minute, P2 standing at 30."""
    b = st.new_board(tmp_path)
    d = presses.Driver(b, tmp_path / "flash")
    d.answer(presses.FACTS["moonstar"]["start"], 1)
    for step in presses.FACTS["moonstar"]["round"][:2]:
        d.settle()
        want = d.events() + 1
        if not presses.in_menu(b):
            b.press("ok")
        d.answer([step["act"]] + step["do"], want, optional=[step["act"]] + step["do"])
    st.wait_toast(b)
    return b


def game_files(flash):
    return sorted((Path(flash) / "data" / "games").glob("*.jsonl"))


def header(path):
    from shared_rules.wire_read import decode

    return decode(path.read_bytes().splitlines()[0])


def text(b):
    """The panel's text, without the stray "p p" the reader finds between
    the banner's lines (descenders over the next line's ascenders)."""
    return "\n".join([x for x in st.screen_lines(b.emu) if x.replace("p", "").strip()])


def flat(b):
    return " ".join(st.screen(b).split("\n"))


def trick(b, name, moons="no moons"):
    st.point_at(b, name)
    b.press("ok")
    st.choose(b, moons, exact=True)


# -- 2. a bid called in time --------------------------------------------------
def test_a_bid_called_before_the_time_is_up_counts(tmp_path):
    b = moonstar_bidding(tmp_path)
    flash = tmp_path / "flash"
    try:
        b.advance(timer_left(flash) - 4000)  # 4 s left
        b.press("ok")
        assert st.screen(b).startswith("Who bids?"), st.screen(b)
        st.choose(b, "P3")
        b.advance(6000)  # the sand runs out while the amount is being entered
        top = st.screen(b).split("\n")[0]
        assert top.startswith("P3 bids") and "TIME UP" in top, st.screen(b)  # and says so
        assert st.journal_events(flash)[-1]["type"] == "bid"  # no time-up yet
        b.press("ok")  # the amount called in time
        evs = st.journal_events(flash)
        assert [e["type"] for e in evs[-2:]] == ["bid", "time_up"], evs[-2:]
        assert (evs[-2]["player"], evs[-2]["amount"]) == (2, 35), evs[-2]
        s = st.replay(flash).state
        assert s["bidder"] == 2 and s["bid"] == 35 and s["phase"] == "playing", s
        assert "phase" not in flat(b) and "Play" in st.screen(b), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_an_entry_let_go_after_the_time_is_up_lets_the_time_up_in(tmp_path):
    b = moonstar_bidding(tmp_path)
    flash = tmp_path / "flash"
    try:
        b.advance(timer_left(flash) - 3000)
        b.press("ok")
        st.choose(b, "P3")
        b.advance(5000)
        assert st.journal_events(flash)[-1]["type"] == "bid"
        b.press("back")  # the amount: back to who bids
        b.press("back")  # and out: the time-up goes in now
        evs = st.journal_events(flash)
        assert evs[-1]["type"] == "time_up" and evs[-2]["player"] == 1, evs[-2:]
        s = st.replay(flash).state
        assert s["bidder"] == 1 and s["bid"] == 30 and s["phase"] == "playing", s
        st.no_faults(b)
    finally:
        b.kill()


def test_an_out_of_phase_refusal_names_no_phase_id():
    from shared_rules.errors import RuleError
    from shared_rules.match import Match

    m = Match("moonstar", ["A", "B", "C"], {"game": 1})
    m.apply({"type": "choose_setter", "player": 0})
    try:
        m.rules.apply(m.state, {"type": "bid", "player": 1, "amount": 30})
    except RuleError as e:
        msg = str(e)
    else:
        raise AssertionError("a bid in the set-up was taken")
    assert msg == "no bid now: this is the set-up (now: set-up)", msg
    assert "phase" not in msg and "legal now" not in msg


# -- 3. a running game is never dropped without a word -----------------------------
def test_home_resumes_and_a_new_game_asks_before_abandoning_and_can_be_undone(tmp_path):
    b = moonstar_bidding(tmp_path)
    flash = tmp_path / "flash"
    try:
        b.press("back")
        st.choose(b, "Home")
        assert st.screen_lines(b.emu)[1] == "Resume game", st.screen(b)
        st.choose(b, "New game")
        assert "Abandon Moonstar, round 1? It will not count." in flat(b), st.screen(b)
        b.press("back")  # no: Home, the game still open
        assert st.screen_lines(b.emu)[1] == "Resume game", st.screen(b)
        st.choose(b, "New game")
        b.press("ok")  # yes
        assert "Undo abandon" in flat(b), st.screen(b)  # the toast says how to take it back
        st.wait_toast(b)
        b.press("back")  # out of the new game's menus
        assert st.screen_lines(b.emu)[1] == "Undo abandon", st.screen(b)
        st.choose(b, "Undo abandon")
        scr = st.screen(b)
        assert "R1 Bids" in scr and "PAUSED" in scr, scr  # back as it was, its minute paused
        assert st.replay(flash).state["bid"] == 30
        assert len(game_files(flash)) == 1
        # abandoned for good: the new game starts, and the old one, with no
        # round scored, is not kept as a game
        b.press("back")
        st.choose(b, "Home")
        st.choose(b, "New game")
        b.press("ok")
        st.wait_toast(b)
        st.choose(b, "Shoot the Moon", exact=True)
        st.set_number(b, 3, 4)
        st.set_number(b, 3, 7)
        for _ in range(3):
            b.press("ok")
        assert "trick 1/5" in st.screen(b), st.screen(b)
        files = game_files(flash)
        assert [header(f)["game"] for f in files] == ["shoot-the-moon"], files
        b.press("back")
        st.choose(b, "Home")
        assert "Undo abandon" not in flat(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_an_abandoned_game_with_a_scored_round_is_kept(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        st.start_shoot_the_moon_for(b, 3, 7)
        for _ in range(5):
            trick(b, "P2")
        st.wait_toast(b)
        st.wait_toast(b)
        assert st.replay(flash).state["round"] == 1
        b.press("back")
        st.choose(b, "Home")
        st.choose(b, "New game")
        assert "Abandon Shoot the Moon, round 2?" in flat(b), st.screen(b)
        b.press("ok")
        st.wait_toast(b)
        st.choose(b, "Moons", exact=True)
        st.set_number(b, 2, 4)
        st.choose(b, "House 1/2/3/10")
        b.press("ok")
        b.press("ok")
        files = game_files(flash)
        assert [header(f)["game"] for f in files] == ["shoot-the-moon", "moons"], files
        st.no_faults(b)
    finally:
        b.kill()


# -- 4. rematch only as a shown choice; an unscored game is not kept -------------
def _stm_over(b):
    """P2 wins a 3-player game to 3 chips with a BIG MOON and one trick."""
    st.start_shoot_the_moon_for(b, 3, 3)
    trick(b, "P2", "1 BIG")
    st.wait_toast(b)
    for _ in range(4):
        trick(b, "P1")
    assert "P2 wins!" in st.screen(b), st.screen(b)
    st.wait_toast(b)
    st.wait_toast(b)


def test_game_over_shows_rematch_and_home_and_a_stray_rematch_is_not_kept(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        _stm_over(b)
        lines = st.screen_lines(b.emu)
        assert lines[0] == "Won: P2" and lines[-2:] == ["BACK: Home", "OK: Rematch"], lines
        b.press("back")
        assert st.screen(b).startswith("moontable\nFinished game"), st.screen(b)
        st.choose(b, "Finished game")
        b.press("ok")  # the rematch, as shown
        assert "trick 1/5" in st.screen(b) and len(game_files(flash)) == 2
        # left before a round is scored: not kept once another game starts
        b.press("back")
        st.choose(b, "Home")
        st.choose(b, "New game")
        b.press("ok")  # abandon the rematch
        st.wait_toast(b)
        st.choose(b, "Shoot the Moon", exact=True)
        st.set_number(b, 3, 4)
        st.set_number(b, 5, 7)
        for _ in range(3):
            b.press("ok")
        files = game_files(flash)
        assert len(files) == 2 and header(files[0])["players"] == ["P1", "P2", "P3"], files
        assert header(files[1])["options"]["target"] == 5  # the rematch (target 3) is gone
        st.no_faults(b)
    finally:
        b.kill()


# -- 5. Shoot the Moon's banners; 6. a partnership's win ----------------------------
def test_shot_the_moon_is_all_five_tricks_and_a_big_moon_says_its_chip(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.start_shoot_the_moon_for(b, 3, 7)
        trick(b, "P1", "1 BIG")
        scr = st.screen(b)
        assert "BIG MOON:\n+1 chip\nP1" in scr and "Shot" not in scr, scr
        st.wait_toast(b)
        for _ in range(3):
            trick(b, "P1")
            assert "Shot" not in st.screen(b), st.screen(b)
        trick(b, "P1")  # all five
        assert "Shot the moon!\n+2 chips\nP1" in text(b), text(b)
        assert st.replay(tmp_path / "flash").state["chips"] == [5, 2, 2]
        st.no_faults(b)
    finally:
        b.kill()


def test_a_partnership_win_names_the_team(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.start_shoot_the_moon_for(b, 4, 3, teams="2 teams of 2")
        for _ in range(5):
            trick(b, "P2")
        assert "Shot the moon!\n+2 chips\nP2/P4" in text(b), text(b)
        st.wait_toast(b)
        assert "P2 & P4 win!" in st.screen(b), st.screen(b)
        st.wait_toast(b)
        st.wait_toast(b)
        assert st.screen_lines(b.emu)[0] == "Won: P2 & P4", st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


# -- 7. the pause mark; 8. OK in a paused minute ---------------------------------------
def test_a_paused_minute_shows_a_pause_mark_and_ok_does_what_the_hint_says(tmp_path):
    b = moonstar_bidding(tmp_path)
    flash = tmp_path / "flash"
    try:
        b.long_press("ok")  # pause
        lines = st.screen_lines(b.emu)
        assert "PAUSED" in lines and lines[-1].startswith("OK:bid hold:run"), lines
        left = timer_left(flash)
        b.press("ok")  # the bid, as the hint says: not a resume
        top = st.screen_lines(b.emu)[0]
        secs = re.search(r" (\d+)$", top)
        assert top.startswith("Who bids?") and secs, top
        assert not re.search(r"P\d+$", top), top  # no "P55", which reads like a seat
        px = b.emu.pixels  # the pause mark: two bars left of the time
        x = 128 - (8 * len(secs.group(1)) + 7) + 1
        assert all(px[y][x] and px[y][x + 3] and not px[y][x + 2] for y in range(2, 8)), top
        b.advance(3000)
        assert timer_left(flash) == left  # still paused
        b.press("back")
        b.long_press("ok")  # resumes
        b.advance(3000)
        assert timer_left(flash) < left - 2000
        scr = st.screen(b)
        assert "PAUSED" not in scr and "OK:bid BACK:men" in scr, scr
        st.no_faults(b)
    finally:
        b.kill()


# -- 9. Games on flash -----------------------------------------------------------------
def test_games_on_flash_lists_games_as_players_know_them(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        _stm_over(b)
        b.press("back")
        st.choose(b, "Games on flash")
        lines = st.screen_lines(b.emu)
        assert lines[:2] == ["Games", "Shoot #1!"], lines  # no clock set: its number; "!" not on a PC
        assert not re.search(r"\d{5}-", flat(b)), lines  # never an internal id
        b.press("ok")  # opens it
        lines = st.screen_lines(b.emu)
        assert lines[0] == "Shoot the Moon", lines
        assert ["P1, P2, P3", "Won: P2", "NOT on a PC yet"] == [x for x in lines if x in ("P1, P2, P3", "Won: P2", "NOT on a PC yet")], lines
        assert len(game_files(flash)) == 1
        b.press("ok")  # its menu: Delete is a choice, with a confirmation
        st.choose(b, "Delete")
        assert "NOT SYNCED" in st.screen(b), st.screen(b)
        b.press("back")  # no
        assert len(game_files(flash)) == 1
        st.choose(b, "Delete")
        b.press("ok")
        assert game_files(flash) == []
        st.wait_toast(b)
        assert "(nothing)" in st.screen(b), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_a_game_s_day_from_the_epoch():
    import datetime

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "firmware"))
    from ui.menus.games import day

    for t in (0, 951782400, 1764000000, 1793145599, 4107542400 + 86399):
        d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
        assert day(t) == (d.month, d.day, d.hour, d.minute), t


# -- 1. a ten-second hold on every number entry ------------------------------------------
def test_a_ten_second_hold_on_every_number_entry(tmp_path):
    """The web page crashed ("pystack exhausted") and froze on a long hold;
    on the board, every number entry takes a 10-s hold either way and goes
    on answering: a setting, the player count, the scores from paper, the
    bid's amount, the points, the sand timer."""
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        st.choose(b, "Settings")
        st.choose(b, "Bid time")
        b.hold("up", 10000)
        b.press("ok")
        assert "Bid time 600s" in st.screen(b), st.screen(b)
        st.choose(b, "Bid time")
        b.hold("down", 10000)
        b.press("ok")
        assert "Bid time 10s" in st.screen(b), st.screen(b)
        st.choose(b, "Bid time")
        st.set_number(b, 60, 10)
        b.press("back")
        st.choose(b, "Sand timer")
        b.hold("up", 10000)
        b.hold("down", 10000)
        b.press("back")
        st.choose(b, "From paper")
        st.choose(b, "Moonstar")
        b.hold("up", 10000)  # 2..8 players
        b.hold("down", 10000)
        st.set_number(b, 3, 2)
        st.choose(b, "1 Basic")
        for _ in range(3):
            b.press("ok")
        for _ in range(3):
            b.hold("down", 10000)
            b.hold("up", 10000)
            b.press("ok")
        lines = st.screen_lines(b.emu)
        # Moonstar's starts are 0..9999 (rules: start_bounds); a 10 s hold from 0 reaches 2625
        assert lines[1:4] == ["P1 2625", "P2 2625", "P3 2625"], lines
        assert header(game_files(flash)[-1])["options"]["start"] == [2625, 2625, 2625]
        b.press("ok")
        st.choose(b, "Choose setter")
        st.choose(b, "P1")
        b.press("ok")
        st.choose(b, "Skip set-up")
        b.long_press("ok")  # the minute paused, so it outlasts the holds
        b.press("ok")
        st.choose(b, "P2")
        b.hold("down", 10000)
        b.hold("up", 10000)
        b.press("ok")
        evs = st.journal_events(flash)
        assert (evs[-1]["type"], evs[-1]["amount"]) == ("bid", 70), evs[-1]
        b.press("ok")  # bidding closed by 70: the playing minute
        b.press("ok")
        assert "Play" in st.screen(b), st.screen(b)
        b.long_press("ok")
        b.press("ok")  # the points
        b.hold("up", 10000)
        b.hold("down", 10000)
        b.hold("up", 10000)
        b.press("ok")
        evs = st.journal_events(flash)
        assert evs[-1]["type"] == "result", evs[-1]
        st.no_faults(b)
    finally:
        b.kill()


def test_abandoning_moon_names_its_hand_as_its_game_screen_does(tmp_path):
    """Found playing an evening: Moon's screens say "Hand 1", and the
    abandon question said "round 1"."""
    b = st.new_board(tmp_path)
    try:
        st.choose(b, "New game")
        st.choose(b, "Moon (dominoes)", exact=True)
        st.set_number(b, 5, 21)
        st.choose(b, "Seat 1")  # first bidder
        for _ in range(3):
            b.press("ok")
        assert "Hand 1" in st.screen(b), st.screen(b)
        b.press("back")
        st.choose(b, "Home")
        st.choose(b, "New game")
        assert "Abandon Moon (dominoes), hand 1? It will not count." in flat(b), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()
