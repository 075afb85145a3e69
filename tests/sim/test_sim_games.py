"""Complete short games of Shoot the Moon, Moon (dominoes) and Moons
played through the simulated board's buttons. Each checks the screen, the
journal on flash and a PC-side replay of it."""

import simtools as st


def new_game(b, label, players):
    st.choose(b, "New game")
    st.choose(b, label, exact=True)
    if players is not None:
        st.set_number(b, players, 4)


def test_shoot_the_moon_full_game(tmp_path):
    b = st.new_board(tmp_path)
    try:
        new_game(b, "Shoot the Moon", 3)
        # individual play is the only choice for 3; chips to win: 3
        assert "Chips to win" in st.screen(b)
        st.set_number(b, 3, 7)
        for _ in range(3):
            b.press("ok")  # seats P1 P2 P3
        scr = st.screen(b)
        # whose turn, from the rules' turn(): the dealer and who leads
        assert "R1 trick 1/5" in scr and "P2 leads deal P1" in scr, scr
        # the screen points at the one who leads
        assert st.hint(b) == "OK: P2 won", scr
        st.snap(b, "stm-chips")
        # trick 1: P2 wins with a BIG MOON (+1 chip at once): a banner says so
        b.press("ok")
        assert "P2 won: moons?" in st.screen(b)
        st.choose(b, "1 BIG", exact=True)
        assert "BIG MOON:\n+1 chip\nP2" in st.screen(b) and "Shot" not in st.screen(b), st.screen(b)
        st.wait_toast(b)
        assert st.replay(tmp_path / "flash").state["chips"] == [2, 3, 2]
        # illegal play by P3, from the game menu; undo it with a long BACK:
        # the toast names what was undone
        b.press("back")
        st.choose(b, "Illegal play")
        assert "Who played it?" in st.screen(b)
        st.choose(b, "P3")
        last = st.journal_events(tmp_path / "flash")[-1]
        assert (last["type"], last["player"]) == ("illegal", 2), last
        b.long_press("back")
        assert "Undone: P3\nillegal" in st.screen(b), st.screen(b)
        st.wait_toast(b)
        assert st.replay(tmp_path / "flash").state["chips"] == [2, 3, 2]
        for _ in range(4):
            st.point_at(b, "P1")
            b.press("ok")
            st.choose(b, "no moons")
        # round: P1 4 tricks (nothing), P2 1 trick (+1) -> P2 4 chips >= 3
        scr = st.screen(b)
        assert "P2 wins!" in scr, scr
        st.wait_toast(b)
        st.wait_toast(b)
        scr = st.screen(b)
        assert "Won: P2" in scr and "OK: Rematch" in scr and "BACK: Home" in scr, scr
        m = st.replay(tmp_path / "flash")
        assert m.winner() == 1 and m.state["chips"] == [2, 4, 2]
        st.snap(b, "stm-over")
        st.no_faults(b)
    finally:
        b.kill()


def test_moon_dominoes_full_game(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.choose(b, "New game")
        st.choose(b, "Moon (dominoes)", exact=True)
        assert "Points to win" in st.screen(b)
        st.set_number(b, 5, 21)
        st.choose(b, "Seat 1")  # first bidder
        for _ in range(3):
            b.press("ok")
        scr = st.screen(b)
        assert "bidding" in scr and "P1 to bid" in scr, scr
        b.press("ok")
        assert "P1: bid or pass?" in st.screen(b)
        st.choose(b, "5", exact=True)
        for who in ("P2", "P3"):
            b.press("ok")
            assert "%s: bid or pass?" % who in st.screen(b)
            st.choose(b, "Pass")
        assert "P1 trump" in st.screen(b)
        b.press("ok")
        assert "P1: trump/swap?" in st.screen(b)
        st.choose(b, "Name trump")
        assert "P1: trump?" in st.screen(b)
        st.choose(b, "Doubles")
        st.snap(b, "moon-hand")
        winners = ["P1", "P1", "P2", "P1", "P1", "P3", "P1"]
        for w in winners:
            st.point_at(b, w)
            b.press("ok")
        m = st.replay(tmp_path / "flash")
        assert m.state["scores"] == [5, 1, 1] and m.winner() == 0
        assert "Hand: P1 +5" in st.screen(b)  # the hand's toast first, then the winner's banner
        st.wait_toast(b)
        assert "P1 wins!" in st.screen(b)
        st.wait_toast(b)
        assert "Won: P1" in st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_moons_full_game(tmp_path):
    b = st.new_board(tmp_path)
    try:
        new_game(b, "Moons", 2)
        scr = st.screen(b)
        assert "House 1/2/3/10" in scr and "box" not in scr, scr  # the rulings' table, not the card's, not cut off
        st.choose(b, "1/2/3/10")
        b.press("ok")
        b.press("ok")
        # BACK leaves the tableau entry the game opened with; OK opens it again
        assert "P1 card 1?" in st.screen(b), st.screen(b)
        b.press("back")
        assert st.hint(b) == "OK: P1 tableau", st.screen(b)
        b.press("ok")
        for rnd in range(2):
            # a round opens with the first tableau's entry; the next follows at once
            for who, suits in (("P1", ("Jupiter", "Saturn", "Neptune")), ("P2", ("Saturn", "Neptune", "Uranus"))):
                for i, s in enumerate(suits):
                    assert "%s card %d?" % (who, i + 1) in st.screen(b), st.screen(b)
                    st.choose(b, s)
            for w in ("P1", "P2", "P1"):
                st.point_at(b, w)
                b.press("ok")
                if "takes?" in st.screen(b):
                    st.choose(b, "Jupiter" if w == "P1" else "Uranus", exact=True)
            if rnd == 0:
                scr = st.screen(b)
                # tokens as planet initials with counts, a legend, the supply alike
                assert "J2" in scr and "U1" in scr, scr
                assert "supply\nJ15 S17 N17 U16" in scr, scr  # two Jupiters and a Uranus taken
                assert "1st P1" in scr, scr
                st.snap(b, "moons-tokens")
                # undo the last trick from the game menu, and enter it again
                b.press("back")
                st.choose(b, "Undo last")
                assert "Undone: P1 won\ntrick" in st.screen(b), st.screen(b)
                st.wait_toast(b)
                st.point_at(b, "P1")
                b.press("ok")
                st.choose(b, "Jupiter", exact=True)
                # an Asteroid: one Neptune from the supply to P2, by hand
                b.press("back")
                st.choose(b, "Move tokens")
                st.choose(b, "Supply")
                st.choose(b, "P2")
                st.choose(b, "Neptune")
                b.press("ok")  # count 1
            b.press("back")
            st.choose(b, "End of round")
            if "takes?" in st.screen(b):
                st.choose(b, "Saturn")
            st.wait_toast(b)
        m = st.replay(tmp_path / "flash")
        assert m.state["over"], m.state
        kinds = [e["type"] for e in st.journal_events(tmp_path / "flash")]
        assert kinds.count("tableau") == 4 and kinds.count("trick") == 7 and kinds.count("undo") == 1  # one trick undone, entered again
        assert kinds.count("end") == 2 and "move" in kinds
        assert "Won: P%d" % (m.winner() + 1) in st.screen(b)
        st.snap(b, "moons-over")
        st.no_faults(b)
    finally:
        b.kill()
