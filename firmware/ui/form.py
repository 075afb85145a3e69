"""Entering an event (or a game's options) field by field.

A game's UI module describes the next field to ask with a tuple
    (key, title, kind, data, caption)
where kind is "pick" (data: [(label, value), ...]), "num" (data: (lo, hi,
default)) or "multi" (data: [(label, value), ...], several may be ticked).
A "pick" may add a sixth element, the value selected first (the likely
answer, e.g. the suit of the card before), so it costs one OK.
`key` is a field name, or (name, index, size) for one slot of a list field.
The choices come from the rules' legal() spec, so only legal inputs are
offered. BACK steps back one field, with the answer given there selected;
BACK on the first field cancels.

One field's screen is on the stack at a time: an answered field's screen
is let go, and BACK asks that field again (ask() is a function of the
answers so far). A form four fields deep (Moons' token move) would
otherwise hold four menus and their items on a small heap."""

from buttons import BACK, DOWN, OK, PRESS, UP
from ui.base import Menu, Screen, scroll_marks, title_bar


def put(ev, key, value):
    if isinstance(key, tuple):
        name, i, size = key
        lst = ev.get(name)
        if lst is None:
            lst = [None] * size
            ev[name] = lst
        lst[i] = value
    else:
        ev[key] = value


def get(ev, key):
    if isinstance(key, tuple):
        lst = ev.get(key[0])
        return None if lst is None else lst[key[1]]
    return ev.get(key)


def drop(ev, key):
    if isinstance(key, tuple):
        lst = ev.get(key[0])
        if lst is not None:
            lst[key[1]] = None
    elif key in ev:
        del ev[key]


class Form:
    def __init__(self, app, ask, on_done, ev=None):
        self.app = app
        self.ask = ask
        self.on_done = on_done
        self.ev = ev if ev is not None else {}
        self.depth = len(app.stack)
        self.keys = []

    def start(self):
        self.next()
        return self

    def next(self, again=None):
        """Ask the next field (`again`: the answer it had, when BACK asks
        it again, selected first)."""
        f = self.ask(self.ev)
        app = self.app
        if f is None:
            app.pop_to(self.depth)
            self.on_done(self.ev)
            return
        key, title, kind, data, caption = f[0], f[1], f[2], f[3], f[4]

        def done(value):
            put(self.ev, key, value)
            self.keys.append(key)
            self.next()

        if kind == "num":
            lo, hi, default = data
            from ui.dialogs import NumberPick

            screen = NumberPick(app, title, lo, hi, default if again is None else again, done, caption,
                                on_back=self.back)
        elif kind == "multi":
            screen = MultiPick(app, title, data, done, self.back, again)
        else:
            items = data
            if caption:
                title = title + " " + caption
            want = f[5] if again is None and len(f) > 5 else again
            first = 0
            if want is not None:
                for i in range(len(items)):
                    if items[i][1] == want:
                        first = i
            screen = Menu(app, title, items, done, on_back=self.back, index=first)
        if len(app.stack) > self.depth:
            app.swap(screen)  # the field answered (or asked again): its screen goes
        else:
            app.push(screen)

    def back(self):
        app = self.app
        if not self.keys:
            app.pop_to(self.depth)
            return
        key = self.keys.pop()
        again = get(self.ev, key)
        drop(self.ev, key)
        self.next(again)


class MultiPick(Screen):
    """Tick any number of items: UP/DOWN move, OK ticks/unticks, the last
    row "Done" finishes with the list of ticked values."""

    def __init__(self, app, title, items, on_done, on_back, ticked=None):
        super().__init__(app)
        self.title = title
        self.items = items
        self.on_done = on_done
        self.on_back = on_back
        self.ticked = list(ticked) if ticked else []
        self.index = 0
        self.top = 0

    def button(self, b, kind, count):
        n = len(self.items) + 1
        if b == UP or b == DOWN:
            self.index = (self.index + (-1 if b == UP else 1)) % n
        elif b == OK and kind == PRESS:
            if self.index == n - 1:
                self.on_done([v for _, v in self.items if v in self.ticked])
            else:
                v = self.items[self.index][1]
                if v in self.ticked:
                    self.ticked.remove(v)
                else:
                    self.ticked.append(v)
        elif b == BACK and kind == PRESS:
            self.on_back()

    def draw(self, d):
        title_bar(d, self.title)
        rows = self.items + [("Done", None)]
        if self.index < self.top:
            self.top = self.index
        if self.index >= self.top + 6:
            self.top = self.index - 5
        y = 11
        for i in range(self.top, min(len(rows), self.top + 6)):
            label, v = rows[i]
            if i < len(self.items):
                label = ("[x] " if v in self.ticked else "[ ] ") + label
            c = 1
            if i == self.index:
                d.fill_rect(0, y - 1, 122, 9, 1)
                c = 0
            d.text(label[:15], 1, y, c)
            y += 9
        scroll_marks(d, self.top > 0, self.top + 6 < len(rows))


def seats(names, seats_list, extra=None):
    """Menu items for a list of seats, labelled with the players' names."""
    out = []
    for p in seats_list:
        if isinstance(p, int) and p < len(names):
            out.append((names[p], p))
        elif extra is not None and p in extra:
            out.append((extra[p], p))
        else:
            out.append((str(p), p))
    return out
