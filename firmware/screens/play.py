"""The game screen, the same for every game: the game's UI module draws it
and lists the actions the rules allow now (legal()): its ACTIONS table of
(move, label, key), or its own actions(s) where a table does not say it all.

OK: the main action (or a menu of the legal ones); short BACK: the game
menu (pause/resume the timer, standings, situation, home); long BACK: undo
(handled by the app for every screen that sets undo_ok)."""

from buttons import BACK, DOWN, LONG, OK, PRESS, UP
from screens.base import Menu
from screens.gcommon import offered


class Play:
    undo_ok = True
    shows_timer = True

    def __init__(self, app):
        from screens import ui_module

        self.app = app
        self.ui = ui_module(app.session.game)
        self.seen = -1
        self.shown = -1
        self.scroll = 0

    def enter(self):
        self.seen = -1

    def button(self, b, kind, count):
        app = self.app
        s = app.session
        if s is None:
            app.home()
            return
        if b == OK and kind == PRESS:
            if s.timer is not None and not s.timer.running and s.timer.remaining() > 0 and s.state["phase"] == s.timer_phase and getattr(self.ui, "OK_RESUMES", True):
                s.toggle_pause()
                return
            self.actions()
        elif b == OK and kind == LONG:
            s.toggle_pause()
        elif b == BACK and kind == PRESS:
            self.game_menu()
        elif b == UP or b == DOWN:
            self.scroll += -1 if b == UP else 1
            if self.scroll < 0:
                self.scroll = 0

    def actions(self):
        app = self.app
        s = app.session
        acts = self.ui.actions(s) if hasattr(self.ui, "actions") else offered(s.moves(), self.ui.ACTIONS)
        if not acts:
            if s.state.get("over"):
                from screens.standings import Standings

                app.push(Standings(app))
            return
        if len(acts) == 1:
            self.ui.act(s, acts[0][1])
            return

        def chosen(key):
            app.pop()
            self.ui.act(s, key)

        app.push(Menu(app, "Enter", acts, chosen))

    def game_menu(self):
        app = self.app
        s = app.session
        items = []
        if s.timer is not None:
            items.append(("Resume timer" if not s.timer.running else "Pause timer", "pause"))
            if "time_up" in s.moves():
                items.append(("Time up now", "time_up"))
        items.append(("Standings", "standings"))
        extra = getattr(self.ui, "menu_items", None)
        if extra is not None:
            items.extend(extra(s))
        if s.match.can_undo():
            items.append(("Undo last", "undo"))
        items.append(("Home", "home"))
        if s.state.get("over"):
            items.append(("Close game", "close"))

        def chosen(key):
            app.pop()
            if key == "pause":
                s.toggle_pause()
            elif key == "time_up":
                if s.timer is not None:
                    s.timer.pause()
                s.submit({"type": "time_up"})
            elif key == "standings":
                from screens.standings import Standings

                app.push(Standings(app))
            elif key == "undo":
                if s.submit({"type": "undo"}):
                    app.toast("Undone", 1200)
            elif key == "home":
                app.home()
            elif key == "close":
                app.session = None
                app.home()
            else:
                self.ui.menu_action(s, key)

        app.push(Menu(app, s.game, items, chosen))

    def update(self, now):
        s = self.app.session
        if s is None:
            return False
        dirty = False
        if s.changed != self.seen:
            self.seen = s.changed
            dirty = True
        if s.timer is not None:
            shown = s.timer.seconds_shown() * 2 + (1 if s.timer.running else 0)
            if shown != self.shown:
                self.shown = shown
                dirty = True
        return dirty

    def draw(self, d):
        s = self.app.session
        if s is None:
            return
        self.ui.draw(d, s, self)
