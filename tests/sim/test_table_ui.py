"""At the table (issue #11), through the simulated board's buttons under
the real MicroPython: the running minute adjusted by 10 s, the visual
alarm, undo that leaves the minute alone and says what it undid, Rematch,
BACK from a finished game's standings, tied ranks, scroll marks, the seat
picker, the box's game names; whose turn on the Shoot the Moon, Moon and
Moons screens, as the rules' turn() says."""

import sys
from pathlib import Path

import simtools as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import presses  # noqa: E402


def timer_left(flash):
    """The minute's time left as the board saved it (data/timer.json)."""
    from shared_rules.wire_read import decode

    return decode((Path(flash) / "data" / "timer.json").read_bytes(), need_crc=True)["v"]["left_ms"]


def moonstar_bidding(tmp_path):
    """A 4-player Moonstar game in the bidding minute, P2 standing at 30."""
    b = st.new_board(tmp_path)
    d = presses.Driver(b, tmp_path / "flash")
    d.answer(presses.FACTS["moonstar"]["start"], 1)
    for step in presses.FACTS["moonstar"]["round"][:2]:
        d.settle()
        want = d.events() + 1
        if not presses.in_menu(b):
            b.press("ok")
        d.answer([step["act"]] + step["do"], want, optional=[step["act"]] + step["do"])
    return b, d


def test_running_minute_up_down_ten_seconds_and_undo_leaves_it(tmp_path):
    b, d = moonstar_bidding(tmp_path)
    flash = tmp_path / "flash"
    try:
        st.wait_toast(b)
        left = timer_left(flash)
        b.press("up")
        up = timer_left(flash)
        assert abs((up - left) - 10000) <= 500, (left, up)  # +10 s (the press itself takes a moment)
        b.press("down")
        b.press("down")
        down = timer_left(flash)
        assert abs((up - down) - 20000) <= 600, (up, down)
        # undo the bid of 30: the minute keeps its time and keeps running
        before = timer_left(flash)
        b.long_press("back")
        scr = st.screen(b)
        assert "Undone: P2 bid" in scr and "30" in scr, scr
        after = timer_left(flash)
        assert 0 <= before - after <= 1200, (before, after)  # the hold itself, nothing more
        b.advance(3000)
        assert timer_left(flash) <= after - 2000  # still running (saved once a second)
        assert st.replay(flash).state["bid"] == 0
        st.no_faults(b)
    finally:
        b.kill()


def test_visual_alarm_in_the_last_ten_seconds_and_at_time_up(tmp_path):
    b, d = moonstar_bidding(tmp_path)
    flash = tmp_path / "flash"
    try:
        assert not b.emu.inverted
        left = timer_left(flash)
        b.advance(left - 12000)
        assert not b.emu.inverted  # 12 s left: no alarm yet
        # timer_left reads the snapshot saved each shown second: the minute
        # may be up to a second further on, so look on until the flashing
        # has shown both faces (at most 4 s, still well before time up)
        seen = set()
        polled = 0
        while seen != {True, False} and polled < 4000:
            b.advance(100)
            polled += 100
            seen.add(b.emu.inverted)
        assert seen == {True, False}  # flashing in the last 10 s
        b.advance(12000 - polled + 300)  # just past time up: the bidding minute ends
        seen = set()
        for _ in range(15):
            b.advance(100)
            seen.add(b.emu.inverted)
        assert True in seen
        b.advance(5000)
        assert not b.emu.inverted  # and it stops
        st.no_faults(b)
    finally:
        b.kill()


def _stm_game_over(tmp_path):
    """A 3-player Shoot the Moon game to 3 chips, won by P2 in one trick."""
    b = st.new_board(tmp_path)
    st.start_shoot_the_moon(b)
    b.press("ok")  # P2 leads, and wins ...
    st.choose(b, "1 BIG", exact=True)  # ... with a BIG MOON: 3 chips
    st.wait_toast(b)
    b.press("up")  # from P2, who leads, to P1
    for _ in range(4):  # P1 takes the other four tricks (and leads): P2 ends the round on 4
        b.press("ok")
        st.choose(b, "no moons")
    st.wait_toast(b)
    st.wait_toast(b)
    return b


def test_tied_players_share_a_rank(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.start_shoot_the_moon(b)
        b.press("back")
        assert st.screen(b).split("\n")[0] == "Shoot the Moon"  # the box's name, not an id
        st.choose(b, "Standings")
        scr = st.screen(b)
        assert scr.count("1 P") == 3 and "2 P" not in scr, scr  # all on 2 chips: all first
        st.no_faults(b)
    finally:
        b.kill()


def test_rematch_and_back_from_standings_after_the_game(tmp_path):
    b = _stm_game_over(tmp_path)
    flash = tmp_path / "flash"
    try:
        scr = st.screen(b)
        # both ways on are shown (issue 21): OK a rematch, BACK Home
        assert "Won: P2" in scr and "OK: Rematch" in scr and "BACK: Home" in scr, scr
        b.press("back")
        assert st.screen(b).split("\n")[0] == "moontable", st.screen(b)
        # BACK from the standings of a finished game: Home
        st.choose(b, "Standings")
        assert st.screen(b).split("\n")[0] == "Final standings", st.screen(b)
        b.press("back")
        assert st.screen(b).split("\n")[0] == "moontable", st.screen(b)
        st.choose(b, "Finished game")
        # Rematch: one press, same players, seats rotated, options kept
        old = sorted((flash / "data" / "games").glob("*.jsonl"))
        b.press("ok")
        games = sorted((flash / "data" / "games").glob("*.jsonl"))
        assert len(games) == len(old) + 1
        from shared_rules.wire_read import decode

        header = decode(games[-1].read_bytes().splitlines()[0])
        assert header["game"] == "shoot-the-moon" and header["players"] == ["P2", "P3", "P1"]
        assert header["options"]["target"] == 3
        assert "trick 1/5" in st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_scroll_marks_on_a_long_menu(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.choose(b, "New game")
        st.choose(b, "Moon (dominoes)", exact=True)
        st.set_number(b, 21, 21)
        st.choose(b, "Seat 1")
        for _ in range(3):
            b.press("ok")
        b.press("back")
        st.choose(b, "Home")  # with a game open Home has eight items: more than six rows
        px = b.emu.pixels
        assert px[55][124] and not px[11][124]  # more below, nothing above
        b.press("up")  # round to the last item
        px = b.emu.pixels
        assert px[11][124] and not px[55][124]  # more above, nothing below
        st.no_faults(b)
    finally:
        b.kill()


def test_seat_picker_never_offers_a_seated_name(tmp_path):
    from shared_rules.wire import encode

    data = tmp_path / "flash" / "data"
    b = st.new_board(tmp_path)
    b.kill()
    (data / "roster.json").write_bytes(encode({"v": ["Ann", "Bob", "Cy"]}))
    b = st.SimBoard(tmp_path / "flash", seed=7, do_deploy=False).start()
    try:
        st.choose(b, "New game")
        st.choose(b, "Shoot the Moon", exact=True)
        st.set_number(b, 5, 4)
        b.press("ok")  # 7 chips (no partnerships for five)
        offered = []
        for seat in range(5):
            items = [t.strip() for t in presses.Driver(b, tmp_path / "flash").menu_items()]
            offered.append(items)
            b.press("ok")  # the first name offered
        assert offered[0][:3] == ["Ann", "Bob", "Cy"]
        for i in range(1, 5):
            seated = [offered[k][0] for k in range(i)]
            assert not set(seated) & set(offered[i]), (seated, offered[i])
        m = st.replay(tmp_path / "flash")
        assert len({p.lower() for p in m.state["players"]}) == 5
        st.no_faults(b)
    finally:
        b.kill()


def test_name_pool_is_blind_to_case():
    sys.path.append(str(Path(__file__).resolve().parents[2] / "firmware"))
    from ui.menus.newgame import free_names, name_pool

    pool = name_pool(["Ann", "p1", "ANN"], 3)
    assert pool == ["Ann", "p1", "P2"]
    assert free_names(pool, ["ann", None]) == ["p1", "P2"]
    assert free_names(["P1", "P2"], ["p1"]) == ["P2"]


def test_game_names_in_the_menu_are_the_box_names(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.choose(b, "New game")
        scr = st.screen(b)
        for name in ("Moonstar", "Shoot the Moon", "Moon (dominoes)", "Moons"):
            assert name in scr.split("\n"), scr
        assert "moon dominoes" not in scr.lower()
        st.no_faults(b)
    finally:
        b.kill()


def test_starting_from_paper(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        st.choose(b, "From paper")
        st.choose(b, "Moon (dominoes)", exact=True)
        st.set_number(b, 21, 21)
        st.choose(b, "Seat 1")
        for _ in range(3):
            b.press("ok")
        for who, score in (("P1", 10), ("P2", 3), ("P3", 0)):
            scr = st.screen(b)
            assert "%s: score?" % who in scr and "from paper" in scr, scr
            st.set_number(b, score, 0)
        from shared_rules.wire_read import decode

        games = sorted((flash / "data" / "games").glob("*.jsonl"))
        header = decode(games[-1].read_bytes().splitlines()[0])
        assert header["options"]["start"] == [10, 3, 0]
        assert st.replay(flash).state["scores"] == [10, 3, 0]
        scr = st.screen(b)
        assert "10" in scr and "bidding" in scr, scr
        st.no_faults(b)
    finally:
        b.kill()


def test_starting_from_paper_with_chips_per_partnership(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        st.choose(b, "From paper")
        st.choose(b, "Shoot the Moon", exact=True)
        b.press("ok")  # 4 players
        st.choose(b, "2 teams of 2")
        b.press("ok")  # 7 chips to win
        for _ in range(4):
            b.press("ok")
        scr = st.screen(b)
        assert "P1/P3: chips?" in scr, scr
        st.set_number(b, 5, 2)  # a fresh side has two chips
        assert "P2/P4: chips?" in st.screen(b)
        st.set_number(b, 1, 2)
        assert st.replay(flash).state["chips"] == [5, 1]
        st.no_faults(b)
    finally:
        b.kill()


def test_two_player_shoot_the_moon_points_at_the_dummy_too(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.choose(b, "New game")
        st.choose(b, "Shoot the Moon", exact=True)
        st.set_number(b, 2, 4)
        b.press("ok")  # 7 chips
        b.press("ok")
        b.press("ok")
        assert st.screen_lines(b.emu)[-1] == "OK: P2 won", st.screen(b)
        b.press("down")
        assert st.screen_lines(b.emu)[-1] == "OK: Dummy won", st.screen(b)
        b.press("ok")
        assert "Dummy won:moons?" in st.screen(b)
        st.choose(b, "no moons")
        last = st.journal_events(tmp_path / "flash")[-1]
        assert (last["type"], last["winner"]) == ("trick", 2), last
        b.press("down")  # round the three hands: Dummy -> P1
        assert st.screen_lines(b.emu)[-1] == "OK: P1 won", st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


# -- whose turn (issue #11): the dealer or first player and the player to act,
# named on the game screen as the rules' turn() says, after every event ------

def rules_turn(flash, dummy=False):
    """Names of turn()'s leader and to_act, by the PC-side replay of the
    board's journal (None for nobody; "Dummy" for the two-player dummy)."""
    m = st.replay(flash)
    t = m.turn()
    names = m.state["players"]

    def name(p):
        if p is None:
            return "Dummy" if dummy else None
        return names[p]

    return name(t["leader"]), name(t["to_act"])


def start_game(b, label, players=None):
    st.choose(b, "New game")
    st.choose(b, label, exact=True)
    if players is not None:
        st.set_number(b, players, 4)


def enter_stm_trick(b, winner):
    for _ in range(8):
        if st.screen_lines(b.emu)[-1] == "OK: %s won" % winner:
            break
        b.press("down")
    b.press("ok")
    st.choose(b, "no moons")
    st.wait_toast(b)


def test_shoot_the_moon_names_the_dealer_and_who_leads(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        start_game(b, "Shoot the Moon", 3)
        b.press("ok")  # 7 chips
        for _ in range(3):
            b.press("ok")  # seats P1 P2 P3
        seen = []
        # a round: P3, P3, P1, P2, P3 win; then the deal passes to P2
        for w in ("P3", "P3", "P1", "P2", "P3", "P1"):
            deal, lead = rules_turn(flash)
            scr = st.screen(b)
            assert "%s leads deal %s" % (lead, deal) in scr, scr
            seen.append((deal, lead, st.screen_lines(b.emu)[-1]))
            enter_stm_trick(b, w)
        # the rules' turn, not a fixed seat: the leader follows the last
        # trick's winner, and a new round has a new dealer whose left leads.
        # The pointer (a guess, OK still asks) starts at the hand with the
        # most tricks this round, among equals the one who leads.
        assert seen == [("P1", "P2", "OK: P2 won"), ("P1", "P3", "OK: P3 won"), ("P1", "P3", "OK: P3 won"),
                        ("P1", "P1", "OK: P3 won"), ("P1", "P2", "OK: P3 won"), ("P2", "P3", "OK: P3 won")], seen
        st.no_faults(b)
    finally:
        b.kill()


def test_shoot_the_moon_two_players_the_dummy_leads(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        start_game(b, "Shoot the Moon", 2)
        for _ in range(3):
            b.press("ok")  # 7 chips, seats P1 P2
        enter_stm_trick(b, "Dummy")
        assert rules_turn(flash, dummy=True) == ("P1", "Dummy")
        assert "Dummy leads" in st.screen(b), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_moon_names_the_first_bidder_and_who_acts(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        start_game(b, "Moon (dominoes)")
        st.set_number(b, 5, 21)
        st.choose(b, "Seat 2")  # P2 bids first
        for _ in range(3):
            b.press("ok")

        def shows_turn(acting):
            first, act = rules_turn(flash)
            scr = st.screen(b)
            assert act == acting, (act, scr)
            assert "1st bid: %s" % first in scr, scr
            return scr

        assert "P2 to bid" in shows_turn("P2")
        b.press("ok")
        st.choose(b, "Pass")
        assert "P3 to bid" in shows_turn("P3")
        b.press("ok")
        st.choose(b, "5", exact=True)
        assert "P1 to bid" in shows_turn("P1")
        b.press("ok")
        st.choose(b, "Pass")
        assert "P3 trump" in shows_turn("P3")
        b.press("ok")
        st.choose(b, "Name trump")
        st.choose(b, "Doubles")
        assert "lead P3" in st.screen_lines(b.emu)[0] and shows_turn("P3")  # the bidder leads
        for _ in range(8):
            if st.screen_lines(b.emu)[-1] == "OK: P1 won":
                break
            b.press("down")
        b.press("ok")
        assert "lead P1" in st.screen_lines(b.emu)[0] and shows_turn("P1")
        st.no_faults(b)
    finally:
        b.kill()


def test_moons_names_the_first_player_and_who_leads(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        start_game(b, "Moons", 2)
        st.choose(b, "1/2/3/10")
        b.press("ok")
        b.press("ok")
        b.press("back")  # leave the tableau entry the game opens with
        first, act = rules_turn(flash)
        scr = st.screen(b)
        assert (first, act) == ("P1", None) and "R1 tableaux" in scr and "1st P1" in scr, scr
        b.press("ok")
        for who, suits in (("P1", ("Jupiter", "Saturn", "Neptune")), ("P2", ("Saturn", "Neptune", "Uranus"))):
            for s in suits:
                st.choose(b, s)
        for w in ("P2", "P1"):
            first, act = rules_turn(flash)
            scr = st.screen(b)
            assert "lead %s" % act in st.screen_lines(b.emu)[0] and "1st %s" % first in scr, scr
            for _ in range(4):
                if st.screen_lines(b.emu)[-1] == "OK: %s won" % w:
                    break
                b.press("down")
            b.press("ok")
            st.choose(b, "Uranus" if w == "P2" else "Jupiter", exact=True)
        assert rules_turn(flash) == ("P1", "P1") and "lead P1" in st.screen_lines(b.emu)[0]
        b.press("back")
        st.choose(b, "End of round")
        # each tied player takes any token: the menu starts at the one that
        # scores most, among equals the one held fewest of (P1 holds a
        # Jupiter, P2 a Uranus)
        for who, likely in (("P1", "Saturn"), ("P2", "Jupiter")):
            assert "%s takes?" % who in st.screen(b) and st.selected(b).strip() == likely, st.screen(b)
            b.press("ok")
        st.wait_toast(b)
        # the first player token passes left: P2 is first in round 2
        first, act = rules_turn(flash)
        if "card 1?" in st.screen(b):
            b.press("back")
        scr = st.screen(b)
        assert (first, act) == ("P2", None) and "R2 tableaux" in scr and "1st P2" in scr, scr
        st.no_faults(b)
    finally:
        b.kill()


def test_moons_game_menu_has_the_legend_of_the_planet_initials(tmp_path):
    b = st.new_board(tmp_path)
    try:
        start_game(b, "Moons", 2)
        st.choose(b, "1/2/3/10")
        b.press("ok")
        b.press("ok")
        b.press("back")  # leave the tableau entry the game opens with
        b.press("back")  # the game menu
        st.choose(b, "Legend: J S N U")
        scr = st.screen(b)
        for line in ("J Jupiter 17", "S Saturn 17", "N Neptune 17", "U Uranus 17"):
            assert line in scr, scr
        b.press("ok")
        assert "R1 tableaux" in st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_a_setting_is_picked_under_the_name_the_menu_gives_it(tmp_path):
    """Settings: each number's picker is titled as the menu names it (not
    by its key in settings.json), and the value picked is the menu's and
    the saved one."""
    from shared_rules.wire_read import decode

    b = st.new_board(tmp_path)
    try:
        st.choose(b, "Settings")
        for label, title in (("Bid time", "Bid time"), ("Play time", "Play time"), ("Contrast", "Contrast"),
                             ("Screen off", "Screen off")):
            st.choose(b, label)
            assert st.screen(b).splitlines()[0] == title, st.screen(b)
            b.press("back")
            assert st.screen(b).splitlines()[0] == "Settings", st.screen(b)
        st.choose(b, "Bid time")
        b.press("up")
        b.press("ok")
        assert "Bid time 61s" in st.screen(b), st.screen(b)
        saved = decode((tmp_path / "flash" / "data" / "settings.json").read_bytes(), need_crc=True)["v"]
        assert saved["bid_seconds"] == 61, saved
        st.no_faults(b)
    finally:
        b.kill()


def test_a_start_the_rules_refuse_keeps_what_was_entered(tmp_path):
    """From paper, a start the rules refuse (one player alone past the
    goal) says why and asks the scores again with the ones given selected,
    the seats kept: nothing entered is lost (before, the whole form was
    dropped at the end with a toast)."""
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        st.choose(b, "From paper")
        st.choose(b, "Moon (dominoes)", exact=True)
        st.set_number(b, 21, 21)
        st.choose(b, "Seat 1")
        for _ in range(3):
            b.press("ok")
        for score in (25, 3, 0):
            st.set_number(b, score, 0)
        scr = st.screen(b)
        assert "21" in scr and "alone" in scr.replace("\n", " "), scr  # the rules' reason, as a toast
        assert not list((flash / "data" / "games").glob("*.jsonl"))
        st.wait_toast(b)
        scr = st.screen(b)
        assert "P1: score?" in scr, scr  # asked again ...
        st.set_number(b, 20, 25)  # ... from the score given (big digits: read back in the journal below)
        b.press("ok")  # P2: 3, as given
        b.press("ok")  # P3: 0
        assert st.replay(flash).state["scores"] == [20, 3, 0]
        assert st.replay(flash).header["players"] == ["P1", "P2", "P3"]
        st.no_faults(b)
    finally:
        b.kill()


def test_standings_name_the_round_as_the_game_screen_does(tmp_path):
    """Issue 21: the standings of a game in its first round read "R1", as
    the game screen numbers it (they said "Standings R0")."""
    b = st.new_board(tmp_path)
    try:
        st.start_two_player_moonstar(b, "1 Basic", "P1")
        assert st.screen(b).startswith("R1 "), st.screen(b)
        b.press("back")
        st.choose(b, "Standings")
        assert st.screen(b).split("\n")[0].startswith("Standings R1"), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()
