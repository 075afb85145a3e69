"""Standings of the game in progress (or just finished): rank (by the
game's win rule, Match.placings: tied players and partners share one),
name, score, the round count, and at the foot the winner(s) once there
are any, before that the target the game is played to. BACK from the standings of a finished game goes
Home: the game is over, there is nothing to go back to."""

from buttons import BACK, DOWN, PRESS, UP
from ui.base import Screen, scroll_marks, text_right, title_bar
from ui.gcommon import hint, won


class Standings(Screen):
    def __init__(self, app):
        super().__init__(app)
        self.top = 0

    def button(self, b, kind, count):
        s = self.app.session
        rows = s.match.standings() if s else []
        if b == DOWN or b == UP:
            # scroll when there is more; at an end an arrow does nothing
            # (it never closes the list under a player reading it)
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
        s = self.app.session
        if s is None:
            title_bar(d, "Standings")
            d.text("no game", 0, 20, 1)
            return
        st = s.state
        # the round being played, numbered as the game screen numbers it;
        # a finished game's are final
        title_bar(d, "Final standings" if st.get("over") else "Standings R%d" % (st["round"] + 1))
        rows = [(rank, seat) for rank, seats in s.match.placings() for seat in seats]
        y = 11
        for i in range(self.top, min(len(rows), self.top + 5)):
            rank, seat = rows[i]
            d.text("%d %s" % (rank, st["players"][seat][:10]), 0, y, 1)
            text_right(d, str(st["scores"][seat]), y)
            y += 9
        scroll_marks(d, self.top > 0, self.top + 5 < len(rows), 11, 47)
        # the foot says what ends the game: who won, else the target the
        # rules set when it started (Moonstar's Game 8 plays to 50, Game 7
        # to 100); Moons, which ends with its supply or rounds, has none
        if s.match.winners():
            hint(d, won(s, 16))
        elif st.get("target") is not None:
            hint(d, "Playing to %d" % st["target"])
