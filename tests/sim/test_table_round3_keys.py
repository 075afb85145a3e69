"""Issue 43 (what a group of players met at the table), on the simulator.

Item 1, fast taps in the terminal simulator. Each tap is one press,
however fast: keys read from the terminal go through the live runner's
key path (run.take_keys) into host/sim/keys.py, and the levels it makes
are played into the board at their times, exactly as the live loop hands
them out. The headless board's virtual clock gives the taps exact times;
one test plays them into the live board on the real clock, through its
keyboard.

Item 10: after a power cut Home offers the finished game it offered
before (tests/web/test_page_round3.py: after a reload of the web page),
and From paper offers the starting scores the rules accept, their bounds
asked of the rules core."""

import array
import fcntl
import os
import signal
import termios

import simtools as st
from moontable.sim.board_link import SimBoard
from moontable.sim.keys import KeyButtons
from moontable.sim.run import take_keys
from test_sim_live import start_live
from test_table_round2 import _stm_over, game_files

DOWN_ARROW = b"\x1b[B"


def play(board, reads):
    """Keyboard reads [(ms from now, bytes)] into the board as the live
    loop takes them: each read through take_keys at its time, every level
    change handed out at its own time (the loop sleeps until the next one
    is due), until every button is up again."""
    keys = KeyButtons()
    start = board.now

    def due_by(t):
        while True:
            nxt = keys.next_change()
            if nxt is None or (t is not None and nxt > t):
                return
            for when, mask in keys.changes(nxt):
                board.advance(when - board.now)
                board.set_buttons(mask)

    for at, data in reads:
        due_by(start + at)
        board.advance(start + at - board.now)
        assert take_keys(keys, data, board.now)
    due_by(None)
    board.advance(300)


def bid_time_picker(tmp_path):
    """A board at Settings' bid time entry (a number, 60 s by default)."""
    b = st.new_board(tmp_path)
    st.choose(b, "Settings")
    st.choose(b, "Bid time 60s")
    assert st.screen(b).startswith("Bid time"), st.screen(b)
    return b


def bid_time_after(b):
    """OK on the entry; the number it held, as the Settings menu shows it."""
    b.press("ok")
    return st.selected(b)


def test_nine_up_taps_120_ms_apart_move_a_number_by_nine(tmp_path):
    b = bid_time_picker(tmp_path)
    try:
        play(b, [(i * 120, b"u") for i in range(9)])
        assert bid_time_after(b) == "Bid time 69s"
        st.no_faults(b)
    finally:
        b.kill()


def test_ten_up_keys_in_one_burst_move_a_number_by_ten(tmp_path):
    b = bid_time_picker(tmp_path)
    try:
        play(b, [(0, b"u" * 10)])
        assert bid_time_after(b) == "Bid time 70s"
        st.no_faults(b)
    finally:
        b.kill()


def test_two_down_taps_at_home_land_where_slow_ones_do(tmp_path):
    b = st.new_board(tmp_path)
    try:
        assert st.selected(b) == "New game"
        play(b, [(0, DOWN_ARROW), (600, DOWN_ARROW)])
        slow = st.selected(b)
        play(b, [(0, b"uu")])  # back to the top, two keys in one read
        assert st.selected(b) == "New game"
        play(b, [(0, DOWN_ARROW), (120, DOWN_ARROW)])
        assert st.selected(b) == slow == "Sand timer"
        play(b, [(0, b"d"), (120, b"d")])
        assert st.selected(b) == "Games on flash"
        st.no_faults(b)
    finally:
        b.kill()


def unread(live):
    """Bytes the live runner sent its board that the board has not read."""
    n = array.array("i", [0])
    fcntl.ioctl(live.board.to_board, termios.FIONREAD, n)
    return n[0]


def test_fast_taps_count_on_the_live_board(tmp_path):
    """The live runner on the real clock, its keyboard a pipe: nine `u`
    taps in one burst (the 120 ms spacing is timed on the virtual clock
    above) on the bid time entry, each one press, even with the board's
    process stopped while the runner hands them out, as a busy machine may
    leave it: all eighteen level changes wait in its pipe together, and the
    board still takes each in a loop pass of its own (boards/sim.py pump)."""
    live, kw, t = start_live(tmp_path)
    try:
        assert st.wait_for(lambda: st.selected(live.board) == "New game"), st.screen(live.board)
        os.write(kw, b"ddd")
        assert st.wait_for(lambda: st.selected(live.board) == "Settings"), st.screen(live.board)
        os.write(kw, b"o")
        assert st.wait_for(lambda: st.selected(live.board) == "Bid time 60s"), st.screen(live.board)
        os.write(kw, b"o")
        assert st.wait_for(lambda: st.screen(live.board).startswith("Bid time")), st.screen(live.board)
        # the OK let go and read by the board before it stops: held over
        # the stop (its clock runs on), it would be a long press
        assert st.wait_for(lambda: live.keys.next_change() is None and unread(live) == 0)
        sent = live.masks_sent
        os.kill(live.board.proc.pid, signal.SIGSTOP)
        try:
            os.write(kw, b"u" * 9)
            # the keys read by the loop (an UP tap went up), and every tap played out
            assert st.wait_for(lambda: "up" in live.keys._released and live.keys.next_change() is None)
            assert live.masks_sent - sent == 18 and unread(live) == 2 * 18, (live.masks_sent - sent, unread(live))
        finally:
            os.kill(live.board.proc.pid, signal.SIGCONT)
        os.write(kw, b"o")
        assert st.wait_for(lambda: (st.selected(live.board) or "").startswith("Bid time ")), st.screen(live.board)
        assert st.selected(live.board) == "Bid time 69s", st.screen(live.board)
    finally:
        os.write(kw, b"q")
        t.join(10)
        live.close()
    assert not t.is_alive()


# -- issue 43, item 10: Home after a power cut, and From paper's bounds -------

def home_offers(b):
    """Home's items, as the screen lists them (the title first)."""
    scr = st.screen(b)
    assert scr.startswith("moontable\n"), scr
    return scr.split("\n")[1:]


def power_cycle(b, tmp_path):
    """The board's power cut and back: the same flash, a fresh boot."""
    b.kill()
    b = SimBoard(tmp_path / "flash", seed=7, do_deploy=False).start()
    b.advance(200)
    return b


def test_a_finished_game_is_offered_again_after_a_power_cut(tmp_path):
    b = st.new_board(tmp_path)
    try:
        _stm_over(b)
        b.press("back")
        before = home_offers(b)
        assert before[0] == "Finished game" and "Standings" in before, before
        b = power_cycle(b, tmp_path)
        # the way back to the game is offered as before; its standings are
        # a step further (the game's own screens), as once New game has
        # set it aside: it is read back from flash when chosen
        kept = [x for x in before if x != "Standings"]
        assert home_offers(b)[:len(kept)] == kept, st.screen(b)  # (one more row fits on the panel)
        st.choose(b, "Finished game")
        scr = st.screen(b)
        assert "Won: P2" in scr and "OK: Rematch" in scr, scr
        b.press("ok")  # the rematch works from the game read back
        assert "trick 1/5" in st.screen(b) and len(game_files(tmp_path / "flash")) == 2, st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_a_finished_game_set_aside_is_offered_alike_after_a_power_cut(tmp_path):
    b = st.new_board(tmp_path)
    try:
        _stm_over(b)
        b.press("back")
        st.choose(b, "New game")
        b.press("back")  # New game set the finished game aside; back at Home
        before = st.screen(b)
        assert before.startswith("moontable\nFinished game"), before
        b = power_cycle(b, tmp_path)
        assert st.screen(b) == before
        b.press("down")
        st.choose(b, "New game")  # a new game started: the finished one is only under Games on flash
        st.choose(b, "Shoot the Moon", exact=True)
        st.set_number(b, 3, 4)
        st.set_number(b, 3, 7)
        for _ in range(3):
            b.press("ok")
        assert "trick 1/5" in st.screen(b), st.screen(b)
        b = power_cycle(b, tmp_path)
        assert "trick 1/5" in st.screen(b), st.screen(b)  # the game in progress, resumed
        b.press("back")
        st.choose(b, "Home")
        assert home_offers(b)[0] == "Resume game", st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def paper_score_entry(b, game_label):
    """From paper: a 2-player Moonstar game `game_label`, seats P1 and P2,
    up to the first starting score's entry."""
    st.choose(b, "From paper")
    st.choose(b, "Moonstar")
    b.press("down")
    b.press("down")
    b.press("ok")  # 2 players
    st.choose(b, game_label)
    b.press("ok")
    b.press("ok")  # seats P1, P2
    assert st.screen(b).startswith("P1: score?"), st.screen(b)


def test_from_paper_offers_the_starting_scores_the_rules_accept(tmp_path):
    from shared_rules import get_game

    b = st.new_board(tmp_path)
    try:
        paper_score_entry(b, "1 Basic")
        lo, hi = get_game("moonstar").start_bounds({"game": 1})
        assert (lo, hi) == (0, 9999)
        assert st.screen_lines(b.emu)[-1] == "0 9999", st.screen(b)  # the entry's ends
        for _ in range(3):
            b.press("down")  # nothing below 0 to go to
        b.press("ok")
        assert st.screen(b).startswith("P2: score?"), st.screen(b)
        for _ in range(5):
            b.press("up")
        b.press("ok")
        assert st.journal_events(tmp_path / "flash") == []
        assert st.replay(tmp_path / "flash").state["start_scores"] == [0, 5]
        st.no_faults(b)
    finally:
        b.kill()
    b = st.new_board(tmp_path / "challenge")
    try:
        paper_score_entry(b, "10 Challenge")  # Game 10's challenges take a total below 0
        assert st.screen_lines(b.emu)[-1] == "-9999 9999", st.screen(b)
        assert get_game("moonstar").start_bounds({"game": 10}) == (-9999, 9999)
    finally:
        b.kill()


def test_every_games_start_bounds_are_what_new_accepts():
    """The bounds a device offers are the rules' own: new() takes a start
    at each end and refuses one past either."""
    from shared_rules import get_game
    from shared_rules.errors import RuleError

    cases = [("moonstar", ["a", "b"], {"game": 1}), ("moonstar", ["a", "b"], {"game": 10}),
             ("moonstar", ["a", "b"], {"game": 12}), ("moonstar", ["a", "b"], {"game": [6, 10]}), ("moonstar", ["a", "b"], {"game": [6, 11]}),
             ("shoot-the-moon", ["a", "b"], {"target": 100000}), ("moon", ["a", "b", "c"], {}),
             ("moons", ["a", "b"], {})]
    for name, players, opts in cases:
        rules = get_game(name)
        lo, hi = rules.start_bounds(opts)
        for ok in (lo, hi):
            rules.new(players, dict(opts, start=[ok, ok]) if len(players) == 2 else dict(opts, start=[ok, ok, ok]))
        for bad in (lo - 1, hi + 1):
            start = [bad] + [lo] * (len(players) - 1)
            try:
                rules.new(players, dict(opts, start=start))
            except RuleError:
                continue
            raise AssertionError("%s %r accepted a start of %d outside %d..%d" % (name, opts, bad, lo, hi))
