"""A plain one-minute sand timer, for any game: OK starts/pauses, UP/DOWN
add or take 10 s, a long OK restarts it. Beeps like the game timers."""

from buttons import BACK, DOWN, LONG, OK, PRESS, UP
from ui import bigdigits
from ui.base import Screen, title_bar
from shared_rules.timer import SandTimer


class TimerScreen(Screen):
    shows_timer = True
    long_keys = 1 << OK  # a long OK restarts it

    def __init__(self, app):
        super().__init__(app)
        self.timer = SandTimer(app.ticks, app.conf["bid_seconds"] * 1000)
        self.shown = -1
        app.sound.watch(self.timer)

    def button(self, b, kind, count):
        t = self.timer
        if b == OK and kind == PRESS:
            if t.running:
                t.pause()
            elif t.remaining() == 0:
                t.start()
            else:
                t.resume()
        elif b == OK and kind == LONG:
            t.start()
        elif b == UP:
            t.adjust(10000)
        elif b == DOWN:
            t.adjust(-10000)
        elif b == BACK and kind == PRESS:
            s = self.app.session
            self.app.sound.watch(s.timer if s is not None else None)
            self.app.pop()
        self.app.sound.watch(t)

    def update(self, now):
        s = self.timer.seconds_shown()
        if s != self.shown:
            self.shown = s
            return True
        return False

    def draw(self, d):
        title_bar(d, "Sand timer")
        t = self.timer
        secs = t.seconds_shown()
        txt = "%d:%02d" % (secs // 60, secs % 60)
        w = bigdigits.text_width(txt, 32)
        bigdigits.draw(d, txt, (128 - w) // 2, 16, 32)
        msg = "running" if t.running else ("TIME UP" if secs == 0 else "OK: start")
        d.text(msg, (128 - 8 * len(msg)) // 2, 54, 1)
