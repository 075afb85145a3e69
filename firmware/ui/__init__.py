"""The app's screens. Each screen has button(b, kind, count), update(now)
-> bool (True when it needs drawing) and draw(display). Modules here are
imported only when a screen is opened, and the app unloads the menus while
a game is played and the game's screens at Home, so the heap holds only
what the current screen needs."""

# (game name, its UI module) of every game, in menu order; the menu shows
# each by the box's name (shared_rules.display_name).
GAMES = (
    ("moonstar", "screens.g_moonstar"),
    ("shoot-the-moon", "screens.g_stm"),
    ("moon", "screens.g_moon"),
    ("moons", "screens.g_moons"),
)


def ui_module(game):
    """The UI module of a game (screens/g_*.py): the loaded one, else
    imported (on first use, or again after a screen that covered the game
    screen unloaded it). The game screen asks on every use, so the loaded
    case allocates nothing."""
    import sys

    for name, mod in GAMES:
        if name == game:
            m = sys.modules.get(mod)
            if m is not None:
                return m
            import gc

            gc.collect()  # room for the module before it loads
            __import__(mod)
            return sys.modules[mod]
    raise ValueError("no UI for game %r" % (game,))
