"""Banners: a moment worth a shout, over the whole panel. Loaded only
when one is shown (screens call banner(app, text))."""

from shared_rules.ticks import ticks_diff
from buttons import LONG, PRESS
from ui.base import Screen, wrap


class Banner(Screen):
    """A moment worth a shout ("Shot the moon!", "Ann wins!"): a framed
    message over the whole panel, gone after `ms` or at any button press.
    Game screens push it with banner(app, text)."""

    def __init__(self, app, text, ms=3000):
        super().__init__(app)
        self.lines = wrap(text, 14, 3)
        self.ms = ms
        self.until = (app.ticks() + ms) & ((1 << 30) - 1)

    def button(self, b, kind, count):
        if kind == PRESS or kind == LONG:
            self.app.pop()

    def update(self, now):
        if self.app.toast_lines is not None:  # its time starts once a toast over it is gone
            self.until = (now + self.ms) & ((1 << 30) - 1)
            return False
        if ticks_diff(now, self.until) >= 0:
            self.app.pop()
            return True
        return False

    def draw(self, d):
        d.fill_rect(0, 0, 128, 64, 1)
        d.fill_rect(3, 3, 122, 58, 0)
        for x in (8, 112):  # a star in two corners
            d.hline(x - 3, 10, 7, 1)
            d.vline(x, 7, 7, 1)
        n = len(self.lines)
        y = 32 - (10 * n) // 2
        for line in self.lines:
            d.text(line, (128 - 8 * len(line)) // 2, y + 1, 1)
            y += 10


def banner(app, text, ms=3000):
    """Show a moment worth a shout ("Shot the moon!") over the current
    screen for `ms`."""
    app.push(Banner(app, text, ms))


def winners(app):
    """The winners' banner ("P2 wins!", "P1 & P3 win!") of the game that
    just ended, if anyone won (the game screen opens it: ui/play.py)."""
    s = app.session
    if s is None:
        return
    w = s.match.winners()
    if w:
        names = s.names()
        banner(app, "%s %s!" % (" & ".join(names[i] for i in w), "wins" if len(w) == 1 else "win"))
