"""The Moonstar screens of issue #11, played through the buttons of the
simulated board (the real firmware under the real MicroPython, the tests'
capped heap): the roll-off's dice, the situation drawn as the board, the
points entry stopping at the best possible, the solver's plan stepped on
the drawing, a bid of 70 closing the bidding, the set-up corrected before
the result, the bidder's name clear of the bid digits, and whose turn it
is. What the panel shows is checked against the PC's own replay of the
journal and the PC's own solver."""

import re
import sys
from pathlib import Path

import simtools as st
from shared_rules.moonstar.plan import plan_score
from shared_rules.moonstar.solver import solve

FIRMWARE = str(Path(__file__).resolve().parents[2] / "firmware")
if FIRMWARE not in sys.path:
    sys.path.append(FIRMWARE)

from ui.moonstar import ring as ms_ring  # noqa: E402  (the drawing's geometry, to find the stars on the panel)

TIE_SEED = 32  # this board's first two rolls for two players: a 12-12 tie, then P2 wins 12-9


def device_rolled_round(b, game="1 Basic", setter="P2"):
    """A two-player game whose first round the device sets up; returns
    with the situation screen closed, in the bidding minute."""
    st.start_two_player_moonstar(b, game, setter)
    b.press("ok")
    st.choose(b, "Device rolls")
    b.press("back")  # close the situation (OK would go on to the bid)


def bid(b, who, amount, current=20):
    b.press("ok")
    assert "Who bids?" in st.screen(b), st.screen(b)
    st.choose(b, who)
    st.set_number(b, amount, current)


def events(tmp_path):
    return st.journal_events(tmp_path / "flash")


def test_roll_off_shows_every_players_dice_and_the_re_roll(tmp_path):
    b = st.new_board(tmp_path, seed=TIE_SEED)
    try:
        st.choose(b, "New game")
        st.choose(b, "Moonstar")
        b.press("down")
        b.press("down")
        b.press("ok")  # 2 players
        st.choose(b, "1 Basic")
        b.press("ok")
        b.press("ok")
        b.press("ok")
        assert "Who sets up?" in st.screen(b)  # the menu asks its question
        st.choose(b, "Roll for setter")
        rolls = st.replay(tmp_path / "flash").state["rolls"]
        scr = st.screen(b)
        assert scr.splitlines()[0] == "Tie: roll again", scr  # shown for 3 s, as a toast was
        for p in (0, 1):
            dice = rolls[0]["dice"][p]
            want = "P%d %s =%d" % (p + 1, " ".join(map(str, dice)), rolls[0]["totals"][p])
            assert want in scr.splitlines(), (want, scr)
        b.advance(3100)  # it goes by itself
        assert st.screen(b).splitlines()[0] == "R1 Who sets up?", st.screen(b)
        b.press("ok")
        st.choose(b, "Roll for setter")  # the tied players roll again
        state = st.replay(tmp_path / "flash").state
        rolls = state["rolls"]
        assert len(rolls) == 2 and state["setter"] == 1
        scr = st.screen(b)
        assert scr.splitlines()[0] == "P2 sets up 2/2", scr
        assert "P2 %s =%d" % (" ".join(map(str, rolls[1]["dice"][1])), rolls[1]["totals"][1]) in scr, scr
        b.press("up")  # the first throw, the tie
        scr = st.screen(b)
        assert scr.splitlines()[0] == "Throw 1: tie 1/2", scr
        assert "P1 %s =12" % " ".join(map(str, rolls[0]["dice"][0])) in scr, scr
        st.snap(b, "moonstar-roll")
        b.press("ok")
        assert "R1 Set-up" in st.screen(b), st.screen(b)
        b.press("back")
        st.choose(b, "Setter roll")  # the roll-off again, from the game menu
        b.advance(5000)  # asked for: it stays until OK
        assert st.screen(b).splitlines()[0] == "P2 sets up 2/2", st.screen(b)
        b.press("ok")
        st.no_faults(b)
    finally:
        b.kill()


def test_situation_is_drawn_as_the_board(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.start_two_player_moonstar(b, "1 Basic", "P2")
        b.press("ok")
        st.choose(b, "Device rolls")
        sit = st.replay(tmp_path / "flash").state["sit"]
        scr = st.screen(b)
        assert "@" not in scr and "Moons on" not in scr, scr  # no more "value@star: 5@3"
        lines = scr.splitlines()
        assert lines[0].startswith("R1") and lines[1] == "by P2", scr  # the round and its setter
        shown = [int(x) for line in lines[2:] for x in line.split()]
        assert shown == sit["dice"], (shown, sit)  # every die, boxed, in order
        px = b.emu.pixels
        for star, value in sit["planets"]:
            x, y = ms_ring.at(star, ms_ring.R_STAR)
            # a disc: lit around the value cut out of it
            assert px[y - 4][x] and px[y + 4][x] and px[y][x - 4] and px[y][x + 4], (star, value)
        count = [0] * 12
        for star in sit["moons"]:
            x, y = ms_ring.at(star, ms_ring.MOON_RADII[count[star]])
            count[star] += 1
            assert px[y][x] and px[y - 1][x - 1] and px[y + 1][x + 1], ("moon", star)
        free = [s for s in range(12) if not count[s] and s not in [p[0] for p in sit["planets"]]]
        for s in free:  # no moon drawn where there is none
            x, y = ms_ring.at(s, ms_ring.MOON_RADII[0])
            assert not px[y][x], ("empty star", s)
        st.snap(b, "moonstar-situation")
        # the bidding minute runs: the first OK is the bid (issue 21), not
        # only a way back to the bids view
        b.press("ok")
        assert st.screen(b).startswith("Who bids?"), st.screen(b)
        b.press("back")
        assert "Bids" in st.screen(b), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_points_stop_at_the_best_possible_and_say_why(tmp_path):
    b = st.new_board(tmp_path)
    try:
        device_rolled_round(b)
        sit = st.replay(tmp_path / "flash").state["sit"]
        best = solve(sit)["best"]
        assert best < 70, best  # this seed's set-up: 70 cannot be made
        bid(b, "P1", 70)
        scr = st.screen(b)
        assert "CLOSED" in scr and "OK: play minute" in scr, scr  # defect 6: 70 closes bidding
        b.press("ok")
        scr = st.screen(b)
        assert "70 closes" in scr and "bidding" in scr and "playing" in scr, scr
        b.press("ok")  # yes: the playing minute starts now
        scr = st.screen(b)
        assert "R1 Play" in scr and "P1 plays" in scr, scr
        assert events(tmp_path)[-1]["type"] == "time_up"
        # entered while the playing minute runs, the best is not told (a
        # spoiler for the bidder) and the entry goes to the rules' top
        b.press("ok")
        b.advance(400)
        scr = st.screen(b)
        assert scr.splitlines()[0].startswith("P1 scored?") and "bid 70" in scr and "best" not in scr, scr
        assert scr.splitlines()[-1] != "0 %d" % best, scr
        b.press("back")
        b.press("back")
        st.choose(b, "Time up now")
        b.press("ok")
        b.advance(400)  # the solver's slices, between loop passes
        scr = st.screen(b)
        assert scr.splitlines()[0].startswith("P1 scored?"), scr  # the question, and whose
        assert "bid 70 best %d" % best in scr, scr
        assert scr.splitlines()[-1] == "0 %d" % best, scr  # the entry's top is the best possible
        st.snap(b, "moonstar-points")
        n = len(events(tmp_path))
        b.press("up")
        scr = st.screen(b)
        assert "%d is the best this set-up allows" % best in " ".join(scr.splitlines()), scr
        b.advance(1600)
        b.press("ok")
        b.advance(400)
        evs = events(tmp_path)
        assert len(evs) == n + 1 and evs[-1]["type"] == "result" and evs[-1]["points"] == best, evs[-1]
        scr = st.screen(b)
        assert "R1 result" in scr and "failed" in scr and re.search(r"best possible:? *%d$" % best, scr, re.M), scr
        st.no_faults(b)
    finally:
        b.kill()


def test_the_best_plan_steps_on_the_board(tmp_path):
    b = st.new_board(tmp_path)
    try:
        device_rolled_round(b)
        sit = st.replay(tmp_path / "flash").state["sit"]
        answer = solve(sit)
        plan = answer["plan"]
        bid(b, "P1", 30)
        b.press("back")
        st.choose(b, "Time up now")
        b.press("ok")
        b.advance(400)
        b.press("ok")  # points: the bid, made
        b.advance(400)
        assert "DOWN:plan" in st.screen(b), st.screen(b)
        for k in range(1, len(plan) + 1):
            b.press("down")
            scr = st.screen(b)
            lines = scr.splitlines()
            assert lines[0] == "Plan %d/%d" % (k, len(plan)) and lines[1] == "best %d" % answer["best"], scr
            before = plan_score(sit, plan[: k - 1], answer["favorite"], False)
            after = plan_score(sit, plan[:k], answer["favorite"], False)
            assert "+%d" % (after - before) in lines and "=%d" % after in lines, (k, scr)
            # the moving moon: a ring at its landing star, the line from where it started
            move = plan[k - 1]
            x, y = ms_ring.at(move["to"], ms_ring.MOON_RADII[0])
            if k == 2:
                st.snap(b, "moonstar-plan")
        assert "=%d" % answer["best"] in st.screen(b).splitlines()
        b.press("down")  # past the last move: stays
        assert st.screen(b).splitlines()[0] == "Plan %d/%d" % (len(plan), len(plan))
        for _ in plan:
            b.press("up")
        assert "R1 result" in st.screen(b), st.screen(b)
        b.press("ok")
        assert "R2" in st.screen(b), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_a_made_bid_equal_to_the_best_gets_its_banner(tmp_path):
    b = st.new_board(tmp_path)
    try:
        device_rolled_round(b)
        best = solve(st.replay(tmp_path / "flash").state["sit"])["best"]
        bid(b, "P1", best)
        b.press("back")
        st.choose(b, "Time up now")
        b.press("ok")
        b.advance(400)
        b.press("ok")  # points default to the bid, which is the best possible
        b.advance(400)
        scr = st.screen(b)
        assert "Best possible!" in scr and "made %d" % best in scr, scr
        st.snap(b, "moonstar-best-banner")
        b.advance(3100)
        scr = st.screen(b)
        assert "made the best!" in scr, scr
        st.no_faults(b)
    finally:
        b.kill()


def test_a_wrong_set_up_is_corrected_before_the_result_and_undone(tmp_path):
    b = st.new_board(tmp_path)
    try:
        device_rolled_round(b)
        rolled = st.replay(tmp_path / "flash").state["sit"]
        b.press("back")
        st.choose(b, "Correct set-up")
        scr = st.screen(b)
        assert "Planet\nvalue %d" % rolled["planets"][0][1] in scr and "star 0" in scr, scr  # on the drawn board
        b.press("down")
        b.press("down")
        assert "star 2" in st.screen(b), st.screen(b)  # DOWN walks the cursor clockwise
        b.press("up")
        b.press("up")
        for _ in range(len(rolled["planets"]) + len(rolled["moons"])):
            b.press("ok")  # where the cursor starts: the next free star, a moon on the last moon's
        for _ in rolled["dice"]:
            assert "Die" in st.screen(b), st.screen(b)
            b.press("ok")  # each die a 1
        ev = events(tmp_path)[-1]
        assert ev["type"] == "fix_situation", ev
        fixed = st.replay(tmp_path / "flash").state["sit"]
        n = len(rolled["planets"])
        assert [p[0] for p in fixed["planets"]] == list(range(n)), fixed
        assert fixed["moons"] == [i // 3 for i in range(len(rolled["moons"]))], fixed  # from star 0, three to a star
        assert fixed["dice"] == [1] * len(rolled["dice"]), fixed
        scr = st.screen(b)
        assert scr.splitlines()[1] == "by P2" and "1 1 1 1 1" in scr, scr  # the corrected board, drawn
        b.press("ok")
        b.long_press("back")  # undo: the rolled set-up again
        b.advance(2100)
        assert st.replay(tmp_path / "flash").state["sit"] == rolled
        assert "Bids" in st.screen(b), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_bidding_screen_names_setter_and_keeps_the_bidder_clear_of_the_digits(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.start_two_player_moonstar(b, "1 Basic", "P2")
        scr = st.screen(b)
        assert scr.splitlines()[0] == "R1 Set-up set:P2" and "P2 sets up" in scr, scr
        b.press("ok")
        assert st.screen(b).splitlines()[0] == "P2 sets up:", st.screen(b)  # the menu's question
        st.choose(b, "Skip set-up")
        bid(b, "P1", 48)
        scr = st.screen(b)
        assert scr.splitlines()[0] == "R1 Bids set:P2" and "P1" in scr.splitlines(), scr
        px = b.emu.pixels
        # 24 px digits from y=20 to 43, the name from y=46: rows 44-45 stay dark
        for y in (44, 45):
            assert not any(px[y][x] for x in range(72, 128)), y
        assert any(px[43][x] for x in range(74, 128)) and any(px[46][x] for x in range(72, 128))
        st.snap(b, "moonstar-standing-bid")
        b.press("ok")
        assert st.screen(b).splitlines()[0].startswith("Who bids?")
        scr = st.screen(b)
        assert scr.splitlines()[1:3] == ["P1", "P2"], scr  # the seats in table order, always
        assert st.selected(b).strip() == "P2", scr  # P1 stands: P2 most likely answers it
        st.choose(b, "P2")
        assert "standing 48" in st.screen(b), st.screen(b)
        b.press("down")  # the entry starts 5 above the standing bid: 53; P2 says 52
        b.press("ok")
        assert events(tmp_path)[-1]["amount"] == 52, events(tmp_path)[-1]
        b.press("ok")
        assert st.selected(b).strip() == "P1", st.screen(b)  # P1 and P2 outbid each other
        b.press("ok")
        b.press("ok")  # the table's own raise, 4: 56
        ev = events(tmp_path)[-1]
        assert (ev["player"], ev["amount"]) == (0, 56), ev
        st.no_faults(b)
    finally:
        b.kill()


def hold_steps(b, key, steps):
    """Hold UP or DOWN on a number picker until its big digits (rows
    22-53) have changed `steps` times, then let go; the virtual times (ms)
    of the changes."""
    bit = {"up": 1, "down": 2}[key]
    before = [bytes(r) for r in b.emu.pixels[22:54]]
    times = []
    b.set_buttons(b.mask | bit)
    t = 0
    while len(times) < steps:
        assert t < 5000, "the held %s stopped after %r" % (key, times)
        b.advance(10)
        t += 10
        now = [bytes(r) for r in b.emu.pixels[22:54]]
        if now != before:
            times.append(t)
            before = now
    b.set_buttons(b.mask & ~bit)
    b.advance(100)
    return times


def test_a_held_bid_counts_in_fives_at_a_pace_to_let_go_at(tmp_path):
    b = st.new_board(tmp_path)
    try:
        st.start_two_player_moonstar(b, "1 Basic", "P2")
        b.press("ok")
        st.choose(b, "Skip set-up")
        b.press("ok")
        st.choose(b, "P1")
        assert "first bid" in st.screen(b), st.screen(b)
        # from 20: the press's own step (21), then 25 and 30 on round values
        times = hold_steps(b, "up", 3)
        assert times[1] - times[0] >= 350, times  # the first repeat comes after 400 ms
        assert times[2] - times[1] >= 300, times  # every other repeat at first: time to let go
        shown = [bytes(r) for r in b.emu.pixels[22:54]]
        b.advance(1500)
        assert [bytes(r) for r in b.emu.pixels[22:54]] == shown  # let go: the number stays
        b.press("ok")
        ev = events(tmp_path)[-1]
        assert (ev["type"], ev["player"], ev["amount"]) == ("bid", 0, 30), ev
        # P2 answers; the entry starts at 35: a held DOWN steps to 34, then
        # towards 30 but stops at the lowest legal bid, 31
        b.press("ok")
        st.choose(b, "P2")
        assert "standing 30" in st.screen(b), st.screen(b)
        hold_steps(b, "down", 2)
        b.advance(1500)
        b.press("ok")
        ev = events(tmp_path)[-1]
        assert (ev["player"], ev["amount"]) == (1, 31), ev
        assert st.replay(tmp_path / "flash").state["bid"] == 31
        st.no_faults(b)
    finally:
        b.kill()
