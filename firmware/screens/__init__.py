"""The app's screens. Each screen has button(b, kind, count), update(now)
-> bool (True when it needs drawing) and draw(display). Modules here are
imported only when a screen is opened, and the app unloads the menus while
a game is played and the game's screens at Home, so the heap holds only
what the current screen needs."""

# (game name, UI module in screens/) of every game, in menu order; the menu
# shows each by the box's name (shared_rules.display_name).
GAMES = (
    ("moonstar", "g_moonstar"),
    ("shoot-the-moon", "g_stm"),
    ("moon", "g_moon"),
    ("moons", "g_moons"),
)


def ui_module(game):
    """The UI module of a game (screens/g_*.py), imported if it is not
    loaded (on first use, or again after a screen that covered the game
    screen unloaded it)."""
    for name, mod in GAMES:
        if name == game:
            import gc
            import sys

            m = sys.modules.get("screens." + mod)
            if m is not None:
                return m

            gc.collect()  # room for the module before it loads
            m = __import__("screens." + mod)
            return getattr(m, mod)
    raise ValueError("no UI for game %r" % (game,))
