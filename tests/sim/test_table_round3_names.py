"""At the table, third round (issue 43 item 8), names in Moon and Shoot the
Moon, through the simulated board's buttons under the real MicroPython: a
name is cut only when it cannot fit, never so that the words after it are
cut ("moons?" to "moon", "OK" to "O"), nor to a single letter; and a
partnership's BIG MOON names the team the chip goes to."""

import simtools as st


def lines(b):
    return st.screen_lines(b.emu)


def moon_game(b):
    """A new Moon (dominoes) game to 21, seat 1 bids first, seats from the
    roster: the bidding."""
    st.choose(b, "New game")
    st.choose(b, "Moon (dominoes)", exact=True)
    b.press("ok")  # 21 points
    st.choose(b, "Seat 1")
    for _ in range(3):
        b.press("ok")


# -- 1. Shoot the Moon: the trick's moons question ------------------------------
def test_stm_moons_question_keeps_its_words_whole(tmp_path):
    """Was "Dmitri won: moon" and "Chloe won: moons" (a name cut to 7,
    then the title cut at 16)."""
    b = st.named_board(tmp_path, ["Dmitri", "Chloe", "Ann"])
    try:
        st.start_shoot_the_moon_for(b, 3, 7)
        for name, title in (("Dmitri", "Dmitri: moons?"), ("Chloe", "Chloe won:moons?"), ("Ann", "Ann won: moons?")):
            st.point_at(b, name)
            b.press("ok")
            assert lines(b)[0] == title, lines(b)
            st.choose(b, "no moons", exact=True)
        st.no_faults(b)
    finally:
        b.kill()


# -- 2. Moon: the bidding's titles and hints ------------------------------------
def test_moon_bidding_titles_and_hints_keep_their_words_whole(tmp_path):
    """Were "Chloe: bid or pa", "Maximil: bid or", "Maximi to bid: O" and
    "Chloe: trump/swa"."""
    b = st.named_board(tmp_path, ["Chloe", "Maximilian", "Dmitri"])
    try:
        moon_game(b)
        assert lines(b)[-1] == "Chloe to bid: OK", lines(b)
        b.press("ok")
        assert lines(b)[0] == "Chloe: bid/pass?", lines(b)
        st.choose(b, "5", exact=True)
        assert lines(b)[-1] == "Maxim to bid: OK", lines(b)
        b.press("ok")
        assert lines(b)[0] == "Maxim: bid/pass?", lines(b)
        st.choose(b, "Pass")
        b.press("ok")
        assert lines(b)[0] == "Dmitr: bid/pass?", lines(b)
        st.choose(b, "Pass")
        assert lines(b)[-1] == "Chloe trump: OK", lines(b)
        b.press("ok")
        assert lines(b)[0] == "Chloe: trump?", lines(b)
        st.choose(b, "Name trump")
        assert lines(b)[0] == "Chloe: trump?", lines(b)
        st.choose(b, "Doubles")
        assert lines(b)[0] == "Hand 1 lead Chlo", lines(b)
        st.no_faults(b)
    finally:
        b.kill()


# -- 3. Moon: the rows ----------------------------------------------------------
def test_moon_rows_show_a_name_whole_where_it_fits(tmp_path):
    """Was "Maximili 0": every name cut to 8 though "Maximilian 0" fits."""
    b = st.named_board(tmp_path, ["Chloe", "Maximilian", "Dmitri"])
    try:
        moon_game(b)
        rows = [x.strip() for x in lines(b)[1:4]]
        assert rows == [">Chloe 0", "Maximilian 0", "Dmitri 0"], lines(b)
        # beside a bid, where the bid's column leaves 7: cut there only
        b.press("ok")
        st.choose(b, "Pass")
        b.press("ok")
        st.choose(b, "5", exact=True)
        rows = [x.strip() for x in lines(b)[1:4]]
        assert rows == ["Chloe pass 0", "*Maximil 5 0", ">Dmitri 0"], lines(b)
        st.no_faults(b)
    finally:
        b.kill()


# -- 4. Shoot the Moon: who leads and who dealt ---------------------------------
def test_stm_lead_line_never_cuts_a_name_to_a_letter(tmp_path):
    """Was "Ann leads deal D": the dealer in the one column left."""
    b = st.named_board(tmp_path, ["Dmitri", "Ann", "Chloe"])
    try:
        st.start_shoot_the_moon_for(b, 3, 7)
        row = [x for x in lines(b) if "leads" in x]
        assert row == ["Ann leads D:Dmit"], lines(b)  # P1 deals, P2 leads
        st.point_at(b, "Chloe")
        b.press("ok")
        st.choose(b, "no moons", exact=True)
        row = [x for x in lines(b) if "leads" in x]
        assert row == ["Chl leads D:Dmi"], lines(b)
        st.no_faults(b)
    finally:
        b.kill()


# -- 5. Shoot the Moon: a partnership's BIG MOON --------------------------------
def test_stm_big_moon_banner_names_the_team(tmp_path):
    """Was "BIG MOON: +1 chip / Ann": the chip is the team's."""
    b = st.named_board(tmp_path, ["Ann", "Chloe", "Dmitri", "Maximilian"])
    try:
        st.start_shoot_the_moon_for(b, 4, 7, "2 teams of 2")
        st.point_at(b, "Ann")
        b.press("ok")
        st.choose(b, "1 BIG", exact=True)
        shown = " ".join([x for x in lines(b) if x.replace("p", "").strip()])
        assert shown == "BIG MOON: +1 chip Ann/Dmitri", shown
        st.no_faults(b)
    finally:
        b.kill()
