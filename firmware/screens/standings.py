"""Standings of the game in progress (or just finished): rank, name,
score, the round count and the winner once there is one."""

from screens.base import Screen, title_bar, text_right


class Standings(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.top = 0

    def button(self, b, kind, count):
        from buttons import BACK, DOWN, PRESS, UP

        rows = self.app.session.match.standings() if self.app.session else []
        if b == DOWN and self.top + 5 < len(rows):
            self.top += 1
        elif b == UP and self.top:
            self.top -= 1
        elif kind == PRESS:
            self.app.pop()

    def draw(self, d):
        s = self.app.session
        if s is None:
            title_bar(d, "Standings")
            d.text("no game", 0, 20, 1)
            return
        st = s.state
        title_bar(d, "Standings R%d" % st["round"])
        rows = s.match.standings()
        y = 11
        for i in range(self.top, min(len(rows), self.top + 5)):
            name, score = rows[i]
            d.text("%d %s" % (i + 1, name[:10]), 0, y, 1)
            text_right(d, str(score), y)
            y += 9
        w = s.match.winner()
        if w is not None:
            d.fill_rect(0, 55, 128, 9, 1)
            d.text(("Won: " + st["players"][w])[:16], 1, 56, 0)
