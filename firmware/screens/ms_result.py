"""What follows a Moonstar result or set-up entered on the device: the
event submitted on the next loop pass, then the last round's screen (or a
toast). Loaded by the entries that need it and for the game menu's "Last
round"; unloaded with the game screen's other helpers (g_moonstar.HELPERS),
so the bidding minute, the longest stretch of a round, does not carry it."""

from screens.base import Screen


class _Later(Screen):
    """Submits an event on the next loop pass, once the screen that entered
    it (the points entry, the set-up entry) and its code are gone: the
    rules then need the room (a result is checked by solving the set-up
    again, and legal() follows every event). After a result the result
    screen follows (with the solver's `answer`, if there was time for
    one), after a set-up its drawing."""

    def __init__(self, app, s, ev, answer):
        super().__init__(app)
        self.s = s
        self.ev = ev
        self.answer = answer

    def update(self, now):
        from screens.g_moonstar import unload_helpers, show_situation

        s = self.s
        app = self.app
        app.pop()
        unload_helpers()
        try:
            if s.submit(self.ev):
                if self.ev["type"] == "result":
                    after_result(s, self.answer)
                else:
                    show_situation(s)
        except Exception as e:  # as for a button: the game and the timer go on
            app.fault(e)
        return True


def submit_later(s, ev, answer=None):
    if ev["type"] == "result":  # checked in slices first (screens/ms_check.py)
        from screens.ms_check import Check

        s.app.push(Check(s.app, s, ev, answer))
        return
    s.app.push(_Later(s.app, s, ev, answer))


def after_result(s, answer):
    """The result screen when the situation was known, else a toast."""
    last = s.state.get("last") or {}
    if last.get("bidder") is None:
        return
    if last.get("sit"):
        show_best(s, answer)  # says made/failed too, beside the best possible
    else:
        s.app.toast("%s %s %d (%d points)" % (s.names()[last["bidder"]], "made" if last["made"] else "failed",
                                              last["bid"], last["points"]))


def show_best(s, answer=None):
    """The last round's points beside the best possible, then the plan
    (screens/ms_best.py, loaded for that screen only); `answer`: the
    solver's, when the points entry already has it."""
    from screens.ms_best import BestPossible

    cover(s, BestPossible(s.app, s.state["round"], s.state["last"], answer))


def cover(s, screen):
    """Open `screen` over the game screen and unload the game screen's
    module (with the action helper, which imports it, the forms the game
    screen asks with, the drawing helpers, and this module) while it
    shows: the points entry and the best-possible screen run the solver,
    which needs the room. The game screen loads its module again when it
    shows (Play.ui), so `screen` must not hold on to anything of those
    modules."""
    from modules import drop

    s.app.push(screen)
    drop("screens.g_moonstar screens.ms_act screens.form screens.gcommon screens.ms_result")
