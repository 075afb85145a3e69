"""Starting a game: which game, how many players, the game's options (each
game's UI module asks them; every Moonstar variant is there), then who sits
in each seat, picked from the roster stored on the device.

A name is offered for one seat only: the picker leaves out every name
already seated, compared without case ("ann" is Ann). "From paper" (on
Home) starts a game from the scores (or chips) already reached on paper: after
the seats it asks each player's, between the bounds the rules give for the
game (their start_bounds), passed to the rules as the header option "start",
which the rules check."""

import sys

from shared_rules import display_name, get_game
from shared_rules.errors import RuleError
from ui import GAMES, ui_module
from ui.base import Menu
from ui.dialogs import NumberPick
from ui.form import Form

def name_pool(roster, n):
    """The roster without repeats (case-blind), topped up with P1, P2, ...
    so n seats can be filled."""
    pool = []
    seen = []
    for name in roster:
        if name.lower() not in seen:
            pool.append(name)
            seen.append(name.lower())
    k = 1
    while len(pool) < n:
        name = "P%d" % k
        if name.lower() not in seen:
            pool.append(name)
            seen.append(name.lower())
        k += 1
    return pool


def free_names(pool, seated):
    """The names of `pool` nobody sits under yet, compared without case."""
    taken = [x.lower() for x in seated if x is not None]
    return [p for p in pool if p.lower() not in taken]


def start(app, paper=False):
    base = len(app.stack)

    def chosen(game):
        # the game's UI module, and the players' number picker's digits
        app.prepare(("ui.gcommon", dict(GAMES)[game], "ui.bigdigits"), lambda: players(game))

    def players(game):
        ui = ui_module(game)
        lo, hi = ui.PLAYERS
        if lo == hi:
            options(game, ui, lo)
            return

        def count(n):
            app.pop_to(base + 1)
            options(game, ui, n)

        app.push(NumberPick(app, "Players", lo, hi, min(max(lo, 4), hi), count, caption=display_name(game)[:16]))

    def options(game, ui, n):
        # the game's options' code (Moonstar's: some 100 ms of a Pico's
        # time) over a few loop passes; its last module asks them (the
        # game's UI module itself when it has none)
        code = getattr(ui, "OPTIONS_CODE", ())

        def ask():
            asks = sys.modules[code[-1]] if code else ui

            def done(opts):
                seats(game, n, asks.finish_options(opts, n, app), ui)

            Form(app, lambda ev: asks.option_field(ev, n, app), done).start()

        app.prepare(code, ask)

    def seats(game, n, opts, ui):
        pool = name_pool(app.roster, n)
        unit = getattr(ui, "SCORE_WORD", "score")
        if paper:
            lo, hi = get_game(game).start_bounds(opts)

        def ask(ev):
            names = ev.get("names") or [None] * n
            for i in range(n):
                if names[i] is None:
                    free = [(p, p) for p in free_names(pool, names)]
                    return (("names", i, n), "Seat %d of %d?" % (i + 1, n), "pick", free, "")
            if paper:
                # one starting score per player, or per side where the game
                # scores sides (the UI module's start_labels)
                labels = ui.start_labels(opts, names) if hasattr(ui, "start_labels") else names
                k = len(labels)
                sc = ev.get("start") or [None] * k
                before = refused.get("start")  # the scores a refused start had: each offered again
                for i in range(k):
                    if sc[i] is None:
                        first = before[i] if before else getattr(ui, "START_DEFAULT", 0)
                        return (("start", i, k), "%s: %s?" % (labels[i][:16 - 3 - len(unit)], unit), "num",
                                (lo, hi, first), "from paper")
            return None

        refused = {}

        def done(ev):
            if paper:
                opts["start"] = ev["start"]
                why = start_refused(game, ev["names"], opts)
                if why is not None:
                    # nothing entered is lost: the rules' reason, then the
                    # scores asked again with the ones given selected
                    refused["start"] = ev["start"]
                    ev["start"] = None
                    app.toast(why)
                    Form(app, ask, done, ev).start()
                    return
            app.pop_to(base)
            app.start_game(game, ev["names"], opts)

        Form(app, ask, done).start()

    items = [(display_name(g[0]), g[0]) for g in GAMES]
    app.push(Menu(app, "Which game?" if not paper else "From paper: game?", items, chosen))


def start_refused(game, names, opts):
    """Why the rules refuse to start `game` from these paper scores, or
    None: asked before the form closes, so a refused start keeps what was
    entered."""
    try:
        get_game(game).new(names, opts)
    except RuleError as e:
        return str(e)
    return None
