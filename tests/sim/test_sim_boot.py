"""Boot behaviour of the simulated board: corrupt or torn journals give an
on-screen warning and never a crash, safe mode (BACK held at power-on)
leaves the REPL free, Ctrl-C from a PC saves the timer and stops the app,
and a restart resumes the game where it was."""

import sys
from pathlib import Path

import simtools as st
from moontable.sim.board_link import SimBoard

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import presses  # noqa: E402


def play_two_bids(b):
    """A 2-player Moonstar game, set-up skipped, P1 bids 20 and P2 21: the
    bench's driver answers what the screens ask (tests/sim is not where the
    Moonstar screens' flow is pinned down)."""
    d = presses.Driver(b, b.flash)
    d.answer(["New game", "Moonstar", (r"Players", 2), "1 Basic", "P1", "P2", ("ok",), "Choose setter", "P1"], 1)
    d.settle()
    for act, do in (("Skip set-up", []), ("Bid", ["P1", (r"", 20)]), ("Bid", ["P2", (r"", 21)])):
        want = d.events() + 1
        if not presses.in_menu(b):
            b.press("ok")
        d.answer([act] + do, want, optional=[act] + do)
    assert [(e.get("player"), e.get("amount")) for e in st.journal_events(b.flash)[-2:]] == [(0, 20), (1, 21)]


def game_file(flash):
    return sorted((Path(flash) / "data" / "games").glob("*.jsonl"))[-1]


def restart(tmp_path, **kw):
    return SimBoard(tmp_path / "flash", seed=7, do_deploy=False, **kw).start()


def test_torn_last_line_is_dropped_with_a_warning(tmp_path):
    b = st.new_board(tmp_path)
    play_two_bids(b)
    b.kill()
    f = game_file(tmp_path / "flash")
    data = f.read_bytes()
    f.write_bytes(data[:-7])  # the power died in the middle of the last line
    b = restart(tmp_path)
    b.advance(200)
    scr = st.screen(b)
    assert "Warning" in scr and "cut off" in scr.replace("\n", " "), scr
    b.press("ok")
    scr = st.screen(b)
    assert "BID" in scr and "PAUSED" in scr, scr  # the bidding minute, paused
    m = st.replay(tmp_path / "flash")
    assert m.state["bid"] == 20 and m.state["bidder"] == 0  # the torn second bid is gone
    st.no_faults(b)
    b.kill()


def test_corrupt_earlier_line_is_kept_and_reported(tmp_path):
    b = st.new_board(tmp_path)
    play_two_bids(b)
    b.kill()
    f = game_file(tmp_path / "flash")
    lines = f.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"', b"'", 1)  # damage the third line, not the last
    bad = b"\n".join(lines)
    f.write_bytes(bad)
    b = restart(tmp_path)
    b.advance(200)
    scr = st.screen(b).replace("\n", " ")
    assert "Warning" in scr and "damaged" in scr, scr
    assert f.read_bytes() == bad  # kept byte for byte for the PC
    b.press("ok")
    b.advance(100)
    st.no_faults(b)
    b.kill()


def test_garbage_journal_never_crashes(tmp_path):
    b = st.new_board(tmp_path)
    play_two_bids(b)
    b.kill()
    game_file(tmp_path / "flash").write_bytes(b"\x00\xff garbage\n{not json\n")
    b = restart(tmp_path)
    b.advance(200)
    assert "Warning" in st.screen(b)
    b.press("ok")
    assert "New game" in st.screen(b)
    st.no_faults(b)
    b.kill()


def test_restart_resumes_and_undo_still_works(tmp_path):
    b = st.new_board(tmp_path)
    play_two_bids(b)
    b.kill()
    b = restart(tmp_path)
    b.advance(200)
    assert "PAUSED" in st.screen(b)
    b.long_press("ok")  # resume the bidding minute (a short OK is the bid, as the hint says)
    assert "PAUSED" not in st.screen(b)
    b.long_press("back")  # undo the second bid across the restart
    assert st.replay(tmp_path / "flash").state["bid"] == 20
    st.no_faults(b)
    b.kill()


def test_safe_mode_skips_the_app_and_leaves_the_repl(tmp_path):
    b = SimBoard(tmp_path / "flash", seed=7, repl=True)
    b.start(hold=8, wait=False)
    try:
        b.read_serial_until(b">>> ")
        assert b"safe mode" in b.serial_out
        assert "SAFE MODE" in st.screen(b)
        b.send_serial(b"print(6 * 7)\r\n")
        b.read_serial_until(b"42")
    finally:
        b.kill()


def test_ctrl_c_saves_the_timer_and_stops(tmp_path):
    b = st.new_board(tmp_path)
    play_two_bids(b)
    b.advance(1500)
    b.interrupt()  # lands while the board waits at the end of a loop pass
    code = b.stop()
    assert "app stopped" in b.serial_text()
    assert "REPL" in st.screen(b)
    from shared_rules.wire_read import decode

    snap = decode((tmp_path / "flash" / "data" / "timer.json").read_bytes())["v"]
    assert 50000 <= snap["left_ms"] < 60000
    assert code == 0
