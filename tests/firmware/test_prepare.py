"""A screen whose code is slow to load opens over several loop passes
(App.prepare), and a pass whose work ran long leaves its drawing to the
next one (App.step, DRAW_AFTER_MS): no single pass carries it all. The
real App.step() runs here on a board whose clock moves at every reading,
as a Pico's does while it loads code. Plain test_* functions: CPython
(pytest) and MicroPython (test_firmware_upy.py)."""

import sys

import loader
from app import DRAW_AFTER_MS, App
from buttons import DOWN, OK, PRESS

_made = [0]


def _modules(n):
    """`n` modules of a line each, in a folder of their own on sys.path,
    never imported yet: their names."""
    _made[0] += 1
    try:
        import tempfile

        folder = tempfile.mkdtemp()
    except ImportError:  # MicroPython's unix port
        import os
        import time

        folder = "/tmp/moontable-prepare-%d-%d" % (time.ticks_us(), _made[0])
        os.mkdir(folder)
    names = []
    for i in range(n):
        name = "prep_mod_%d_%d" % (_made[0], i)
        with open(folder + "/" + name + ".py", "w") as f:
            f.write("X = %d\n" % i)
        names.append(name)
    sys.path.append(folder)
    return names


class Board:
    """A clock that moves `step` ms at every reading (and `work` ms more
    when a screen does its work), no serial, and the sleeps asked."""

    def __init__(self, step):
        self.now = 1000
        self.step = step
        self.sleeps = []
        self.buttons = self

    def ticks_ms(self):
        self.now += self.step
        return self.now

    def read(self):
        return 0

    def read_byte(self):
        return None

    def idle(self, ms):
        self.sleeps.append(ms)


class Presses:
    """The buttons' events: what `due` holds comes in the next pass."""

    stable = raw = 0

    def __init__(self):
        self.due = []

    def update(self, mask, now, since):
        out = self.due
        self.due = []
        return out

    def settle_in(self, now):
        return None


class Nothing:
    off_at = None

    def ms(self):
        return 0

    def update(self, now):
        return None


class Screen:
    """Records its presses; `opens(app)` is what its OK does; `work` ms
    of the board's clock go by in each update()."""

    def __init__(self, board, opens=None, work=0):
        self.board = board
        self.opens = opens
        self.work = work
        self.got = []
        self.dirty = False

    def button(self, b, kind, count):
        self.got.append(b)
        if b == OK and self.opens is not None:
            self.opens()

    def update(self, now):
        self.board.now += self.work
        d = self.dirty
        self.dirty = False
        return d

    def enter(self):
        pass


class Panel:
    """The display as far as App.hourglass() uses it: its show()s counted."""

    def __init__(self):
        self.shows = 0

    def fill_rect(self, x, y, w, h, c):
        pass

    def hline(self, x, y, w, c):
        pass

    def line(self, x0, y0, x1, y1, c):
        pass

    def show(self):
        self.shows += 1


class BareApp(App):
    """The App without flash, on a display that only counts its show()s
    (App.hourglass): the loop's own logic, its drawings counted."""

    def __init__(self, board):
        self.board = board
        self.d = Panel()
        self.buttons = Presses()
        self._since = None
        self.uptime = self.sound = Nothing()
        self.session = self.protocol = self.toast_lines = self._byte = None
        self.conf = {"screen_off": 0}
        self.stack = []
        self.marks = []
        self.before = self.base = loader.mark()
        self.dirty = self.deferred = self.inverted = False
        self.screen_on = self.running = True
        self.prep = None
        self.last_input = 0
        self.pass_at = board.now
        self.drawn = []

    def draw(self):
        self.drawn.append(self.stack[-1])
        self.dirty = False


def test_a_screen_slow_to_load_opens_over_passes_and_gets_the_presses_made_meanwhile():
    board = Board(15)  # fetch() loads two modules a pass at this pace
    app = BareApp(board)
    names = _modules(5)
    opened = []

    def then():
        for n in names:
            assert n in sys.modules  # all loaded before the screen opens
        s = Screen(board)
        opened.append(s)
        app.push(s)

    home = Screen(board, lambda: app.prepare(names, then))
    app.push(home)
    app.step()
    home.dirty = False
    app.drawn = []
    app.buttons.due = [(OK, PRESS, 1)]
    app.step()  # the press: the first share of the code, and nothing drawn
    assert opened == [] and app.prep is not None
    assert 1 <= sum(1 for n in names if n in sys.modules) < len(names)
    assert app.drawn == [] and board.sleeps[-1] == 1  # the next pass comes at once
    assert app.d.shows == 1  # but the hourglass is on the panel, from before the code began to load
    app.buttons.due = [(DOWN, PRESS, 1)]  # pressed while the code loads
    passes = 1
    while not opened:
        app.step()
        passes += 1
        assert passes < 10
    assert passes >= 3  # five modules, two a pass
    new = opened[0]
    assert home.got == [OK] and new.got == [DOWN]  # the press waited for the screen it was meant for
    assert app.stack[-1] is new
    app.step()
    assert new in app.drawn
    # the code loaded for it goes with it
    app.pop()
    for n in names:
        assert n not in sys.modules


def test_a_press_on_a_screen_whose_code_is_loaded_opens_it_in_the_same_pass():
    board = Board(15)
    app = BareApp(board)
    names = _modules(2)
    for n in names:
        __import__(n)
    opened = []
    home = Screen(board, lambda: app.prepare(names, lambda: opened.append(1)))
    app.push(home)
    app.buttons.due = [(OK, PRESS, 1)]
    app.step()
    assert opened == [1] and app.prep is None


def test_going_home_drops_a_screen_under_way():
    board = Board(15)
    app = BareApp(board)
    names = _modules(5)
    opened = []
    home = Screen(board, lambda: app.prepare(names, lambda: opened.append(1)))
    app.push(home)
    app.buttons.due = [(OK, PRESS, 1)]
    app.step()
    assert app.prep is not None
    app.reset()
    assert app.prep is None
    app.push(home)
    for _ in range(5):
        app.step()
    assert opened == []


def test_a_long_pass_leaves_its_drawing_to_the_next_and_that_one_draws_first_whatever_it_takes():
    board = Board(0)
    app = BareApp(board)
    busy = Screen(board, work=DRAW_AFTER_MS + 5)
    app.push(busy)
    app.drawn = []
    busy.dirty = True
    app.step()  # its work took longer than DRAW_AFTER_MS
    assert app.drawn == [] and app.deferred and app.dirty
    assert board.sleeps[-1] == 1
    start = board.now
    drawn_at = []
    draw = app.draw
    app.draw = lambda: (drawn_at.append(board.now), draw())
    app.step()  # as long again: drawn now all the same (never starved) ...
    assert app.drawn == [busy] and not app.deferred and not app.dirty
    assert drawn_at == [start]  # ... and before the pass's work, not after it
    assert board.now >= start + DRAW_AFTER_MS
    del app.draw
    busy.work = 5
    busy.dirty = True
    app.step()  # a short pass draws at once
    assert app.drawn == [busy, busy]


def _one_over_another():
    """(app, below, below's modules, the top's modules): a screen that
    loaded its code, and one opened over it (by a press) that loaded
    its own, whose OK pops it; after a pass that pops it."""
    below_code, over_code = _modules(2), _modules(2)
    app = BareApp(Board(0))
    for name in below_code:
        __import__(name)
    below = Screen(app.board)
    app.push(below)
    app.step()
    app.before = loader.mark()  # the press that opens the screen over it
    for name in over_code:
        __import__(name)
    app.push(Screen(app.board, lambda: app.pop()))
    app.step()
    assert all(n in sys.modules for n in below_code + over_code)
    app.drawn = []
    app.buttons.due = [(OK, PRESS, 1)]
    app.step()  # the pop
    return app, below, below_code, over_code


def test_a_screens_code_goes_when_it_closes():
    """The one rule (App.push, App.pop): what was loaded since the press
    that opened a screen goes when that screen closes."""
    app, below, below_code, over_code = _one_over_another()
    assert app.stack == [below]
    assert not [n for n in over_code if n in sys.modules]


def test_the_screen_below_keeps_its_code_and_draws_in_the_pass_of_the_pop():
    """A screen keeps what it loaded while another is over it, so it
    draws again at once when that one closes (no loading first)."""
    app, below, below_code, over_code = _one_over_another()
    assert app.prep is None and app.drawn == [below]
    assert all(n in sys.modules for n in below_code)
