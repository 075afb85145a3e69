"""Moonstar's options on the device: Game 1-12 or a combination of Games
2-11 (refused combinations are named by the rules and asked again), and the
numbers of moons, dice and planets Games 2-5 need; also Game 12's round
variants. What each game does is in shared_rules.moonstar.opts; this module
only asks, and is unloaded while the game is played."""

from shared_rules.ticks import const

# Menu labels of Games 1-12 (presentation only; what each game does is in
# shared_rules.moonstar.opts).
_LABELS = const(("", "Basic", "More moons", "Moons>dice", "Dice>moons", "Planets", "Fav. star",
                 "No planets", "Adv. score", "Movement", "Challenge", "Side bets", "Setter picks"))


def _o():
    from shared_rules.moonstar import opts as moonstar_opts

    return moonstar_opts


# -- options and variants ------------------------------------------------------
def _counts(ev, games):
    """Next field for the numbers of moons, dice and planets that Games 2-5
    need; None when there is nothing (more) to ask."""
    o = _o()
    for g, mlo, mhi, dlo, dhi, rel in o.COUNTS:
        if g not in games:
            continue
        if rel == "equal":
            if "moons" not in ev:
                return ("moons", "Moons and dice", "num", (mlo, mhi, mlo), "Game 2")
            ev["dice"] = ev["moons"]
        elif rel == "moons":
            if "dice" not in ev:
                return ("dice", "Dice", "num", (dlo, dhi, dlo), "Game 3")
            if "moons" not in ev:
                lo = max(mlo, ev["dice"] + 1)
                return ("moons", "Moons", "num", (lo, mhi, lo), "more than dice")
        else:
            if "moons" not in ev:
                return ("moons", "Moons", "num", (mlo, mhi, mlo), "Game 4")
            if "dice" not in ev:
                lo = max(dlo, ev["moons"] + 1)
                return ("dice", "Dice", "num", (lo, dhi, lo), "more than moons")
    if 5 in games:
        if "np" not in ev:
            return ("np", "Planets", "num", (1, 6, 4), "how many")
        n = ev["np"]
        pl = ev.get("planets") or [None] * n
        for i in range(n):
            if pl[i] is None:
                return (("planets", i, n), "Planet %d value" % (i + 1), "num", (1, 20, 5), "")
    return None


def _combo(ev, app, title, games_key="games"):
    """Ask for a list of Games 2-11 that can be combined; refused
    combinations are named (the rules' message) and asked again."""
    o = _o()
    if games_key not in ev:
        items = [("%d %s" % (g, _LABELS[g]), g) for g in range(2, 12)]
        return ("multi", (games_key, title, "multi", items, ""))
    try:
        o.check_games(ev[games_key], "this combination")
    except Exception as e:
        app.toast(str(e))
        del ev[games_key]
        return _combo(ev, app, title, games_key)
    return None


def variant_field(ev, app):
    """Next field of Game 12's round variants (the setter's choice)."""
    c = _combo(ev, app, "Round variants")
    if c is not None:
        return c[1]
    return _counts(ev, ev["games"])


def option_field(ev, n, app):
    o = _o()
    if "game" not in ev:
        items = [("%d %s" % (g, _LABELS[g]), g) for g in range(1, 13)] + [("Combine 2-11", "combo")]
        return ("game", "Moonstar game", "pick", items, "")
    g = ev["game"]
    if g == "combo":
        c = _combo(ev, app, "Combine games")
        if c is not None:
            return c[1]
        games = ev["games"]
    else:
        games = [g] if 2 <= g <= 11 else []
    return _counts(ev, games)


def finish_options(ev, n, app):
    g = ev["game"]
    games = ev["games"] if g == "combo" else [g]
    opts = {"game": ev["games"] if g == "combo" else g}
    for key in ("moons", "dice", "planets"):
        if key in ev:
            opts[key] = ev[key]
    opts["bid_seconds"] = app.conf["bid_seconds"]
    if 8 not in games:
        opts["play_seconds"] = app.conf["play_seconds"]
    return opts


