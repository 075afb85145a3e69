"""At the table, third round (issue 43), the screens, through the
simulated board's buttons under the real MicroPython: the target a game
is played to, in its standings (6); names cut only where they cannot fit,
never run into the next word, and every winner named (8); the pointer on
a Shoot the Moon partnership's row (9); and the docs saying what the
device shows (12)."""

import re
from pathlib import Path

import simtools as st

ROOT = Path(__file__).resolve().parents[2]


def lines(b):
    return st.screen_lines(b.emu)


def glyph_row(b, y):
    """(x, character) of every glyph whose top row is pixel row y, left to
    right: where each word starts and ends on the panel (the text reader
    puts a space in any gap over a column, but two pixels between a name
    and the next word read as one word at the table)."""
    normal, inverted = st._glyph_bytes()
    px = b.emu.pixels
    out = []
    last = None
    for x in range(121):
        rows = bytes(sum(px[y + i][x + k] << (7 - k) for k in range(8)) for i in range(8))
        c = normal.get(rows) or inverted.get(rows)
        if c is not None and (last is None or x - last >= 8):
            out.append((x, c))
            last = x
    return out


def words(cells):
    """The words of a glyph row, split where a whole character's cell (or
    more) is left blank between two glyphs."""
    out = []
    end = None
    for x, c in cells:
        if end is None or x - end >= 16:
            out.append("")
        out[-1] += c
        end = x
    return out


def moonstar_game(b, label, setter="P1"):
    """A new 2-player Moonstar game of `label`, seats from the roster, the
    first setter named; then the set-up skipped: the bidding minute."""
    st.start_two_player_moonstar(b, label, setter)
    b.press("ok")
    st.choose(b, "Skip set-up")


def standings(b):
    """The game menu's Standings, from the game screen: its text."""
    b.press("back")
    st.choose(b, "Standings")
    return lines(b)


def new_game_over(b):
    """From the standings of a game with no round scored, Home, then a new
    game: the old one abandoned."""
    b.press("back")  # the game screen
    b.press("back")
    st.choose(b, "Home")
    st.choose(b, "New game")
    b.press("ok")  # abandon it
    st.wait_toast(b)


# -- 6. the target, from the rules ------------------------------------------------
def test_the_standings_say_what_the_game_is_played_to(tmp_path):
    """Moonstar Game 8 plays to 50 and Game 7 to 100 (the rules' state
    "target", set when the game starts); a Shoot the Moon game to its chips."""
    b = st.new_board(tmp_path)
    try:
        st.start_two_player_moonstar(b, "8 Adv. score", "P1")
        rows = standings(b)
        assert rows[0] == "Standings R1" and rows[-1] == "Playing to 50", rows
        assert st.replay(tmp_path / "flash").state["target"] == 50
        new_game_over(b)
        st.choose(b, "Moonstar", exact=True)
        b.press("down")
        b.press("down")
        b.press("ok")
        st.choose(b, "7 No planets")
        for _ in range(3):
            b.press("ok")
        b.press("back")  # who sets up: not yet
        assert standings(b)[-1] == "Playing to 100", lines(b)
        new_game_over(b)
        st.choose(b, "Shoot the Moon", exact=True)
        st.set_number(b, 3, 4)
        st.set_number(b, 5, 7)
        for _ in range(3):
            b.press("ok")
        assert standings(b)[-1] == "Playing to 5", lines(b)
        st.no_faults(b)
    finally:
        b.kill()


# -- 8. names cut only where they cannot fit; every winner named ------------------
def test_the_points_entry_names_the_bidder_in_full_when_the_title_has_room(tmp_path):
    b = st.named_board(tmp_path, ["Alice", "Bob"])
    try:
        moonstar_game(b, "1 Basic", "Alice")
        b.press("ok")
        st.choose(b, "Alice")
        b.hold("up", 10000)  # 70: bidding closes
        b.press("ok")
        b.press("ok")
        b.press("ok")  # the playing minute now
        b.advance(5000)
        b.press("ok")  # the points: the countdown ("54") leaves 13 characters
        top = lines(b)[0]
        assert re.match(r"Alice scored\? \d\d$", top), top
        st.no_faults(b)
    finally:
        b.kill()


def test_a_partnership_s_win_names_both_partners_in_full(tmp_path):
    b = st.named_board(tmp_path, ["Alice", "Bob", "Chloe", "Dan"])
    try:
        st.start_shoot_the_moon_for(b, 4, 3, "2 teams of 2")
        for _ in range(5):
            st.point_at(b, "Chloe")
            b.press("ok")
            st.choose(b, "no moons", exact=True)
        st.wait_toast(b)
        st.wait_toast(b)
        st.wait_toast(b)
        assert lines(b)[0] == "Won: Alice&Chloe", lines(b)  # "Won: Alice & Chl" cut Chloe
        b.press("back")
        st.choose(b, "Standings")
        assert lines(b)[-1] == "Won: Alice&Chloe", lines(b)
        st.no_faults(b)
    finally:
        b.kill()


def moons_round(b, winner):
    """One Moons round of all-Jupiter tableaux: its one trick to `winner`,
    who takes Jupiter, then Jupiter again as the most tricks' token (the
    others take their tableau's Jupiter by themselves)."""
    while "card" in lines(b)[0] or lines(b)[-1].endswith("tableau"):
        b.press("ok")  # Jupiter: the first suit, then the one entered before
    st.point_at(b, winner)
    b.press("ok")
    st.choose(b, "Jupiter", exact=True)
    b.press("back")
    st.choose(b, "End of round")
    st.choose(b, "Jupiter", exact=True)


def test_moons_rows_part_names_from_tokens_and_a_three_way_win_names_all_three(tmp_path):
    b = st.named_board(tmp_path, ["Alice", "Eve", "Dan"])
    flash = tmp_path / "flash"
    try:
        st.choose(b, "New game")
        st.choose(b, "Moons", exact=True)
        st.set_number(b, 3, 4)
        st.choose(b, "House 1/2/3/10")
        for _ in range(3):
            b.press("ok")
        moons_round(b, "Alice")
        b.press("back")  # round 2's tableaux wait on the game screen
        assert lines(b)[0] == "R2 tableaux", lines(b)
        for y, name, score in ((11, "Alice", "2"), (20, "Eve", "1"), (29, "Dan", "1")):
            row = words(glyph_row(b, y))
            assert row == [(">" if name == "Alice" else "") + name, "tableau?"], row  # not "Alicetableau"
        assert lines(b)[-1] == "OK:Alice tableau", lines(b)
        for _ in range(10):
            b.press("ok")  # OK opens the tableaux again: round 2 starts with the last
        rows = [words(glyph_row(b, y)) for y in (11, 20, 29)]
        assert rows == [["Alice", "J2", "2"], [">Eve", "J1", "1"], ["Dan", "J1", "1"]], rows
        st.point_at(b, "Eve")
        b.press("ok")
        st.choose(b, "Jupiter", exact=True)
        b.press("back")
        st.choose(b, "End of round")
        st.choose(b, "Jupiter", exact=True)
        moons_round(b, "Dan")  # every player has been first: the game is over
        s = st.replay(flash).state
        assert s["over"] and s["winners"] == [0, 1, 2], s
        st.wait_toast(b)
        st.wait_toast(b)
        assert lines(b)[0] == "Won: Ali&Eve&Dan", lines(b)  # Dan was left out
        b.press("back")
        st.choose(b, "Standings")
        assert lines(b)[-1] == "Won: Ali&Eve&Dan", lines(b)
        st.no_faults(b)
    finally:
        b.kill()


# -- 9. the pointer on a partnership's row ------------------------------------------
def test_the_pointer_marks_the_team_of_the_player_pointed_at(tmp_path):
    b = st.named_board(tmp_path, ["Alice", "Bob", "Chloe", "Dan"])
    try:
        st.start_shoot_the_moon_for(b, 4, 7, "2 teams of 2")
        teams = {"Alice": "Ali/Chl", "Chloe": "Ali/Chl", "Bob": "Bob/Dan", "Dan": "Bob/Dan"}
        for name in ("Bob", "Chloe", "Dan", "Alice"):
            st.point_at(b, name)
            rows = [words(glyph_row(b, y)) for y in (11, 20)]
            marked = [r[0] for r in rows if r[0].startswith(">")]
            assert marked == [">" + teams[name]], (name, rows)
            assert all(r[-1] == "t0" for r in rows), rows  # the chips between, clear of both
            assert all(len(x) <= 16 for x in lines(b)), lines(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_teams_of_three_keep_every_partner_s_name_and_the_pointer(tmp_path):
    """Two teams of three: a team's names on a row of their own (three
    names in 7 columns would be letters), its chips and tricks below."""
    b = st.new_board(tmp_path)
    try:
        st.choose(b, "New game")
        st.choose(b, "Shoot the Moon", exact=True)
        st.set_number(b, 6, 4)
        st.choose(b, "2 teams of 3")
        st.set_number(b, 7, 7)
        for _ in range(6):
            b.press("ok")
        for name, team in (("P2", "P2/P4/P6"), ("P3", "P1/P3/P5")):
            st.point_at(b, name)
            rows = [words(glyph_row(b, y)) for y in (11, 20, 29, 38)]
            assert [r[0] for r in rows[0::2]] == [(">" if team == "P1/P3/P5" else "") + "P1/P3/P5",
                                                 (">" if team == "P2/P4/P6" else "") + "P2/P4/P6"], rows
            assert rows[1] == ["t0"] and rows[3] == ["t0"], rows  # the chips as discs, then the tricks
        st.no_faults(b)
    finally:
        b.kill()


# -- 12. the docs say what the device shows -------------------------------------------
def device_md(section):
    text = (ROOT / "docs" / "device.md").read_text()
    return " ".join(text.split("\n## " + section + "\n", 1)[1].split("\n## ", 1)[0].split())


def test_the_docs_give_a_big_moon_its_own_banner(tmp_path):
    b = st.named_board(tmp_path, ["Alice", "Bob", "Chloe"])
    try:
        st.start_shoot_the_moon_for(b, 3, 7)
        st.point_at(b, "Chloe")
        b.press("ok")
        st.choose(b, "1 BIG", exact=True)
        shown = " ".join([x for x in lines(b) if x.replace("p", "").strip()])
        assert shown == "BIG MOON: +1 chip Chloe", shown
        doc = device_md("Shoot the Moon")
        assert "BIG MOON: +1 chip" in doc and "BIG MOON trick gets the \"Shot the moon!\"" not in doc, doc
        st.no_faults(b)
    finally:
        b.kill()


def test_the_docs_say_which_tableau_a_round_opens_with(tmp_path):
    """The tableaux are laid and shown all at once (moons-cards.txt: "All
    players reveal tableaus simultaneously"; the first player of round 1
    is only known from them): the rules give no order, and the device
    asks them in seat order from the first still missing, as the docs
    must say. Round 2, Eve first, opens with Alice's."""
    b = st.named_board(tmp_path, ["Alice", "Eve", "Dan"])
    try:
        st.choose(b, "New game")
        st.choose(b, "Moons", exact=True)
        st.set_number(b, 3, 4)
        st.choose(b, "House 1/2/3/10")
        for _ in range(3):
            b.press("ok")
        assert lines(b)[0] == "Alice card 1?", lines(b)
        moons_round(b, "Alice")
        assert lines(b)[0] == "Alice card 1?", lines(b)
        b.press("back")
        assert "1st Eve" in st.screen(b), st.screen(b)
        doc = device_md("Moons")
        assert "opens with the first player's tableau" not in doc, doc
        assert "in seat order" in doc, doc
        st.no_faults(b)
    finally:
        b.kill()
