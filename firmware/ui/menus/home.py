"""The home menu: resume or start a game (from nothing, or from the scores
reached on paper), standings, a plain sand timer, settings, the games kept
on flash, and the roster.

A finished game is offered ("Finished game": its result, standings and
rematch) until the next game starts, and a power cut must not change that
(a board's, or a reload of the web page): what Home offers when no game is
in memory comes from flash (finished())."""

from buttons import BACK
from ui.base import Menu


class Home(Menu):
    is_home = True

    def __init__(self, app):
        super().__init__(app, "moontable", [], self.choose)
        self.enter()

    def enter(self):
        items = []
        app = self.app
        s = app.session
        if s is None and app.abandoned is None:
            app.abandoned = finished(app.journal)
        if s is not None:
            items.append(("Finished game" if s.state.get("over") else "Resume game", "resume"))
        elif self.app.abandoned is not None:
            # a finished game set aside by New game reads back as it was
            items.append(("Finished game" if self.app.abandoned[2] else "Undo abandon", "unabandon"))
        items.append(("New game", "new"))
        items.append(("From paper", "paper"))
        if self.app.session is not None:
            items.append(("Standings", "standings"))
        items.append(("Sand timer", "timer"))
        items.append(("Settings", "settings"))
        items.append(("Games on flash", "games"))
        items.append(("Players", "roster"))
        self.items = items
        if self.index >= len(items):
            self.index = 0

    def button(self, b, kind, count):
        if b == BACK:
            return  # home is the bottom of the stack
        super().button(b, kind, count)

    def choose(self, what):
        app = self.app
        if what == "resume":
            app.open_game()
        elif what == "unabandon":
            from ui.menus.abandon import unabandon

            unabandon(app)
        elif what == "new" or what == "paper":
            # the new-game menus' code (some 100 ms of a Pico's time) over
            # a few loop passes
            app.prepare(_NEW_GAME, lambda: _new_game(app, what == "paper"))
        elif what == "standings":
            from ui.standings import Standings

            app.push(Standings(app))
        elif what == "timer":
            from ui.menus.timer import TimerScreen

            app.push(TimerScreen(app))
        elif what == "settings":
            from ui.menus.settings import settings_menu

            settings_menu(app)
        elif what == "games":
            from ui.menus.games import games_menu

            games_menu(app)
        elif what == "roster":
            from ui.dialogs import Notice

            app.push(Notice(app, "Players", "Roster: " + ", ".join(app.roster) + "\n\nChange it from a PC: moontable sync pushes the roster."))


def finished(journal):
    """The finished game Home offers when none is in memory (after a power
    cut), as New game sets one aside (app.abandoned: id, a round scored,
    over), or None. It is the newest game on flash, once closed with no
    game in progress: a start closes the game before it, so only the
    newest can have been in play, and it is closed at its end. Choosing it
    reads it back from its journal (ui/menus/abandon.py); a file too
    damaged for that says so then."""
    try:
        if journal.current() is not None:
            return None
        rows = journal.page(journal.newest(), 1)[0]
    except Exception:  # Home must open whatever is on flash; the boot's warnings say what is wrong
        return None
    return (rows[0]["id"], True, True) if rows else None


# What New game and From paper load, leaf first (App.prepare).
_NEW_GAME = ("ui.menus.abandon", "ui.dialogs", "ui.form", "ui.menus.newgame")


def _new_game(app, paper):
    from ui.menus.abandon import new_game

    new_game(app, paper)
