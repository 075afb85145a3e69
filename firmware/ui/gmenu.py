"""The game menu (BACK on the game screen): loaded when it is opened, so
the game screen itself stays small while a game is played."""

from shared_rules import display_name
from ui.base import Menu
from ui.gcommon import offered


def game_menu(play):
    """The game menu over the game screen `play` of a game in play (a
    finished game's BACK goes Home, its OK is the rematch): on a pointing
    screen what OK there does not enter; the timer, Standings, the game's
    own items, Undo last, Home."""
    app = play.app
    s = app.session
    items = []
    if play.pointed(s) is not None:
        # what OK on a pointing screen does not enter (e.g. the end of a
        # round, an illegal play) comes first here
        items.extend(play.ui.actions(s) if hasattr(play.ui, "actions") else offered(s.moves(), play.ui.ACTIONS))
    t = play.timed(s)
    if t is not None:
        items.append(("Resume timer" if not t.running else "Pause timer", "pause"))
        if "time_up" in s.moves():
            items.append(("Time up now", "time_up"))
    items.append(("Standings", "standings"))
    extra = getattr(play.ui, "menu_items", None)
    if extra is not None:
        items.extend(extra(s))
    if s.match.can_undo():
        items.append(("Undo last", "undo"))
    items.append(("Home", "home"))

    def chosen(key):
        app.pop()
        if key == "pause":
            s.toggle_pause()
        elif key == "time_up":
            if s.timer is not None:
                s.timer.pause()
            # its code first, a share of a pass at a time (App.prepare):
            # what the phase's next event loads (Session.ahead) may have
            # gone for the room of a solve ahead, and is loaded again only
            # once the game screen is idle
            app.prepare(s.ahead(), lambda: s.submit({"type": "time_up"}))
        elif key == "standings":
            from ui.standings import Standings

            app.push(Standings(app))
        elif key == "undo":
            if s.submit({"type": "undo"}):
                app.toast(s.undo_text(), 2000)
        elif key == "home":
            app.home()
        elif hasattr(play.ui, "menu_action") and key in [k for _, k in (extra(s) if extra else ())]:
            play.ui.menu_action(s, key)
        else:
            play.ui.act(s, key)

    app.push(Menu(app, display_name(s.game), items, chosen))
