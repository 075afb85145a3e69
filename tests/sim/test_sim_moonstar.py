"""A complete short Moonstar game played through the buttons of the
simulated board: setter roll, device set-up, the bidding minute with
hold-to-accelerate bid entry, the playing minute, results, until a player
passes 200. The journal on flash must replay to what the screen showed."""

import simtools as st


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
        assert "sets up" in st.screen(b) or "roll again" in st.screen(b)
        st.wait_toast(b)
        for rnd in range(3):
            assert "Set-up" in st.screen(b), st.screen(b)
            b.press("ok")
            st.choose(b, "Device rolls" if rnd == 0 else "Skip set-up")
            if rnd == 0:
                assert "Situation" in st.screen(b)
                st.snap(b, "moonstar-situation")
                b.press("ok")
            scr = st.screen(b)
            assert "Bidding" in scr, scr
            if rnd == 0:
                st.snap(b, "moonstar-bidding")
            b.press("ok")  # the only legal action in Game 1: straight to the bid
            assert "Bidder" in st.screen(b)
            st.choose(b, "P1")
            assert "standing 0" in st.screen(b)
            b.hold("up", 3000)  # hold to accelerate: 20 -> 70 in three seconds
            if rnd == 0:
                st.snap(b, "moonstar-bid-entry")
            b.press("ok")
            assert st.journal_events(tmp_path / "flash")[-1] == {"type": "bid", "player": 0, "amount": 70}
            if rnd == 0:
                st.snap(b, "moonstar-standing-bid")
                b.advance(61000)  # the bidding minute runs out on its own
            else:
                b.press("back")
                st.choose(b, "Time up now")
            scr = st.screen(b)
            assert "Playing" in scr, scr
            if rnd == 0:
                st.snap(b, "moonstar-playing")
            b.press("ok")
            assert "bid 70" in st.screen(b)
            b.press("ok")  # points default to the bid
            assert "made 70" in st.screen(b)
            st.wait_toast(b)
        scr = st.screen(b)
        assert "Won: P1" in scr, scr
        st.snap(b, "moonstar-over")
        m = st.replay(tmp_path / "flash")
        assert m.state["scores"] == [210, 0] and m.winner() == 0
        kinds = [e["type"] for e in st.journal_events(tmp_path / "flash")]
        assert kinds.count("time_up") == 3 and kinds.count("result") == 3
        st.no_faults(b)
    finally:
        b.kill()
