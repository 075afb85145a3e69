"""Moonstar's points entry when the round's situation is known: the number
picker stops at the best score the set-up allows and says so, instead of
accepting a slip like "points: 70" where the dice allowed 56 (the rules
refuse it too, with the same figure).

The best comes from the solver: the game screen's solve ahead of this
entry (ui/moonstar/game.py ahead) when it had the time, else this
entry's own, run in slices while the picker is shown
(ui/moonstar/solve.py); until it is known the picker's top is the rules'
own maximum and the caption says "best ...". While the playing minute
still runs the best is not told (a spoiler for the bidder): the caption
gives the bid only, a refusal leaves it out too, and the best is told
once the points are entered and proved (ui/moonstar/check.py) or on the
result screen. The answer (best and plan)
then feeds the rules' check, whose proof is the plan when it reaches the
points (no search), and the result screen, which steps through the plan
without solving again: an OK before the solve ends hands the solve on to
the check's screen, which runs it to its end first (lighter than this
one, so the solve's peak is lower there). This module is unloaded before
the result is submitted."""

from buttons import PRESS, UP
from ui.dialogs import NumberPick
from ui.moonstar.result import after_result, points_title, submit_later
from ui.moonstar.solve import Slices

TOAST_MS = 1500


class PointsPick(NumberPick):
    """`spec` is legal()'s result spec (min, max); `bid` the bid to make;
    on_done(points, solve) gets the entry's solve (a Slices: its answer,
    or the solve still under way when the OK was quicker, which the
    result's check then runs on: ui/moonstar/check.py)."""

    def __init__(self, app, title, spec, bid, sit, on_done, on_back, tell=True):
        self.slices = Slices(sit, app, app.session)
        self.bid = bid
        # the best is told (and the picker stops there) only once the play
        # is over: entered while the playing minute still runs, it would
        # tell the bidder what to aim for (the result screen tells it after)
        self.tell = tell
        a = self.slices.answer  # known if the game screen solved the set-up ahead
        hi = min(spec["max"], a["best"]) if a is not None and tell else spec["max"]
        super().__init__(app, title, spec["min"], hi, min(bid, hi),
                         lambda v: on_done(v, self.slices), self._caption(), on_back=on_back)

    @property
    def pending(self):
        """The solve while it is under way: the loop runs its next slice
        at once, without a pass's sleep."""
        return self.slices.running()

    def _caption(self):
        a = self.slices.answer
        if not self.tell:
            return "bid %d" % self.bid
        return "bid %d best %s" % (self.bid, "..." if a is None else a["best"])

    def update(self, now):
        if not self.slices.update():
            return False
        a = self.slices.answer
        if a is not None and self.tell:
            self.hi = min(self.hi, a["best"])
            if self.value > self.hi:
                self.value = self.hi
        self.caption = self._caption()
        return True

    def button(self, b, kind, count):
        a = self.slices.answer
        if b == UP and kind == PRESS and a is not None and self.tell and self.value >= self.hi:
            self.app.toast("%d is the best this set-up allows" % self.hi, TOAST_MS)
            return
        super().button(b, kind, count)

    def leave(self):
        """Drop an unfinished solve (BACK: the entry was cancelled)."""
        self.slices.stop()


def enter(s, spec):
    """The bidder's points (legal()'s result `spec`) when the situation is
    known: the picker stops at the best possible and the result screen
    follows. (Without one, the plain entry: ui/moonstar/result.py.)"""
    app = s.app
    st = s.state

    def done(points, solve):
        # this screen and its code go; a solve still under way goes on
        # in the result's check, with its code (submitted on the next
        # loop pass), and its answer is the check's proof and the
        # result screen's best
        app.pop(solve.loaded())
        submit_later(s, {"type": "result", "points": points}, after_result, solve, pick.tell)

    def back():
        pick.leave()
        app.pop()

    pick = PointsPick(app, points_title(s), spec, st["bid"], st["sit"], done, back, st["phase"] != "playing")
    app.push(pick)
