"""Entering an event field by field (firmware/ui/form.py): one field's
screen is on the stack at a time, BACK asks the field before again with
the answer given there selected, BACK on the first field cancels, and the
last answer hands every answer over. Plain test_* functions: they run
under CPython (pytest) and MicroPython (test_firmware_upy.py)."""

from buttons import BACK, DOWN, OK, PRESS
from ui.dialogs import NumberPick
from ui.form import Form, MultiPick


class App:
    """The few parts of firmware/app.App a Form and its screens use."""

    def __init__(self):
        self.stack = ["game screen"]

    def push(self, screen):
        self.stack.append(screen)

    def swap(self, screen):
        self.stack[-1] = screen

    def pop(self):
        self.stack.pop()

    def pop_to(self, depth):
        del self.stack[depth:]


def _ask(ev):
    """Who, how many, then which planets: a pick, a number, a multi."""
    if "who" not in ev:
        return ("who", "Who?", "pick", [("Ann", 0), ("Bob", 1), ("Cy", 2)], "")
    if "n" not in ev:
        return ("n", "How many?", "num", (1, 9, 3), "")
    if "planets" not in ev:
        return ("planets", "Which?", "multi", [("Jupiter", 0), ("Saturn", 1), ("Uranus", 2)], "")
    return None


def _press(app, b):
    app.stack[-1].button(b, PRESS, 1)


def _form():
    app = App()
    got = []
    Form(app, _ask, got.append).start()
    return app, got


def test_each_answer_replaces_its_screen_with_the_next_field():
    app, got = _form()
    assert len(app.stack) == 2 and app.stack[-1].title == "Who?"
    _press(app, DOWN)
    _press(app, OK)  # Bob
    assert len(app.stack) == 2 and isinstance(app.stack[-1], NumberPick)
    _press(app, OK)  # 3, the default
    assert len(app.stack) == 2 and isinstance(app.stack[-1], MultiPick)
    _press(app, OK)  # tick Jupiter
    for _ in range(3):
        _press(app, DOWN)
    _press(app, OK)  # Done
    assert app.stack == ["game screen"]
    assert got == [{"who": 1, "n": 3, "planets": [0]}]


def test_back_asks_the_field_before_again_with_its_answer_selected():
    app, got = _form()
    _press(app, DOWN)
    _press(app, DOWN)
    _press(app, OK)  # Cy
    _press(app, DOWN)
    _press(app, OK)  # 2
    _press(app, BACK)  # from the planets to the number: 2 again
    pick = app.stack[-1]
    assert len(app.stack) == 2 and isinstance(pick, NumberPick) and pick.value == 2
    _press(app, BACK)  # to the player: Cy still selected
    menu = app.stack[-1]
    assert len(app.stack) == 2 and menu.title == "Who?" and menu.index == 2
    _press(app, OK)
    _press(app, OK)  # the number entry offers 3 again (its default): nothing was kept of the 2
    assert app.stack[-1].ticked == []
    _press(app, BACK)
    assert app.stack[-1].value == 3
    _press(app, BACK)
    _press(app, BACK)  # BACK on the first field: cancelled, nothing handed over
    assert app.stack == ["game screen"] and got == []


def test_back_to_a_multi_pick_keeps_its_ticks():
    app = App()
    got = []

    def ask(ev):  # a multi, then a pick
        if "planets" not in ev:
            return ("planets", "Which?", "multi", [("Jupiter", 0), ("Saturn", 1)], "")
        if "ok" not in ev:
            return ("ok", "Sure?", "pick", [("Yes", True), ("No", False)], "")
        return None

    Form(app, ask, got.append).start()
    _press(app, DOWN)
    _press(app, OK)  # tick Saturn
    _press(app, DOWN)
    _press(app, OK)  # Done
    _press(app, BACK)
    assert app.stack[-1].ticked == [1]
    _press(app, DOWN)
    _press(app, DOWN)
    _press(app, OK)  # Done again
    _press(app, OK)  # Yes
    assert got == [{"planets": [1], "ok": True}] and app.stack == ["game screen"]
