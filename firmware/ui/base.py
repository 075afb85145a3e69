"""Building blocks every screen uses: the Screen base class, a scrolling
menu, and text helpers for the 16x8 character grid of a 128x64 panel. The
dialogs opened for a moment (a number pick, a yes/no question, a notice)
are in ui/dialogs.py, loaded when one opens."""

from shared_rules.ticks import const
from buttons import BACK, DOWN, OK, PRESS, UP, repeat_step

COLS = 16  # 8x8 font on 128 px
_LINE = const(8)


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


def fit(name, room):
    """`name` in `room` characters: whole when it fits, else cut, and then
    never left ending in a space ("Mary Ann" in 5 is "Mary"), so that what
    follows it still reads as the next word. Every screen that puts a
    name beside other text fits it here, at the room it has when drawn."""
    if len(name) <= room:
        return name
    return name[: max(0, room)].rstrip()


def fit_all(names, room, sep=" & "):
    """Every one of `names` in `room` characters, none left out ("Won:",
    a partnership): whole and `sep` apart when they fit; else the spaces
    of `sep` go first ("Alice&Chloe"); else each name is cut to the same
    longest length that fits (fit()), never one name kept and another
    dropped ("Ali&Eve&Dan")."""
    tight = sep.strip() or sep
    k = 0
    for x in names:
        k = max(k, len(x))
    while True:
        for s in (sep, tight):
            n = len(s) * (len(names) - 1)
            for x in names:
                n += min(len(x), k)
            if n <= room or (k <= 1 and s is tight):
                return s.join([fit(x, k) for x in names])
        k -= 1


def title_bar(d, text, right=""):
    """Inverted title line at the top. The app's small countdown takes the
    right end while a minute exists (App.draw sets the display's `room`,
    in characters): the title stops short of it and `right` gives way.
    `text` may be a pair (name, words), "Alice" and " scored?": then the
    name gives way to the words, cut (fit()) only when the room left when
    drawn (which changes as the countdown does) cannot hold it whole."""
    d.fill_rect(0, 0, 128, 9, 1)
    room = getattr(d, "room", COLS)
    if room < COLS:
        right = ""
    if isinstance(text, tuple):
        text = fit(text[0], room - len(text[1]) - (len(right) + 1 if right else 0)) + text[1]
    text = text[: room - len(right) - 1] if right else text[:room]  # a column between the two
    d.text(text, 1 if len(text) < room else 0, 1, 0)
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
    # OK and BACK act as they go down, but where holding them means something
    # (a bit per button, as in Buttons.long_mask; the app reads the top
    # screen's each pass): there they act on their release.
    long_keys = 0

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

    def still(self):
        """Whether this screen changes only on a button (the loop may then
        sleep long, App.still): true for one with no update() of its own.
        One whose update() watches the time says when it does not."""
        return type(self).update is Screen.update

    def draw(self, d):
        title_bar(d, self.title)


class Menu(Screen):
    """A list of (label, value) items. UP/DOWN move (with repeat), OK calls
    on_choose(value), BACK goes back (or calls on_back). `right` is text
    shown at the right of the title bar."""

    ROWS = 6

    def __init__(self, app, title, items, on_choose, on_back=None, index=0, right=""):
        super().__init__(app)
        self.title = title
        self.items = items
        self.on_choose = on_choose
        self.on_back = on_back
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
