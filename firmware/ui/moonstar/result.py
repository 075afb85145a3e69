"""What follows a Moonstar result or set-up entered on the device: the
event submitted on the next loop pass, then the last round's screen (or a
toast). And the points entry of a round whose set-up the device was not
told: a plain number, which has nothing to solve, so it loads no more than
the number picker's code and this module, and hands the result to the
rules in the next pass."""

import sys

from ui.base import Screen


class _Later(Screen):
    """Submits an event on the next loop pass, once the screen that entered
    it (the points entry, the set-up entry) and its code are gone: the
    rules then need the room (a result is checked by solving the set-up
    again, and legal() follows every event). `then(s)` follows an accepted
    event: the result screen after a result, the board after a set-up."""

    def __init__(self, app, s, ev, then):
        super().__init__(app)
        self.s = s
        self.ev = ev
        self.then = then

    def update(self, now):
        if "shared_rules.timer" not in sys.modules:
            # the minute a set-up starts: the sand timer's code in a pass
            # of its own first (the session keeps it from then on)
            self.s.timer_code()
            return False
        s = self.s
        app = self.app
        then = self.then
        app.pop(collect=False)  # the submit is this pass's work
        try:
            if s.submit(self.ev) and then is not None:
                then(s)
        except Exception as e:  # as for a button: the game and the timer go on
            app.fault(e)
        return True


def submit_later(s, ev, then=None, solve=None, tell=False):
    """`then` follows an accepted event: then(s), and for a result then(s,
    the solve's answer). `solve`: the points entry's solve of the set-up
    (ui/moonstar/solve.py Slices, done or under way): its plan is the
    check's proof. `tell`: the entry told its best, and so may the check's
    screen."""
    if ev["type"] == "result":  # checked in slices first (ui/moonstar/check.py)
        from ui.moonstar.check import Check

        s.app.push(Check(s.app, s, ev, then, solve, tell))
        return
    s.app.push(_Later(s.app, s, ev, then))


def points_title(s):
    """The points entry's title, "Alice scored?", as (name, words): the
    title bar cuts the name only where the minute's countdown leaves it
    no room (ui.base.title_bar)."""
    bid = s.state["bidder"]
    return (s.names()[bid] if bid is not None else "", " scored?")


def enter_points(s, spec):
    """The bidder's points (legal()'s result `spec`) without a known
    situation: a plain number picker (one field: no form's code), then a
    toast. (With one, the picker that stops at the best possible: ui/
    moonstar/points.py.)"""
    from ui.dialogs import NumberPick

    app = s.app
    bid = s.state["bid"]

    def done(points):
        # the entry and its code go in this pass, the result is kept in
        # the next (_Later): on a Pico the two in one pass took over 100 ms
        app.pop()
        was = s.state["scores"]  # for the toast: what the round did to the score
        app.push(_Later(app, s, {"type": "result", "points": points}, lambda s: after_result(s, None, was)))

    app.push(NumberPick(app, points_title(s), spec["min"], spec["max"], min(bid, spec["max"]), done, "bid %d" % bid))


def after_result(s, answer, was=None):
    """The result screen when the situation was known, else a toast that
    says what the round did to the bidder's score ("Bob failed 30: -25";
    `was`: the scores before the result). Not the points scored: beside
    a failed challenge's -25, "(25 points)" read as what the bidder lost."""
    last = s.state.get("last") or {}
    p = last.get("bidder")
    if p is None:
        return
    if last.get("sit"):
        show_best(s, answer)  # says made/failed too, beside the best possible
    else:
        said = "%s %s %d" % (s.names()[p], "made" if last["made"] else "failed", last["bid"])
        if was is not None:
            said += ": %+d" % (s.state["scores"][p] - was[p])
        s.app.toast(said)


def show_best(s, answer=None):
    """The last round's points beside the best possible, then the plan
    (ui/moonstar/best.py); `answer`: the solver's, when the points entry
    already has it. Its code (some 100 ms of a Pico's time) loads over the passes after
    the one that asks (App.prepare)."""
    app = s.app
    st = s.state

    def open_it():
        from ui.moonstar.best import BestPossible

        app.push(BestPossible(app, st["round"], st["last"], answer))

    app.prepare(_BEST, open_it)


# What the best possible's screen loads, leaf first.
_BEST = ("ui.gcommon", "ui.moonstar.solve", "ui.moonstar.best")
