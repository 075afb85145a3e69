"""Games kept on flash, newest first, as the players know them: the game,
the day it was played and a mark ("*" in progress, "!" not yet on a PC).
OK opens one: its players, the round it reached or who won, when, and
whether a PC has it; OK there is a menu whose Delete asks first. A synced
game goes after one question; an unsynced one only after a second,
explicit one: the device never throws away a game a PC has not stored."""

import loader
from buttons import BACK, DOWN, OK, PRESS, UP
from shared_rules import display_name
from shared_rules.dates import civil
from store.layout import game_number
from ui.base import COLS, Menu, Screen, title_bar, wrap
from ui.dialogs import Ask

# the box's names, cut to fit a list row beside the date
SHORT = {"moonstar": "Moonstar", "shoot-the-moon": "Shoot", "moon": "Moon", "moons": "Moons"}


def day(t):
    """Epoch seconds (the PC's local time, as a sync sets the clock) as
    (month, day, hour, minute) (shared_rules.dates, as the PC dates them)."""
    _, m, d, h, mi, _ = civil(t)
    return m, d, h, mi


def when(head, gid):
    """The day a game started ("11-24"), or its number on this device
    when no PC had set the clock ("#12")."""
    t = head.get("t") if head else None
    if isinstance(t, int) and t > 0:
        m, d, _, _ = day(t)
        return "%02d-%02d" % (m, d)
    return "#%d" % game_number(gid)


def header(app, gid):
    """A game file's header line (its first), or None if unreadable."""
    with loader.Moment():
        from shared_rules.wire_read import decode

        try:
            f = open(app.journal.path(gid), "rb")
            try:
                line = f.readline()
            finally:
                f.close()
            h = decode(line, need_crc=True)
        except Exception:
            return None
    return h if isinstance(h, dict) and h.get("type") == "header" else None


def reached(app, gid, head):
    """Where a game got to, in words: "Won: Ann & Cy", "round 3"
    (replayed from its file line by line with the rules, in a moment of
    its own; the game in progress is the session's)."""
    s = app.session
    if s is not None and s.gid == gid:
        return standing(s.match)
    try:
        with loader.Moment():
            from shared_rules.match import Match
            from shared_rules.wire_read import decode

            m = Match.from_header(head)
            f = open(app.journal.path(gid), "rb")
            try:
                f.readline()
                while True:
                    line = f.readline()
                    if not line:
                        break
                    if line.strip():
                        m.apply(decode(line, need_crc=True))
            finally:
                f.close()
            return standing(m)
    except MemoryError:
        return "(no memory to read it)"
    except Exception:
        return "(its file is damaged: sync it to a PC)"


def standing(m):
    st = m.state
    if st.get("over"):
        names = st["players"]
        return "Won: " + " & ".join([names[i] for i in m.winners()])
    n = st.get("round", 0)
    return "round %d" % (n + 1) if n else "no round scored"


class GameCard(Screen):
    """One game: its words, scrolled with UP/DOWN; OK the menu (Delete or
    Keep), BACK the list."""

    def __init__(self, app, g, on_menu):
        super().__init__(app)
        head = g["head"]
        self.title = display_name(head["game"]) if head else g["id"]
        words = []
        if head:
            words.append(", ".join([str(p) for p in head.get("players", ())]))
            words.append(reached(app, g["id"], head))
            t = head.get("t")
            if isinstance(t, int) and t > 0:
                mo, d, h, mi = day(t)
                words.append("started %02d-%02d %02d:%02d" % (mo, d, h, mi))
        else:
            words.append("no readable header")
        words.append("in progress" if g["open"] else ("on a PC" if g["synced"] else "NOT on a PC yet"))
        self.lines = wrap("\n".join(words), COLS, 12)
        self.top = 0
        self.on_menu = on_menu

    def button(self, b, kind, count):
        if kind != PRESS:
            return
        if b == OK:
            self.on_menu()
        elif b == BACK:
            self.app.pop()
        elif b == DOWN and self.top + 5 < len(self.lines):
            self.top += 1
        elif b == UP and self.top:
            self.top -= 1

    def draw(self, d):
        from ui.gcommon import hint

        title_bar(d, self.title)
        y = 11
        for line in self.lines[self.top : self.top + 5]:
            d.text(line, 0, y, 1)
            y += 9
        hint(d, "OK: delete/keep")


def games_menu(app):
    def items():
        out = []
        rows = app.journal.list_games()
        for i in range(len(rows) - 1, -1, -1):  # newest first
            g = rows[i]
            head = g["head"] = header(app, g["id"])
            mark = "*" if g["open"] else ("" if g["synced"] else "!")
            game = str(head.get("game")) if head else ""
            name = SHORT.get(game, game[:8]) if head else "(damaged)"
            out.append(("%s %s%s" % (name, when(head, g["id"]), mark), g))
        return out

    def deleted():
        menu.items = items()
        app.pop_to(depth)

    def choose(g):
        def menu_of_game():
            def chosen(key):
                if key == "delete":
                    ask_delete(g)
                else:
                    app.pop()

            app.push(Menu(app, "This game", [("Delete", "delete"), ("Keep", "keep")], chosen))

        app.push(GameCard(app, g, menu_of_game))

    def ask_delete(g):
        if g["open"]:
            app.toast("This game is in progress: finish it first")
            return

        def yes():
            try:
                app.journal.delete(g["id"], force=not g["synced"])
                app.toast("Deleted")
            except Exception as e:
                app.toast(str(e))
            deleted()

        if g["synced"]:
            app.push(Ask(app, "Delete?", "Delete this game? A PC has it.", yes))
        else:
            app.push(Ask(app, "NOT SYNCED", "No PC has this game yet. Delete it for ever?", yes))

    depth = len(app.stack) + 1
    menu = Menu(app, "Games", items(), choose)  # the closures above see it once assigned
    app.push(menu)
