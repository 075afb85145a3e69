"""Standings of the game in progress (or just finished): rank (tied players
share one, shared_rules.ranks), name, score, the round count and the
winner once there is one. BACK from the standings of a finished game goes
Home: the game is over, there is nothing to go back to."""

from ui.base import Screen, scroll_marks, text_right, title_bar


class Standings(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.top = 0

    def button(self, b, kind, count):
        from buttons import BACK, DOWN, PRESS, UP

        s = self.app.session
        rows = s.match.standings() if s else []
        if b == DOWN and self.top + 5 < len(rows):
            self.top += 1
        elif b == UP and self.top:
            self.top -= 1
        elif kind == PRESS:
            if b == BACK and s is not None and s.state.get("over"):
                self.app.home()
            else:
                self.app.pop()

    def draw(self, d):
        from shared_rules import ranks

        s = self.app.session
        if s is None:
            title_bar(d, "Standings")
            d.text("no game", 0, 20, 1)
            return
        st = s.state
        title_bar(d, "Standings R%d" % st["round"])
        rows = s.match.standings()
        rk = ranks(rows)
        y = 11
        for i in range(self.top, min(len(rows), self.top + 5)):
            name, score = rows[i]
            d.text("%d %s" % (rk[i], name[:10]), 0, y, 1)
            text_right(d, str(score), y)
            y += 9
        scroll_marks(d, self.top > 0, self.top + 5 < len(rows), 11, 47)
        w = s.match.winner()
        if w is not None:
            d.fill_rect(0, 55, 128, 9, 1)
            d.text(("Won: " + st["players"][w])[:16], 1, 56, 0)
