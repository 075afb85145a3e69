"""Games kept on flash, with their sync state. A synced game can be
deleted; an unsynced one only after a second, explicit question: the
device never throws away a game a PC has not stored."""

from ui.base import Menu
from ui.dialogs import Ask


def games_menu(app):
    def items():
        out = []
        for g in app.journal.list_games():
            mark = "*" if g["open"] else ("s" if g["synced"] else "!")
            out.append(("%s %s" % (mark, g["id"][:13]), g))
        return out

    def deleted():
        menu.items = items()
        app.pop_to(depth)

    def choose(g):
        if g["open"]:
            app.toast("this game is in progress; finish it first")
            return

        def yes():
            try:
                app.journal.delete(g["id"], force=not g["synced"])
                app.toast("deleted " + g["id"])
            except Exception as e:
                app.toast(str(e))
            deleted()

        if g["synced"]:
            app.push(Ask(app, "Delete?", "Delete synced game %s?" % g["id"], yes))
        else:
            app.push(Ask(app, "NOT SYNCED", "Game %s is not on any PC yet. Delete it for ever?" % g["id"], yes))

    depth = len(app.stack) + 1
    menu = Menu(app, "Games", items(), choose, right="s=sync")  # the closures above see it once assigned
    app.push(menu)
