"""The loop sleeps long (App.still, STILL_MS) only while nothing but a
press or a byte from the PC can change the panel: a board's sleep ends at
either, and a pass every 20 ms at Home cost a Pico 5-10% of its time for
nothing. Anything that moves with time keeps the short sleep. The real
App.step() on test_prepare's bare app. Plain test_* functions: CPython
(pytest) and MicroPython (test_firmware_upy.py)."""

from app import LOOP_MS, STILL_MS
from test_prepare import BareApp, Board, Screen
from ui.base import Menu


def _home():
    board = Board(0)
    app = BareApp(board)
    app.push(Menu(app, "Home", [("New game", 1), ("Sand timer", 2)], lambda v: None))
    app.toast_until = 0
    return app, board


def test_a_menu_with_nothing_moving_sleeps_long():
    app, board = _home()
    app.step()
    app.step()
    assert board.sleeps[-1] == STILL_MS > LOOP_MS


def test_a_button_down_a_toast_or_a_screen_that_watches_the_time_keeps_the_short_sleep():
    app, board = _home()
    app.buttons.stable = 1  # UP held: its repeats and a long press are timed
    app.step()
    assert board.sleeps[-1] == LOOP_MS
    app.buttons.stable = 0
    app.step()
    assert board.sleeps[-1] == STILL_MS

    app.toast_lines = ["saved"]  # its end is timed
    app.toast_until = board.now + 3000
    app.step()
    assert board.sleeps[-1] == LOOP_MS
    app.toast_lines = None

    app.inverted = True  # the visual alarm's flashing, until a pass ends it
    app.screen_on = False  # (the panel is off: alarm() leaves it as it is)
    app.step()
    assert board.sleeps[-1] == LOOP_MS
    app.inverted = False
    app.screen_on = True

    app.push(Screen(board))  # an update() of its own and no still(): timed
    app.step()
    assert board.sleeps[-1] == LOOP_MS
    app.pop()
    app.step()
    assert board.sleeps[-1] == STILL_MS
