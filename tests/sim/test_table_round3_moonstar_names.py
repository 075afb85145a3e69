"""At the table, third round (issue 43 item 8), Moonstar's names, through
the simulated board's buttons under the real MicroPython: a name is cut
only where it cannot fit (fitted to the room the screen has, never a
fixed number of letters), and the setter in the title is never a stub of
two letters."""

import re

import simtools as st
from test_table_round3_screens import lines, moonstar_game


def test_the_set_up_title_shows_no_two_letter_stub_of_the_setter(tmp_path):
    """"R1 Set-up" leaves two columns after "set:": "set:An" named nobody."""
    b = st.named_board(tmp_path, ["Ann", "Maximilian"])
    try:
        st.start_two_player_moonstar(b, "1 Basic", "Ann")
        top = lines(b)[0]
        assert top.startswith("R1 Set-up"), top
        m = re.search(r"set:(\S+)$", top)
        assert m is None or m.group(1) == "Ann" or len(m.group(1)) >= 3, top
        assert lines(b)[-1] == "Ann sets up", lines(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_a_ten_letter_bidder_is_named_in_full_where_the_line_has_room(tmp_path):
    """"Maximilian plays" is 16 columns: the whole name, not "Maximil"."""
    b = st.named_board(tmp_path, ["Maximilian", "Bob"])
    try:
        moonstar_game(b, "1 Basic", "Maximilian")
        b.press("ok")
        st.choose(b, "Maximilian")
        top = lines(b)[0]  # the bid's picker: the name fitted to the room the countdown leaves
        m = re.match(r"(\S+) bids", top)
        assert m and "Maximilian".startswith(m.group(1)), top
        room = 16 - len(" bids") - (len(top) - len(top.rstrip("0123456789")) + 1 if top[-1].isdigit() else 0)
        assert m.group(1) == "Maximilian"[:room], (top, room)
        b.hold("up", 10000)  # 70: bidding closes
        b.press("ok")
        b.press("ok")
        b.press("ok")  # the playing minute now
        b.advance(2000)
        assert lines(b)[-1] == "Maximilian plays", lines(b)
        st.no_faults(b)
    finally:
        b.kill()
