"""The Moonstar "best possible" screen (firmware/ui/moonstar/best.py): the
solver runs in slices from the main loop (a unit cap and a time budget per
pass), "..." shows until the answer is ready, the answer is the solver's,
and the solver's modules are unloaded afterwards. Plain test_* functions:
they run under CPython (pytest) and MicroPython (test_firmware_upy.py)."""

import sys

from app import App as Device
from buttons import OK, PRESS

# 15 moons, 11 dice, Game 7's squares (Game 12 with Game 3): a set-up a
# hill-climb found hard for the solver, some 1,200 units of work, far more
# than one pass may do.
HARD = {"stars": 12, "planets": [], "moons": [5, 3, 9, 9, 10, 7, 1, 0, 5, 8, 6, 11, 3, 3, 9],
        "dice": [3, 4, 3, 4, 3, 4, 4, 3, 4, 5, 3], "scoring": "squares", "movement": "standard",
        "favorite_star": False}
# The standard game with Game 6's Favorite Star.
FAV = {"stars": 12, "planets": [[4, 1], [1, 7], [6, 8], [3, 10]], "moons": [3, 11, 3, 9, 7, 7, 7],
       "dice": [6, 3, 2, 6, 4, 2, 4], "scoring": "planets", "movement": "standard", "favorite_star": True}


def solve(sit):
    """The solver's answer, computed apart from the screen (imported after
    the screen has unloaded it, and unloaded again: MicroPython compiles
    these from source here, within a 64 KB heap)."""
    import gc

    from loader import drop
    from shared_rules.moonstar.solver import solve as run

    best = run(sit)["best"]
    run = None
    drop(("shared_rules.moonstar.solver", "shared_rules.moonstar.piles"))
    gc.collect()
    return best


class Display:
    """Records the text drawn, by line (y)."""

    def __init__(self):
        self.lines = {}

    def text(self, s, x, y, c=1):
        self.lines.setdefault(y, []).append((x, s))

    def fill_rect(self, *a):
        pass

    def line_text(self, y):
        return " ".join([s for _, s in sorted(self.lines.get(y, []))])


class Clock:
    def __init__(self, step=0):
        self.now = 0
        self.step = step

    def ticks_ms(self):
        self.now += self.step
        return self.now


class Session:
    def __init__(self):
        self.notes = {}

    def names(self):
        return ["Ann", "Bob"]


class App:
    fetch = Device.fetch  # the real one, on the clock given

    def __init__(self, clock):
        self.board = clock
        self.session = Session()
        self.stack = ["game"]
        self.popped = 0

    toast_lines = None

    def pop(self):
        self.stack.pop()
        self.popped += 1

    def push(self, screen):
        self.stack.append(screen)

    def ticks(self):
        return self.board.ticks_ms()


def _screen(sit, points=20, clock=None):
    import gc

    # The screen's solve lets go of what it loaded (ui/moonstar/solve.py):
    # start with no solver module loaded by an earlier test of the run.
    from loader import drop

    drop([k for k in sys.modules if k.startswith("shared_rules.moonstar.")])
    gc.collect()
    from ui.moonstar.best import BestPossible

    app = App(clock or Clock())
    last = {"setter": 0, "bidder": 1, "bid": 20, "points": points, "made": points >= 20, "sit": sit}
    scr = BestPossible(app, 3, last)
    app.stack.append(scr)
    return app, scr


def _best_line(scr):
    d = Display()
    scr.draw(d)
    return d.line_text(42), d


def _build(scr, limit=50):
    """Loop passes until the solver is built: its first pass only marks
    what is loaded, the next load its modules (App.fetch, FETCH_MS a
    pass) and build it. Passes used."""
    for n in range(1, limit):
        scr.update(n * 20)
        if scr.solver is not None:
            return n
    raise AssertionError("no solver after %d passes" % limit)


def _run(scr, limit=10000):
    """Loop passes until the screen reports the answer; passes used."""
    for n in range(1, limit):
        if scr.update(n * 20):
            return n
    raise AssertionError("no answer after %d passes" % limit)


def test_hard_situation_takes_several_passes_showing_dots():
    from ui.moonstar import solve as ms_best

    app, scr = _screen(HARD)
    line, d = _best_line(scr)
    assert line == "best possible ...", line
    assert d.line_text(1) == "R3 result"
    assert d.line_text(32) == "points: 20"
    assert _build(scr) == 2  # a pass marks, the next loads the solver and builds its tables
    assert "shared_rules.moonstar.solver" in sys.modules
    dots = 0
    passes = 1
    while not scr.update(passes * 20):
        passes += 1
        units = scr.solver.units
        assert units <= ms_best.SOLVE_UNITS * (passes - 1), (units, passes)
        if _best_line(scr)[0] == "best possible ...":
            dots += 1
        assert passes < 10000
    assert "shared_rules.moonstar.solver" not in sys.modules and "shared_rules.moonstar.piles" not in sys.modules
    assert scr.solver is None
    assert not scr.update(99999)  # nothing more to do, nothing to redraw
    assert passes > 3 and dots == passes - 1, (passes, dots)
    got = scr.best
    shown = _best_line(scr)[0]
    app = scr = None
    want = solve(HARD)
    assert got == want, (got, want)
    assert shown == "best possible: %d" % want, shown
    assert _best_line(_screen(HARD)[1])[0] == "best possible ..."


def test_the_first_steps_code_goes_once_the_search_is_in_parts():
    """The slices let piles_start go in the pass the search goes in parts
    (pairs loaded), which HARD's does: the parts never use it, and the
    answer is the same."""
    start, parts = "shared_rules.moonstar.piles_start", "shared_rules.moonstar.pairs"
    app, scr = _screen(HARD)
    passes = _build(scr)
    assert start in sys.modules and parts not in sys.modules
    seen = 0
    while not scr.update(passes * 20):
        passes += 1
        if parts in sys.modules:
            seen += 1
            assert start not in sys.modules
        assert passes < 10000
    assert seen > 1, seen
    got = scr.best
    app = scr = None
    assert got == solve(HARD)


def test_time_budget_cuts_a_pass_short():
    from ui.moonstar import solve as ms_best

    # every clock reading moves the clock a whole budget on: one unit per pass
    app, scr = _screen(HARD, clock=Clock(ms_best.SOLVE_MS))
    _build(scr)  # the loading ahead is cut by the clock too (FETCH_MS)
    for k in range(1, 6):
        assert not scr.update(k)
        assert scr.solver.units == k, (scr.solver.units, k)
    scr.close()


def test_favorite_star_answer_and_a_made_best_marked():
    want = solve(FAV)
    app, scr = _screen(FAV, points=want)
    _run(scr)
    assert scr.best == want
    line, d = _best_line(scr)
    assert line == "best possible: %d" % want, line
    assert d.line_text(21) == "made the best!", d.line_text(21)  # the bidder found the best round
    banner = app.stack[-1]
    assert banner is not scr and "Best possible!" in banner.lines, banner.lines  # the Moment, over the screen
    app, scr = _screen(FAV, points=want - 1)
    _run(scr)
    line, d = _best_line(scr)
    assert d.line_text(12) == "Bob bid 20" and d.line_text(21) == "made"


def test_leaving_early_unloads_the_solver_and_the_screen():
    app, scr = _screen(HARD)
    _build(scr)
    scr.update(20)
    assert scr.best is None and "shared_rules.moonstar.solver" in sys.modules
    scr.button(OK, PRESS, 1)
    assert app.popped == 1 and app.stack == ["game"]
    assert "shared_rules.moonstar.solver" not in sys.modules  # the screen's own code goes with App.pop


def test_three_digit_best_fits_the_line():
    from ui.moonstar.best import BestPossible

    app = App(Clock())
    scr = BestPossible(app, 1, {"bidder": 0, "bid": 90, "points": 100, "made": True, "sit": HARD},
                       {"best": 225, "plan": [], "favorite": None})
    d = Display()
    scr.draw(d)
    texts = d.lines[42]
    assert [s for _, s in texts] == ["best possible", "225"]
    # the label ends before the number starts (8 px per character)
    assert texts[0][0] + 8 * len(texts[0][1]) <= texts[1][0]
