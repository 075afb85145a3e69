"""What follows a Moonstar result or set-up entered on the device: the
event submitted on the next loop pass, then the last round's screen (or a
toast). Loaded by the entries that need it and for the game menu's "Last
round"; unloaded with the game screen's other helpers (g_moonstar.HELPERS),
so the bidding minute, the longest stretch of a round, does not carry it."""

from screens.base import Screen
from shared_rules.errors import RuleError


CHECK_UNITS = 8  # the result check's units of solver work per loop pass (docs/solver.md)
SPIN = "|/-\\"


class _Later(Screen):
    """Submits an event on the next loop pass, once the screen that entered
    it (the points entry, the set-up entry) and its code are gone: the
    rules then need the room (a result is checked by solving the set-up
    again, and legal() follows every event). After a result the result
    screen follows (with the solver's `answer`, if there was time for
    one), after a set-up its drawing.

    A result entered as points against a known set-up is checked in
    slices first (the rules' begin(): at most CHECK_UNITS units of solver
    work per pass), with "checking..." and a spinner on the panel, so the
    minute, the buttons and the link keep going; only then is it
    journaled and applied, with the state the check gave. BACK drops an
    unfinished check and the result with it."""

    def __init__(self, app, s, ev, answer):
        super().__init__(app)
        self.s = s
        self.ev = ev
        self.answer = answer
        self.pending = None  # the rules' check in slices
        self.base = None  # the state it checks against
        self.passes = 0

    def update(self, now):
        s = self.s
        app = self.app
        try:
            if self.pending is None:
                from screens.g_moonstar import unload_helpers

                unload_helpers()
                if self.ev["type"] != "result":
                    return self._commit(None)
                self.base = s.state
                self.pending = s.match.rules.begin(self.base, self.ev)
                # and a first slice in this same pass: most checks end in
                # it, and leave nothing of theirs on the heap between passes
            elif s.state is not self.base:  # the game moved on (the PC, an undo): check again
                self.pending = None
                return False
            self.passes += 1
            new = self.pending.step(CHECK_UNITS)
            if new is None:
                return True  # the spinner turns
            return self._commit(new)
        except RuleError as e:
            app.pop()
            s.shed()
            app.toast(str(e))
        except Exception as e:  # as for a button: the game and the timer go on
            app.pop()
            app.fault(e)
        return True

    def _commit(self, checked):
        from screens.g_moonstar import show_situation

        s = self.s
        self.pending = None
        self.app.pop()
        if s.submit(self.ev, checked):
            if self.ev["type"] == "result":
                after_result(s, self.answer)
            else:
                show_situation(s)
        return True

    def button(self, b, kind, count):
        from buttons import BACK, PRESS

        if b == BACK and kind == PRESS:
            self.pending = None
            self.app.pop()
            self.s.shed()
            self.app.toast("result not entered")

    def draw(self, d):
        from screens.base import title_bar

        title_bar(d, "Result")
        d.text("checking...", 0, 20, 1)
        d.text(SPIN[self.passes % 4], 120, 20, 1)
        t = self.s.timer
        if t is not None and t.running:  # the minute goes on meanwhile
            d.text("time left %d s" % t.seconds_shown(), 0, 36, 1)
        d.text("BACK: cancel", 0, 56, 1)


def submit_later(s, ev, answer=None):
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
