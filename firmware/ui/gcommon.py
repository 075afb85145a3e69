"""What the game screens (ui/stm.py, ui/moon.py, ui/moons.py and
ui/moonstar/) share: the score list, the hint line, the menu of the
actions legal() allows, and entering an event. One
copy here, loaded with whichever game is played, costs less heap than the
same lines in every game's module."""

from ui.base import COLS, fit_all, text_right, title_bar


def scoreboard(d, names, scores, y=11, rows=4, mark=None, top=0):
    """Name and score per line from y; `mark` is a seat shown with '>'."""
    n = len(names)
    if top > max(0, n - rows):
        top = max(0, n - rows)
    for i in range(top, min(n, top + rows)):
        d.text((">" if i == mark else " ") + names[i][:10], 0, y, 1)
        text_right(d, str(scores[i]), y)
        y += 9


def hint(d, text):
    """The inverted bottom line: what OK (and BACK) do here."""
    d.fill_rect(0, 55, 128, 9, 1)
    d.text(text[:16], 1 if len(text) < 16 else 0, 56, 0)


def over(d, s):
    """A finished game's frame: who won in the title (a partnership or a
    shared win by every name, as the rules' winners() say), and both ways
    on, shown: OK a rematch, BACK Home (ui/play.py). The game's rows go
    between, above y 46."""
    title_bar(d, won(s, getattr(d, "room", COLS)))
    text_right(d, "BACK: Home", 46)
    hint(d, "OK: Rematch")


def won(s, room):
    """"Won: " and every winner (the rules' winners()) in `room`
    characters, each name whole where they fit (ui.base.fit_all)."""
    names = s.state["players"]
    return "Won: " + fit_all([names[i] for i in s.match.winners()], room - 5)


def offered(mv, table):
    """Menu items (label, key) of the actions whose move is legal now
    (`mv`: legal()'s moves). `table` is a game's ACTIONS: one line per
    action, "move|label|key", in menu order; one move may give several
    actions. (Text rather than a tuple of tuples: a tuple is an object on
    the heap for as long as its module is loaded, and so is every string
    constant of over 10 characters; the text is one object.)"""
    out = []
    for row in table.split("\n"):
        move, label, key = row.split("|")
        if move in mv:
            out.append((label, key))
    return out


def event(s, kind, ev, fields=None):
    """Submit an event of type `kind` with the fields entered in `ev` (and
    the fixed `fields`); True when the rules accepted it."""
    e = {"type": kind}
    for k in ev:
        e[k] = ev[k]
    if fields:
        for k in fields:
            e[k] = fields[k]
    return s.submit(e)


def ask_one(s, kind, key, title, items, fields=None, done=None):
    """An event with one field to pick (`key` from the menu `items`), then
    submitted as `kind` with `fields`; or handed to done(ev) instead."""
    from ui.form import Form

    Form(s.app, lambda ev: None if key in ev else (key, title, "pick", items, ""),
         done or (lambda ev: event(s, kind, ev, fields))).start()
