"""The home menu: resume or start a game (from nothing, or from the scores
reached on paper), standings, a plain sand timer, settings, the games kept
on flash, and the roster."""

from ui.base import Menu


class Home(Menu):
    is_home = True

    def __init__(self, app):
        super().__init__(app, "moontable", [], self.choose)
        self.enter()

    def enter(self):
        items = []
        s = self.app.session
        if s is not None:
            items.append(("Finished game" if s.state.get("over") else "Resume game", "resume"))
        elif self.app.abandoned is not None:
            items.append(("Undo abandon", "unabandon"))
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
        from buttons import BACK

        if b == BACK:
            return  # home is the bottom of the stack
        super().button(b, kind, count)

    def choose(self, what):
        app = self.app
        if what == "resume":
            app.open_game()
        elif what == "unabandon":
            unabandon(app)
        elif what == "new" or what == "paper":
            s = app.session
            if s is None or s.state.get("over"):
                new_game(app, what == "paper")
                return
            from shared_rules import display_name
            from ui.dialogs import Ask

            def yes():
                app.pop()
                abandon(app)
                new_game(app, what == "paper")

            app.push(Ask(app, "Abandon?", "Abandon %s, round %d? It will not count."
                         % (display_name(s.game), s.state["round"] + 1), yes))
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


def new_game(app, paper):
    from ui.menus.newgame import start

    start(app, paper)


def abandon(app):
    """Leave the game in progress for a new one. Its journal stays the
    game in progress until the next game starts (session.start closes
    it then), so until then Home's "Undo abandon" (or a restart) brings
    it back as it was, its minute paused. Only its id and name are kept
    meanwhile: the session and its rules leave the heap for the new
    game's menus."""
    s = app.session
    if s.timer is not None:
        s.timer.pause()
        s.save_timer()
    app.abandoned = (s.gid, bool(s.state["round"]))  # its id, and whether a round of it was scored
    app.session = None
    app.sound.watch(None)
    app.toast("Abandoned. Home: Undo abandon brings it back until a game starts", 2500)


def unabandon(app):
    """The abandoned game again, read back from its journal (as a restart
    would: the minute paused with the time it had)."""
    import loader

    app.abandoned = None
    app.reset()
    from resume import resume

    try:
        warnings = resume(app)
    finally:
        loader.drop(("resume",))
    if app.session is not None:
        app.open_game()
        if warnings:
            app.toast("; ".join(warnings))
    else:
        app.home()
        app.toast("; ".join(warnings) if warnings else "the game could not be read back")
