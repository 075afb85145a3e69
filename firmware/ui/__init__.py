"""The app's screens. Each screen has button(b, kind, count), update(now)
-> bool (True when it needs drawing) and draw(display); enter() when it
shows again. Modules here are imported only when a screen is opened, and
the app lets go of them when it closes (App.pop, loader): menus/ for
Home and its menus, one module per game (moonstar/ a package of its
moments), and the parts they share (base, dialogs, form, gcommon)."""

import gc
import sys

# (game name, its UI module) of every game, in menu order; the menu shows
# each by the box's name (shared_rules.display_name).
GAMES = (
    ("moonstar", "ui.moonstar.game"),
    ("shoot-the-moon", "ui.stm"),
    ("moon", "ui.moon"),
    ("moons", "ui.moons"),
)


def ui_module(game):
    """The UI module of a game (GAMES): the loaded one, else
    imported (on first use, or again after the app let the screens' code
    go). The game screen asks on every use, so the loaded case allocates
    nothing."""
    for name, mod in GAMES:
        if name == game:
            m = sys.modules.get(mod)
            if m is not None:
                return m
            gc.collect()  # room for the module before it loads
            __import__(mod)
            return sys.modules[mod]
    raise ValueError("no UI for game %r" % (game,))
