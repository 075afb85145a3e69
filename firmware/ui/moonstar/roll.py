"""Moonstar's roll for the first setter, shown: every player's four dice and
total, the highest row inverted, and on a tie the re-roll of the tied
players (one page per throw; UP/DOWN turn the pages, the newest first).
The dice are the rules' (state["rolls"]: the device rolls from a seed the
journal keeps, so a replay sees the same dice). It goes by itself after
_SHOW_MS, as the toast it replaces did, unless UP/DOWN turned a page (then
OK or BACK closes it); the game menu shows it again during the first
round. The module is unloaded with the screen."""

from shared_rules.ticks import const, ticks_diff
from buttons import BACK, DOWN, OK, PRESS, UP
from ui.base import Screen, fit, text_right, title_bar

ROWS = 6  # rows of 9 px below the title
_SHOW_MS = const(3000)


class RollOff(Screen):
    def __init__(self, app, state):
        super().__init__(app)
        self.names = state["players"]
        self.rolls = state["rolls"]
        self.page = len(self.rolls) - 1
        self.top = 0
        if state["phase"] == "first":
            self.outcome = "Tie: roll again"
        else:
            self.outcome = (self.names[state["setter"]], " sets up")  # fitted by title_bar
        self.until = (app.ticks() + _SHOW_MS) & ((1 << 30) - 1)
        self.held = False  # a page was turned: stay until OK or BACK

    def rows(self):
        throw = self.rolls[self.page]
        return [p for p in range(len(self.names)) if throw["dice"][p] is not None]

    def button(self, b, kind, count):
        if kind != PRESS:
            return
        if b == OK or b == BACK:
            self.close()
            return
        self.held = True
        if b == DOWN:
            if self.top + ROWS < len(self.rows()):
                self.top += 1
            elif self.page + 1 < len(self.rolls):
                self.page += 1
                self.top = 0
        elif b == UP:
            if self.top:
                self.top -= 1
            elif self.page:
                self.page -= 1
                self.top = 0

    def close(self):
        self.app.pop()

    def update(self, now):
        if not self.held and ticks_diff(now, self.until) >= 0:
            self.close()
            return True
        return False

    def draw(self, d):
        n = len(self.rolls)
        if not n:
            title_bar(d, self.outcome)
            return
        last = self.page == n - 1
        title_bar(d, self.outcome if last else "Throw %d: tie" % (self.page + 1), "%d/%d" % (self.page + 1, n) if n > 1 else "")
        throw = self.rolls[self.page]
        totals = throw["totals"]
        rows = self.rows()
        top = max([totals[p] for p in rows])
        y = 10
        for p in rows[self.top : self.top + ROWS]:
            high = totals[p] == top
            if high:
                d.fill_rect(0, y - 1, 128, 9, 1)
            c = 0 if high else 1
            d.text(fit(self.names[p], 4), 0, y, c)  # the dice from x 40: 4 and a gap
            d.text(" ".join([str(v) for v in throw["dice"][p]]), 40, y, c)
            text_right(d, "=%d" % totals[p], y, c)
            y += 9
