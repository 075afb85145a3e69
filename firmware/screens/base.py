"""Building blocks every screen uses: the Screen base class, a scrolling
menu, a number picker with big digits and hold-to-accelerate, a yes/no
question, and text helpers for the 16x8 character grid of a 128x64 panel."""

from buttons import BACK, DOWN, LONG, OK, PRESS, REPEAT, UP, repeat_step

COLS = 16  # 8x8 font on 128 px
LINE = 8


def wrap(text, width=COLS, limit=6):
    """Word-wrap text into at most `limit` lines of `width` characters."""
    lines = []
    for para in str(text).split("\n"):
        line = ""
        for word in para.split(" "):
            while len(word) > width:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:width])
                word = word[width:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line = line + " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    if len(lines) > limit:
        lines = lines[:limit]
        last = lines[-1]
        lines[-1] = (last[: width - 1] if len(last) >= width else last) + "~"
    return lines


def title_bar(d, text, right=""):
    """Inverted title line at the top."""
    d.fill_rect(0, 0, 128, 9, 1)
    text = text[: COLS - len(right)]
    d.text(text, 1 if len(text) + len(right) < COLS else 0, 1, 0)
    if right:
        d.text(right, 128 - 8 * len(right), 1, 0)


def text_right(d, text, y, c=1):
    d.text(text, 128 - 8 * len(text), y, c)


def scroll_marks(d, above, below, top=11, bottom=53):
    """Small triangles at the right edge: more of the list above / below
    the rows shown (every list that scrolls draws them)."""
    for i in range(3):
        if above:
            d.hline(124 - i, top + i, 1 + 2 * i, 1)
        if below:
            d.hline(124 - i, bottom + 2 - i, 1 + 2 * i, 1)


class Screen:
    """Base: a screen does nothing until told. `app` gives access to the
    session, the store and the screen stack."""

    title = ""

    def __init__(self, app):
        self.app = app

    def enter(self):
        """Called whenever the screen becomes the top one again."""

    def button(self, b, kind, count):
        if b == BACK and kind == PRESS:
            self.app.pop()

    def back(self, handler):
        """BACK: the caller's handler if it gave one, else the screen below."""
        if handler is not None:
            handler()
        else:
            self.app.pop()

    def update(self, now):
        return False

    def draw(self, d):
        title_bar(d, self.title)


class Menu(Screen):
    """A list of (label, value) items. UP/DOWN move (with repeat), OK calls
    on_choose(value), BACK goes back (or calls on_back). `right` is text
    shown at the right of the title bar."""

    ROWS = 6

    def __init__(self, app, title, items, on_choose, on_back=None, index=0, right="", on_long=None):
        super().__init__(app)
        self.title = title
        self.items = items
        self.on_choose = on_choose
        self.on_back = on_back
        self.on_long = on_long
        self.index = index if index < len(items) else 0
        self.top = 0
        self.right = right

    def button(self, b, kind, count):
        n = len(self.items)
        if b == UP or b == DOWN:
            if n:
                step = -1 if b == UP else 1
                if kind == PRESS:
                    self.index = (self.index + step) % n
                else:
                    self.index = min(n - 1, max(0, self.index + step * repeat_step(count)))
        elif b == OK and kind == PRESS:
            if n:
                self.on_choose(self.items[self.index][1])
        elif b == OK and kind == LONG and self.on_long is not None:
            if n:
                self.on_long(self.items[self.index][1])
        elif b == BACK and kind == PRESS:
            self.back(self.on_back)

    def draw(self, d):
        title_bar(d, self.title, self.right)
        n = len(self.items)
        if self.index < self.top:
            self.top = self.index
        if self.index >= self.top + self.ROWS:
            self.top = self.index - self.ROWS + 1
        y = 11
        for i in range(self.top, min(n, self.top + self.ROWS)):
            label = self.items[i][0]
            if i == self.index:
                d.fill_rect(0, y - 1, 122, 9, 1)
                d.text(label[:15], 2, y, 0)
            else:
                d.text(label[:15], 2, y, 1)
            y += 9
        scroll_marks(d, self.top > 0, self.top + self.ROWS < n)
        if not n:
            d.text("(nothing)", 2, 11, 1)


class NumberPick(Screen):
    """Pick a whole number lo..hi with UP/DOWN. A tap moves by one; a hold
    counts in fives on round values (20, 25, 30...: a bid or a score is
    usually a round number, and one hold plus a tap or two reaches any
    other), every other auto-repeat at first so the eye can follow, and in
    25s after a long hold to cross a wide range. A short range (a player
    count, a few tokens) is held through one by one, faster and faster.
    The value is drawn in big digits; `caption` is a line under the title."""

    FIVES_FROM = 20  # a range spanning this much counts in fives while held

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
        if hi - lo < NumberPick.FIVES_FROM:
            step = repeat_step(count)
            v = v + (step if up else -step)
        elif count & 1:
            step = 5 if count < 25 else 25
            v = (v // step + 1) * step if up else ((v - 1) // step) * step
        return min(hi, max(lo, v))

    def draw(self, d):
        import bigdigits

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


def banner(app, text, ms=3000):
    """Show a moment worth a shout ("Shot the moon!") over the current
    screen for `ms`: a Banner, from screens/banner.py, loaded for it."""
    from screens.banner import Banner

    app.push(Banner(app, text, ms))


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
