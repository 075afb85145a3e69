"""A Moonstar result entered on the device, checked in slices before it is
kept (issue 24): the rules' begin() (docs/solver.md), CHECK_UNITS units of
solver work a loop pass, the panel saying so. Loaded for that only: it
goes when its screen closes (App.pop), so the rest of a round does not
carry it."""

from buttons import BACK, PRESS
from ui.base import Screen, text_right, title_bar
from shared_rules.errors import RuleError
from shared_rules.ticks import ticks_diff

CHECK_UNITS = 8  # the result check's units of solver work per loop pass (docs/solver.md)
SPIN = "|/-\\"
SPIN_MS = 250  # the spinner turns at most this often: each turn redraws the panel (25 ms on a Pico)


class Check(Screen):
    """Submits a result on the next loop pass, once the screen that entered
    it and its code are gone (result.submit_later). A result entered as
    points against a known set-up is checked first: by the plan the points
    entry's solve found (that solve, if the OK came before it ended, runs
    to its end here first, a slice a pass), else in slices (the rules'
    begin(): at most CHECK_UNITS units of solver work per pass), with "checking..." and a spinner on the panel, so the
    minute, the buttons and the link keep going; only then is it
    journaled and applied, with the state the check gave. The panel shows
    the points and, once the solve has it, the best possible: at once if
    the entry told it (`tell`: the playing minute was over), else once
    the solve's plan reaches them. Those points are then proved (the
    plan is the rules' proof: nothing can refuse them), so the result
    screen will tell that best anyway: the panel has it a few passes
    sooner, while the check, the journal and that screen's code follow
    (on a Pico, some 300 ms). BACK drops an unfinished check and the
    result with it."""

    def __init__(self, app, s, ev, then, solve=None, tell=False):
        super().__init__(app)
        self.s = s
        self.ev = ev
        # what follows an accepted result, then(s, the solve's answer):
        # the result screen (ui/moonstar/result.py after_result), a
        # function of a module kept loaded, not a closure of the entry's,
        # which would hold that module's code here (its globals)
        self.then = then
        # the points entry's solve (ui/moonstar/solve.py Slices), run to its
        # end here first if the OK came before it: its plan reaching the
        # points is the rules' proof that accepts them, with no search
        # (docs/solver.md), and the result screen's best
        self.solve = solve
        # the entry told the best (not while the playing minute runs): so
        # does this screen (_told: and when the solve's plan proves the
        # points), as soon as the solve has it, rather than after the
        # check, the journal and the result screen's code
        self.tell = tell
        self.job = None  # the rules' check in slices
        self.base = None  # the state it checks against
        self.passes = 0  # the spinner's turns
        self.turned = None  # tick of its last turn
        self.opened = True  # the pass that opened it has done its share

    @property
    def pending(self):
        """The check under way (loading its code, or checking): while this
        screen is on top the loop runs the next pass at once (App.step)."""
        return self

    def update(self, now):
        s = self.s
        app = self.app
        if self.opened:
            self.opened = False
            return False
        try:
            if self.job is None:
                solve = self.solve
                if solve is not None and solve.running() is not None:
                    # the entry's solve, a slice a pass, to its end; its
                    # best on the panel at once if the entry would tell it,
                    # or if its plan proves the points
                    if solve.update() and self._told():
                        return True
                    return self._turn(now)
                answer = solve.answer if solve is not None else None
                # what the check loads, FETCH_MS of a pass at a time first (the
                # result's code as rules_code.CODE names it, leaf first, and with a
                # set-up the plan's checks or what the game's last solve loaded)
                more = ()
                if s.state.get("sit"):
                    more = ("shared_rules.moonstar.plan",) if answer is not None else (s.notes.get("solve") or ())
                if app.fetch(s.code_by_event["result"] + more):
                    return False  # loading was this pass's work (no redraw: a frame costs 25 ms)
                self.base = s.state
                self.job = s.match.rules.begin(self.base, self.ev, answer)
                # and a first slice in this same pass: most checks end in
                # it, and leave nothing of theirs on the heap between passes
            elif s.state is not self.base:  # the game moved on (the PC, an undo): check again
                self.job = None
                return False
            new = self.job.step(CHECK_UNITS)
            if new is None:
                return self._turn(now)
            return self._commit(new)
        except RuleError as e:
            self._drop()
            # points above the best: the best is named only where the entry
            # would tell it (the playing minute over), never in the play
            app.toast(str(e) if self.tell else getattr(e, "without_best", str(e)))
        except Exception as e:  # as for a button: the game and the timer go on
            self._drop()
            app.fault(e)
        return True

    def _told(self):
        """The solve's answer once the panel may show its best, else None:
        the entry told it, or its best is at least the points (its plan
        reaches them, and the rules' check accepts them on it:
        docs/solver.md)."""
        a = self.solve.answer if self.solve is not None else None
        if a is not None and (self.tell or a["best"] >= self.ev["points"]):
            return a
        return None

    def _turn(self, now):
        """The spinner turns (True: a redraw) at most every SPIN_MS."""
        if self.turned is not None and ticks_diff(now, self.turned) < SPIN_MS:
            return False
        self.turned = now
        self.passes += 1
        return True

    def _drop(self):
        """Close this screen with the entry's solve, if it is still here."""
        self.job = None
        if self.solve is not None:
            self.solve.stop()  # and its code
        self.app.pop()

    def _commit(self, checked):
        s = self.s
        then = self.then
        self.job = None
        self.app.pop(collect=False)  # the submit is this pass's work
        if s.submit(self.ev, checked) and then is not None:
            solve = self.solve
            then(s, solve.answer if solve is not None else None)
        return True

    def button(self, b, kind, count):
        if b == BACK and kind == PRESS:
            self._drop()
            self.app.toast("result not entered")

    def draw(self, d):
        title_bar(d, "Result")
        d.text("checking...", 0, 14, 1)
        d.text(SPIN[self.passes % 4], 120, 14, 1)
        d.text("points: %d" % self.ev["points"], 0, 26, 1)
        # the best, once the entry's solve has it, if it may be told (_told)
        a = self._told()
        if a is not None:
            d.text("best possible:", 0, 36, 1)
            text_right(d, str(a["best"]), 36)
        t = self.s.timer
        if t is not None and t.running:  # the minute goes on meanwhile
            d.text("time left %d s" % t.seconds_shown(), 0, 46, 1)
        d.text("BACK: cancel", 0, 56, 1)
