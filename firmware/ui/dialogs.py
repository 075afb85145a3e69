"""The dialogs a screen opens for a moment: a number picker with big digits
and hold-to-accelerate, a yes/no question, and a notice to read. Apart from
ui/base.py so that they take heap only while one is open (App.pop lets
them go)."""

from shared_rules.ticks import const
from buttons import BACK, DOWN, OK, PRESS, UP, repeat_step
from ui.base import COLS, Screen, scroll_marks, text_right, title_bar, wrap

_FIVES_FROM = const(20)  # a number range spanning this much counts in fives while held


class NumberPick(Screen):
    """Pick a whole number lo..hi with UP/DOWN. A tap moves by one; a hold
    counts in fives on round values (20, 25, 30...: a bid or a score is
    usually a round number, and one hold plus a tap or two reaches any
    other), every other auto-repeat at first so the eye can follow, and in
    25s after a long hold to cross a wide range. A short range (a player
    count, a few tokens) is held through one by one, faster and faster.
    The value is drawn in big digits; `caption` is a line under the title."""

    def __init__(self, app, title, lo, hi, value, on_done, caption="", unit="", on_back=None):
        super().__init__(app)
        self.title = title
        self.lo = lo
        self.hi = hi
        self.value = min(hi, max(lo, value))
        self.on_done = on_done
        self.caption = caption
        self.unit = unit
        self.on_back = on_back

    def button(self, b, kind, count):
        if b == UP or b == DOWN:
            if kind == PRESS:
                v = self.value + (1 if b == UP else -1)
                self.value = min(self.hi, max(self.lo, v))
            else:
                self.value = NumberPick.held(self.value, self.lo, self.hi, count, b == UP)
        elif b == OK and kind == PRESS:
            self.on_done(self.value)
        elif b == BACK and kind == PRESS:
            self.back(self.on_back)

    @staticmethod
    def held(v, lo, hi, count, up):
        """The value after auto-repeat number `count` of a held UP (`up`)
        or DOWN, from `v` (bench/presses.py plans its holds with this)."""
        if hi - lo < _FIVES_FROM:
            step = repeat_step(count)
            v = v + (step if up else -step)
        elif count & 1:
            step = 5 if count < 25 else 25
            v = (v // step + 1) * step if up else ((v - 1) // step) * step
        return min(hi, max(lo, v))

    def draw(self, d):
        from ui import bigdigits

        title_bar(d, self.title)
        if self.caption:
            d.text(self.caption[:COLS], 0, 11, 1)
        s = str(self.value)
        w = bigdigits.text_width(s, 32)
        x = (128 - w) // 2
        bigdigits.draw(d, s, x, 22, 32)
        if self.unit:
            d.text(self.unit, min(120, x + w + 2), 46, 1)
        d.text("%d" % self.lo, 0, 56, 1)
        text_right(d, "%d" % self.hi, 56)


class Ask(Screen):
    """A question answered with OK (yes) or BACK (no)."""

    def __init__(self, app, title, question, on_yes, on_no=None):
        super().__init__(app)
        self.title = title
        self.lines = wrap(question, COLS, 4)
        self.on_yes = on_yes
        self.on_no = on_no

    def button(self, b, kind, count):
        if kind != PRESS:
            return
        if b == OK:
            self.on_yes()
        elif b == BACK:
            self.back(self.on_no)

    def draw(self, d):
        title_bar(d, self.title)
        y = 12
        for line in self.lines:
            d.text(line, 0, y, 1)
            y += 9
        d.text("OK=yes  BACK=no", 4, 56, 1)


class Notice(Screen):
    """Text to read, OK or BACK to go on (e.g. boot warnings)."""

    def __init__(self, app, title, text, on_done=None):
        super().__init__(app)
        self.title = title
        self.lines = wrap(text, COLS - 1, 40)  # the last column is the scroll marks
        self.top = 0
        self.on_done = on_done

    def button(self, b, kind, count):
        if b == DOWN and self.top + 5 < len(self.lines):
            self.top += 1
        elif b == UP and self.top:
            self.top -= 1
        elif (b == OK or b == BACK) and kind == PRESS:
            self.back(self.on_done)

    def draw(self, d):
        title_bar(d, self.title)
        y = 11
        for line in self.lines[self.top : self.top + 5]:
            d.text(line, 0, y, 1)
            y += 9
        scroll_marks(d, self.top > 0, self.top + 5 < len(self.lines), 11, 47)
        d.text("OK: continue", 0, 56, 1)
