"""Complete short games of Shoot the Moon, Moon (dominoes) and Moons
played through the simulated board's buttons. Each checks the screen, the
journal on flash and a PC-side replay of it."""

import simtools as st


def new_game(b, label, players):
    st.choose(b, "New game")
    st.choose(b, label, exact=True)
    if players is not None:
        st.set_number(b, players, 4)


def enter(b, action):
    """OK on the game screen, then the action if a menu of several opens."""
    b.press("ok")
    if st.selected(b) is not None and "Enter" in st.screen(b).split("\n")[0]:
        st.choose(b, action)


def test_shoot_the_moon_full_game(tmp_path):
    b = st.new_board(tmp_path)
    try:
        new_game(b, "Shoot the Moon", 3)
        # individual play is the only choice for 3; chips to win: 3
        assert "Chips to win" in st.screen(b)
        st.set_number(b, 3, 7)
        for _ in range(3):
            b.press("ok")  # seats P1 P2 P3
        assert "trick 1/5" in st.screen(b)
        st.snap(b, "stm-chips")
        # trick 1: P2 wins with a BIG MOON (+1 chip at once)
        enter(b, "Trick won")
        st.choose(b, "P2")
        assert "BIG MOONs" in st.screen(b)
        st.set_number(b, 1, 0)
        assert "LITTLE" in st.screen(b)
        b.press("ok")
        assert st.replay(tmp_path / "flash").state["chips"] == [2, 3, 2]
        # illegal play by P3 is offered; undo it with a long BACK
        enter(b, "Illegal play")
        st.choose(b, "P3")
        assert st.journal_events(tmp_path / "flash")[-1] == {"type": "illegal", "player": 2}
        b.long_press("back")
        assert "Undone" in st.screen(b)
        st.wait_toast(b)
        assert st.replay(tmp_path / "flash").state["chips"] == [2, 3, 2]
        for _ in range(4):
            enter(b, "Trick won")
            st.choose(b, "P1")
            b.press("ok")  # no BIG MOON
            if "LITTLE" in st.screen(b):
                b.press("ok")
        st.wait_toast(b)
        # round: P1 4 tricks (nothing), P2 1 trick (+1) -> P2 4 chips >= 3
        scr = st.screen(b)
        assert "Won: P2" in scr, scr
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
        st.choose(b, "Moon dominoes")
        assert "Points to win" in st.screen(b)
        st.set_number(b, 5, 21)
        st.choose(b, "Seat 1")  # first bidder
        for _ in range(3):
            b.press("ok")
        assert "bidding" in st.screen(b)
        enter(b, "Bid")
        st.choose(b, "5")
        enter(b, "Pass")
        enter(b, "Pass")
        assert "trump" in st.screen(b)
        enter(b, "Name trump")
        st.choose(b, "Doubles")
        st.snap(b, "moon-hand")
        winners = ["P1", "P1", "P2", "P1", "P1", "P3", "P1"]
        for w in winners:
            enter(b, "Trick won")
            st.choose(b, w)
        m = st.replay(tmp_path / "flash")
        assert m.state["scores"] == [5, 1, 1] and m.winner() == 0
        st.wait_toast(b)
        assert "Won: P1" in st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_moons_full_game(tmp_path):
    b = st.new_board(tmp_path)
    try:
        new_game(b, "Moons", 2)
        st.choose(b, "Default")
        b.press("ok")
        b.press("ok")
        for rnd in range(2):
            for who, suits in (("P1", ("Jupiter", "Saturn", "Neptune")), ("P2", ("Saturn", "Neptune", "Uranus"))):
                enter(b, "Tableau")
                if "Tableau of" in st.screen(b):
                    st.choose(b, who)
                for s in suits:
                    st.choose(b, s)
            for w in ("P1", "P2", "P1"):
                enter(b, "Trick won")
                st.choose(b, w)
                if "Token taken" in st.screen(b):
                    st.choose(b, "Jupiter" if w == "P1" else "Uranus")
                st.choose(b, "Nobody")
            if rnd == 0:
                st.snap(b, "moons-tokens")
                # an Asteroid: one Neptune from the supply to P2, by hand
                enter(b, "Move tokens")
                st.choose(b, "Supply")
                st.choose(b, "P2")
                st.choose(b, "Neptune")
                b.press("ok")  # count 1
            enter(b, "End of round")
            if "takes" in st.screen(b):
                st.choose(b, "Saturn")
        m = st.replay(tmp_path / "flash")
        assert m.state["over"], m.state
        kinds = [e["type"] for e in st.journal_events(tmp_path / "flash")]
        assert kinds.count("tableau") == 4 and kinds.count("trick") == 6 and kinds.count("end") == 2 and "move" in kinds
        st.wait_toast(b)
        assert "Won: P%d" % (m.winner() + 1) in st.screen(b)
        st.snap(b, "moons-over")
        st.no_faults(b)
    finally:
        b.kill()
