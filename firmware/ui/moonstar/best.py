"""Moonstar, after a round whose situation is known (rolled by the device or
entered): the bidder's points next to the best possible score of that
situation, so the table sees what the dice allowed; then, with DOWN, the
solver's plan step by step on the drawn board (ui/moonstar/ring.py): which
moon takes which die and where it lands, with the running total.

The plan comes from shared_rules.moonstar.solver, run in slices from the main loop
(ui/moonstar/solve.py) unless the points entry already has it; "..." shows
until the answer is there. This module and the drawing's are unloaded
when the screen closes."""

from buttons import BACK, DOWN, OK, PRESS, UP
from ui.base import Screen, fit, text_right, title_bar
from ui.gcommon import hint
from ui.moonstar.solve import Slices
from shared_rules.moonstar.plan import plan_score

class BestPossible(Screen):
    """`last` is the rules' record of the finished round (state["last"]:
    bidder, bid, points, made, sit, best); `rnd` its number, counted from
    1. `answer`: the solver's answer if the points entry has it, else the
    solve runs here."""

    def __init__(self, app, rnd, last, answer=None):
        super().__init__(app)
        self.rnd = rnd
        self.title = "R%d result" % rnd
        self.last = last
        self.slices = Slices(last["sit"], app, app.session)  # known if the round's solve has it
        if answer is not None:
            self.slices.answer = answer
        self.step = 0  # 0: the summary; k: the plan's k-th move on the board
        self.cheered = False  # the banner for a made bid equal to the best has been shown
        self.totals = None  # running total after each move (the rules' scoring)

    @property
    def best(self):
        a = self.slices.answer
        return a["best"] if a is not None else None

    @property
    def pending(self):
        """The solve while it is under way (the app's loop then runs the
        next slice at once, without a pass's sleep)."""
        return self.slices.running()

    @property
    def failed(self):
        return self.slices.failed

    @property
    def solver(self):
        return self.slices.solver

    def update(self, now):
        changed = self.slices.update()
        if not self.cheered and self.best is not None:
            self.cheered = True
            last = self.last
            if last["made"] and last["points"] == self.best:
                # a Moment: the bidder found the best round the dice allowed
                from ui.banner import banner

                names = self.app.session.names() if self.app.session is not None else []
                who = fit(names[last["bidder"]], 14) if last["bidder"] < len(names) else ""
                banner(self.app, "Best possible!\n%s\nmade %d" % (who, last["points"]))
                return True
        return changed

    def close(self):
        """Leave the screen; an unfinished solve is dropped with its code."""
        self.slices.stop()
        self.app.pop()

    def button(self, b, kind, count):
        if kind != PRESS:
            return
        if b == OK or b == BACK:
            self.close()
            return
        a = self.slices.answer
        if a is None or not a["plan"]:
            return
        n = len(a["plan"])
        if b == DOWN and self.step < n:
            self.step += 1
        elif b == UP and self.step > 0:
            self.step -= 1

    def _plan(self):
        """The solver's answer, there whenever the plan is stepped through
        (DOWN does nothing before it)."""
        a = self.slices.answer
        return a if a is not None else {"best": 0, "plan": [], "favorite": None}

    def _total(self, k):
        """Points of the plan's first k moves, scored by the rules."""
        if self.totals is None:
            a = self._plan()
            plan = a["plan"]
            self.totals = [plan_score(self.last["sit"], plan[:i], a["favorite"], False) for i in range(len(plan) + 1)]
        return self.totals[k]

    # -- drawing ---------------------------------------------------------------
    def draw(self, d):
        if self.step:
            self._draw_step(d)
            return
        last = self.last
        title_bar(d, self.title)
        names = self.app.session.names() if self.app.session is not None else []
        bidder = last["bidder"]
        bid = "bid %d" % last["bid"]  # at the right; the name a column clear of it
        d.text(fit(names[bidder], 15 - len(bid)) if bidder < len(names) else "P%d" % (bidder + 1), 0, 12, 1)
        text_right(d, bid, 12)
        best = self.best
        perfect = best is not None and last["made"] and last["points"] == best
        d.text("made" if last["made"] else "failed", 0, 21, 1)
        if perfect:
            text_right(d, "the best!", 21)
        d.text("points:", 0, 32, 1)
        text_right(d, str(last["points"]), 32)
        if best is not None:
            val = str(best)
        elif self.failed is not None:
            val = self.failed
        else:
            val = "..."
        # "best possible: N" when it fits the 16 columns, else without the colon
        label = "best possible:" if len(val) <= 2 else "best possible"
        if len(label) + len(val) > 16:
            label = "best:"
        d.text(label, 0, 42, 1)
        text_right(d, val, 42)
        a = self.slices.answer
        hint(d, "DOWN:plan OK:on" if a is not None and a["plan"] else "OK: continue")

    def _draw_step(self, d):
        """Move `step` of the plan: moons already moved sit where they
        landed, the moving one is a ring at its landing star with a line
        from where it started; on the right, the dice left (the one in use
        inverted) and the points so far."""
        from ui.moonstar import ring as ms_ring

        sit = self.last["sit"]
        a = self._plan()
        plan = a["plan"]
        k = self.step
        move = plan[k - 1]
        where = list(sit["moons"])
        used = []
        for i in range(k):
            where[plan[i]["moon"]] = plan[i]["to"]
            if i < k - 1:
                used.append(plan[i]["die"])
        ms_ring.ring(d, sit["planets"], a["favorite"])
        ms_ring.moons(d, where, move["moon"])
        x0, y0 = ms_ring.at(sit["moons"][move["moon"]], ms_ring.MOON_RADII[0])
        x1, y1 = ms_ring.at(move["to"], ms_ring.MOON_RADII[0])
        d.line(x0, y0, x1, y1, 1)
        x = ms_ring.PANEL_X
        d.fill_rect(x - 1, 0, 128 - x + 1, 9, 1)
        d.text(("Plan %d/%d" if len(plan) < 10 else "%d/%d") % (k, len(plan)), x, 1, 0)
        d.text("best %d" % a["best"], x, 10, 1)
        y = ms_ring.dice(d, sit["dice"], 20, used, move["die"])
        d.text("+%d" % (self._total(k) - self._total(k - 1)), x, max(y, 44), 1)
        text_right(d, "=%d" % self._total(k), max(y, 44) + 9)
