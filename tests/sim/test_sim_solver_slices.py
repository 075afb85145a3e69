"""Issue 24, on the simulated board (the real firmware under the real
MicroPython): the hardest timed set-up of bench/solver_corpus.jsonl as a
Game 12 round, and the bidder's points entered through the buttons, one
above the best possible. The result is checked in slices before anything
is journaled (ui/moonstar/check.py: "checking..." and a spinner, one
slice of CHECK_UNITS solver units per loop pass), so the check takes as
many loop passes as the PC's own check has slices, the play minute goes on
counting meanwhile (the panel shows it), and the refusal names the best
possible; the best itself is then accepted the same way."""

import json
import re
from pathlib import Path

import simtools as st
from moontable.sim.board_link import SimBoard
from shared_rules import RuleError
from shared_rules import moonstar
from shared_rules.log import replay_file
from shared_rules.wire import encode

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "bench" / "solver_corpus.jsonl"
CHECK_UNITS = 8  # firmware/ui/moonstar/check.py


def hardest_timed():
    """The corpus's set-up that takes the solver the most units, among the
    classes whose play is timed (Game 8's is not: no minute to watch) and
    whose best is a bid (20-70, below 70 so that one more can be entered)."""
    worst = None
    for line in CORPUS.read_text().splitlines():
        if line.strip():
            e = json.loads(line)
            timed = e["sit"]["scoring"] != "chains" and 20 <= e["best"] < 70
            if timed and (worst is None or e["units"] > worst["units"]):
                worst = e
    return worst


def variants(sit):
    """The Game 12 choice whose round uses exactly this set-up."""
    m, d = len(sit["moons"]), len(sit["dice"])
    games = []
    if m == d and m != 7:
        games.append(2)
    elif m > d:
        games.append(3)
    elif d > m:
        games.append(4)
    values = sorted(v for _, v in sit["planets"])
    if sit["scoring"] == "planets" and values != [5, 5, 10, 10]:
        games.append(5)
    if sit["favorite_star"]:
        games.append(6)
    if sit["scoring"] == "squares":
        games.append(7)
    if sit["scoring"] == "chains":
        games.append(8)
    if sit["movement"] == "more":
        games.append(9)
    ev = {"type": "variants", "games": sorted(games), "moons": m, "dice": d}
    if 5 in games:
        ev["planets"] = values
    return ev


def pc_slices(state, points):
    """How many slices of CHECK_UNITS the rules' own check of `points`
    takes on the PC (the board runs the same code, so the same units),
    and its refusal, if any."""
    job = moonstar.begin(state, {"type": "result", "points": points})
    steps = 0
    try:
        while True:
            steps += 1
            if job.step(CHECK_UNITS) is not None:
                return steps, None
    except RuleError as e:
        return steps, str(e)


def knows_the_best(scr, best):
    """The result screen with the best already there: its line, or (the
    bidder made exactly the best) the banner that says so."""
    if scr.split("\n")[0] == "Best possible!":
        return "made %d" % best in scr
    return "R1 result" in scr and re.search(r"best possible:? *%d$" % best, scr, re.M) is not None


def checking(b, bests=None):
    """Loop passes, one at a time, while the panel says "checking...":
    (passes, the minute's seconds shown on each). `bests`, a list: gets
    the best possible each checking panel shows (None: not shown)."""
    passes = 0
    shown = []
    while passes < 20000:
        scr = st.screen(b)
        if "checking" not in scr:
            return passes, shown, scr
        m = re.search(r"time left (\d+) s", scr)
        if m:
            shown.append(int(m.group(1)))
        if bests is not None:
            bests.extend(told([scr]))
        b.tick()
        passes += 1
    raise AssertionError("still checking after 20000 passes")


def accepted_best(b, flash, scr, best):
    """The best was entered and kept: the result screen (`scr`) tells it,
    the journal replays to a made bid of it, and nothing faulted."""
    assert knows_the_best(scr, best), scr
    m = st.replay(flash)
    assert m.state["last"]["points"] == best and m.state["last"]["made"], m.state["last"]
    st.no_faults(b)


def press_watching(b, name):
    """A press as b.press makes it (80 ms down, 100 up), a loop pass at a
    time: the panel after each pass."""
    from moontable.sim.board_link import BUTTONS

    seen = []
    b.set_buttons(b.mask | BUTTONS[name])
    for k in range(9):
        if k == 4:
            b.set_buttons(b.mask & ~BUTTONS[name])
        b.tick(20)
        seen.append(st.screen(b))
    return seen


def told(screens):
    """The best possible on each checking panel among `screens`, in order."""
    got = []
    for scr in screens:
        m = re.search(r"best possible: *(\d+)", scr)
        if "checking" in scr:
            got.append(int(m.group(1)) if m else None)
    return got


def hard_round(tmp_path, minutes):
    """A two-player Game 12 started through the buttons, then the hardest
    timed set-up's round journaled on its flash as the board would
    journal it (with the CRC): the set-up, P2's bid of the best, and
    `minutes` time-ups (1: playing; 2: the play minute over too).
    Returns (the set-up's best, the flash folder, the state)."""
    hard = hardest_timed()
    sit = hard["sit"]
    b = st.new_board(tmp_path)
    try:
        st.start_two_player_moonstar(b, "12 Setter picks", "P1")
    finally:
        b.kill()
    flash = tmp_path / "flash"
    game = sorted((flash / "data" / "games").glob("*.jsonl"))[-1]
    events = [variants(sit), {"type": "setup", "planets": sit["planets"], "moons": sit["moons"], "dice": sit["dice"]},
              {"type": "bid", "player": 1, "amount": hard["best"]}] + [{"type": "time_up"}] * minutes
    with open(game, "ab") as f:
        for ev in events:
            f.write(encode(ev))
    state = replay_file(str(game)).match.state
    assert state["sit"]["moons"] == sit["moons"]
    return hard["best"], flash, state


def test_a_result_on_the_hardest_corpus_set_up_is_checked_in_slices(tmp_path):
    best, flash, state = hard_round(tmp_path, 1)
    assert state["phase"] == "playing", state["phase"]
    refuse_steps, why = pc_slices(state, best + 1)
    assert why == "%d is more than this set-up allows (best possible %d)" % (best + 1, best), why
    assert refuse_steps >= 20, refuse_steps  # far more than one pass's work

    b = SimBoard(flash, seed=7, do_deploy=False).start()
    try:
        b.advance(300)
        assert "PAUSED" in st.screen(b), st.screen(b)
        b.long_press("ok")  # the play minute resumes
        b.press("ok")  # the points entry, at the bid
        scr = st.screen(b)
        assert "scored?" in scr and "bid %d" % best in scr, scr
        b.press("up")  # best + 1, before the entry's own solve has capped it
        p0 = b.passes
        b.press("ok")
        unproved = []
        passes, shown, scr = checking(b, unproved)
        # points above the best are never proved: the panel does not tell
        # the best while the minute runs, nor does the refusal below
        assert unproved and set(unproved) == {None}, unproved
        # one slice a pass: the board took at least as many passes as the
        # check has slices (a check done in one call would take one)
        assert b.passes - p0 >= refuse_steps, (b.passes - p0, refuse_steps)
        # the minute kept counting, shown on the panel all along
        assert len(shown) >= passes - 1 and shown[0] > shown[-1], shown[:3] + shown[-3:]
        assert shown == sorted(shown, reverse=True)
        said = scr.replace("\n", " ")
        assert "%d is more than this set-up allows" % (best + 1) in said and "best" not in said, scr
        assert not [e for e in st.journal_events(flash) if e["type"] == "result"]  # refused: nothing journaled
        st.wait_toast(b)
        # the best itself is accepted: back on the game screen, alone, the
        # set-up is solved ahead, and its plan is the check's proof
        b.advance(3000)
        b.press("ok")
        scr = st.screen(b)
        assert "scored?" in scr, scr
        # the playing minute still runs, but the points are proved (the
        # solve's plan reaches them): the checking panel tells the best
        # from its first frame, as the result screen after it will
        seen = press_watching(b, "ok")
        bests = []
        passes, shown, scr = checking(b, bests)
        assert passes <= 3, passes  # loading the check's code; no search
        panels = told(seen) + bests
        assert panels and set(panels) == {best}, panels
        # the result screen's first frame has the best, with no solve of its own
        accepted_best(b, flash, scr, best)
    finally:
        b.kill()


def test_the_game_screen_solves_the_set_up_ahead_of_the_points_entry(tmp_path):
    """The play minute over, the game screen alone solves the round's
    set-up ahead (ui/moonstar/game.py ahead), a slice a loop pass: the
    points entry opened afterwards knows the best from its first frame
    (its caption and the picker's top), and the check needs no search."""
    best, flash, state = hard_round(tmp_path, 2)
    b = SimBoard(flash, seed=7, do_deploy=False).start()
    try:
        b.advance(3000)  # (a solve of some 50 passes here: 686 units, at most 16 a pass)
        seen = press_watching(b, "ok")
        entry = [x for x in seen if "scored?" in x]
        if not entry:  # the action menu first
            st.choose(b, "Enter result")
            entry = [st.screen(b)]
        assert "bid %d best %d" % (best, best) in entry[0], entry  # its first frame
        b.press("up")  # the picker stops at the best, and says so
        assert "%d is the best this set-up allows" % best in st.screen(b).replace("\n", " "), st.screen(b)
        st.wait_toast(b)
        seen = press_watching(b, "ok")
        passes, shown, scr = checking(b)
        assert passes <= 3, passes  # loading the check's code; no search
        assert told(seen) and set(told(seen)) == {best}, seen
        accepted_best(b, flash, scr, best)
    finally:
        b.kill()


def test_a_screen_over_the_game_screen_stops_its_solve_ahead(tmp_path):
    """The game menu opened at once (BACK) stops the game screen's solve
    ahead: however long the menu stays, the points entry opened as soon
    as it closes has no best yet, and solves the set-up itself. Back on
    the game screen alone, the solve ahead starts again."""
    best, flash, state = hard_round(tmp_path, 2)
    b = SimBoard(flash, seed=7, do_deploy=False).start()
    try:
        b.advance(100)
        b.press("back")  # the game menu
        assert "Time up now" in st.screen(b) or "Standings" in st.screen(b), st.screen(b)
        b.advance(3000)
        b.press("back")  # the menu closes: the game screen
        b.press("ok")  # at once: the entry
        if "scored?" not in st.screen(b):
            st.choose(b, "Enter result")
        assert "scored?" in st.screen(b) and "best ..." in st.screen(b), st.screen(b)
        b.press("back")  # the entry cancelled: the game screen alone again
        b.advance(3000)
        b.press("ok")
        if "scored?" not in st.screen(b):
            st.choose(b, "Enter result")
        assert "bid %d best %d" % (best, best) in st.screen(b), st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()


def test_the_points_entrys_plan_accepts_the_result_without_a_search(tmp_path):
    """The same set-up once the playing minute is over: the points entry
    solves it while it is shown (its caption then tells the best), and
    its plan is the proof the rules accept the points with, so the check
    takes the passes that load its code and no search, and the result
    screen tells the best at once, without solving again."""
    best, flash, state = hard_round(tmp_path, 2)
    assert state["phase"] == "result", state["phase"]
    accept_steps, why = pc_slices(state, best)
    assert why is None and accept_steps >= 10, accept_steps  # a search would take that many passes

    b = SimBoard(flash, seed=7, do_deploy=False).start()
    try:
        b.advance(300)
        b.press("ok")
        scr = st.screen(b)
        if "scored?" not in scr:  # the action menu first
            st.choose(b, "Enter result")
        b.advance(3000)  # the entry's own solve, in slices
        scr = st.screen(b)
        assert "scored?" in scr and "bid %d best %d" % (best, best) in scr, scr
        seen = press_watching(b, "ok")
        passes, shown, scr = checking(b)
        assert passes <= 3, passes  # loading the check's code; no search
        # the checking panel told the points and the best from its first frame
        first = [x for x in seen if "checking" in x]
        assert first and "points: %d" % best in first[0], seen
        assert told(seen) and set(told(seen)) == {best}, seen
        # the result screen knew the best on its first frame, with no solve
        # of its own
        assert knows_the_best(scr, best), scr
        b.advance(3000)
        scr = st.screen(b)
        assert re.search(r"best possible:? *%d$" % best, scr, re.M) and "the best!" in scr, scr
        m = st.replay(flash)
        assert m.state["last"]["points"] == best and m.state["last"]["made"], m.state["last"]
        st.no_faults(b)
    finally:
        b.kill()


def test_an_ok_before_the_entrys_solve_ends_shows_the_best_as_soon_as_it_is_known(tmp_path):
    """The play minute over, the points' OK pressed at once: the checking
    panel shows the points, then the best possible in the pass the
    entry's solve ends, ahead of the check, the journal and the result
    screen's code (some 500 ms on a Pico; on this board they may all
    fit in the next pass)."""
    best, flash, state = hard_round(tmp_path, 2)
    b = SimBoard(flash, seed=7, do_deploy=False).start()
    try:
        b.advance(300)
        b.press("ok")
        if "scored?" not in st.screen(b):  # the action menu first
            st.choose(b, "Enter result")
        scr = st.screen(b)
        assert "scored?" in scr and "best ..." in scr, scr  # the entry's solve is under way
        seen = press_watching(b, "ok")
        bests = []
        passes, shown, scr = checking(b, bests)
        panels = told(seen) + bests
        # first the points alone, for passes: the solve goes on under the
        # checking panel; then the best, from the pass the solve ends,
        # before the check's code, the check and the journal
        assert "points: %d" % best in [x for x in seen if "checking" in x][0], seen
        assert best in panels, panels
        k = panels.index(best)
        assert k > 2 and set(panels[:k]) == {None} and set(panels[k:]) == {best}, panels
        accepted_best(b, flash, scr, best)
    finally:
        b.kill()
