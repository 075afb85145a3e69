"""Starting a game: which game, how many players, the game's options (each
game's UI module asks them; every Moonstar variant is there), then who sits
in each seat, picked from the roster stored on the device."""

from screens import GAMES, ui_module
from screens.base import Menu, NumberPick
from screens.form import Form


def name_pool(roster, n):
    """The roster, topped up with P1, P2, ... so n seats can be filled."""
    pool = list(roster)
    k = 1
    while len(pool) < n:
        name = "P%d" % k
        if name not in pool:
            pool.append(name)
        k += 1
    return pool


def start(app):
    base = len(app.stack)

    def chosen(game):
        ui = ui_module(game)
        lo, hi = ui.PLAYERS
        if lo == hi:
            options(game, ui, lo)
            return

        def count(n):
            app.pop_to(base + 1)
            options(game, ui, n)

        app.push(NumberPick(app, "Players", lo, hi, min(max(lo, 4), hi), count, caption=game[:16]))

    def options(game, ui, n):
        def done(opts):
            seats(game, n, ui.finish_options(opts, n, app))

        Form(app, lambda ev: ui.option_field(ev, n, app), done).start()

    def seats(game, n, opts):
        pool = name_pool(app.roster, n)

        def ask(ev):
            names = ev.get("names") or [None] * n
            for i in range(n):
                if names[i] is None:
                    free = [(p, p) for p in pool if p not in names]
                    return (("names", i, n), "Seat %d of %d" % (i + 1, n), "pick", free, "")
            return None

        def done(ev):
            app.pop_to(base)
            app.start_game(game, ev["names"], opts)

        Form(app, ask, done).start()

    app.push(Menu(app, "New game", [(g[0], g[1]) for g in GAMES], chosen))
