"""Moonstar on the device: setter roll, Game 12 variant choice, set-up
(device roll, entered, or skipped), the bidding minute in big digits with
the standing bid beside it, challenges, side bets, the playing minute and
the result. Choices and ranges come from the rules' legal() spec."""

from screens.base import title_bar, text_right
from screens.form import Form, seats
from screens.gcommon import ask_one, event, hint, scoreboard

PLAYERS = (2, 8)


# The options (and Game 12's round variants) are asked once in a while, so
# they live in screens/ms_options.py, loaded for that and then unloaded.
def option_field(ev, n, app):
    from screens.ms_options import option_field

    return option_field(ev, n, app)


def finish_options(ev, n, app):
    from screens.ms_options import finish_options

    return finish_options(ev, n, app)


# -- actions -----------------------------------------------------------------
# (legal move, menu label, action key)
ACTIONS = (
    ("roll_for_setter", "Roll for setter", "roll"),
    ("choose_setter", "Choose setter", "choose_setter"),
    ("variants", "Choose variants", "variants"),
    ("setup", "Device rolls", "setup_seed"),
    ("setup", "Enter set-up", "setup_enter"),
    ("setup", "Skip set-up", "setup_skip"),
    ("bid", "Bid", "bid"),
    ("challenge", "Challenge", "challenge"),
    ("bet", "Side bet", "bet"),
    ("start_play", "Start play", "start_play"),
    ("result", "Enter result", "result"),
)


def act(s, key):
    app = s.app
    mv = s.moves()
    names = s.names()
    if key == "roll":
        if s.submit({"type": "roll_for_setter", "seed": app.board.random32()}):
            st = s.state
            if st["phase"] == "first":
                app.toast("Tie: %s roll again" % ", ".join([names[p] for p in st["rolloff"]]))
            else:
                app.toast("%s sets up the first round" % names[st["setter"]])
    elif key == "choose_setter":
        ask_one(s, "choose_setter", "player", "Setter", seats(names, mv["choose_setter"]["players"]))
    elif key == "variants":
        from screens.ms_options import variant_field

        def variants_done(ev):
            ev.pop("np", None)
            event(s, "variants", ev)
            from app import drop

            drop(("screens.ms_options",))

        Form(app, lambda ev: variant_field(ev, app), variants_done).start()
    elif key == "setup_seed":
        if s.submit({"type": "setup", "seed": app.board.random32()}):
            show_situation(s)
    elif key == "setup_skip":
        s.submit({"type": "setup"})
    elif key == "setup_enter":
        _setup_form(s, mv["setup"])
    elif key == "bid":
        spec = mv["bid"]

        def ask_bid(ev):
            if "player" not in ev:
                return ("player", "Bidder", "pick", seats(names, spec["players"]), "")
            if "amount" not in ev:
                return ("amount", "Bid: " + names[ev["player"]][:10], "num", (spec["min"], spec["max"], spec["min"]), "standing %d" % s.state["bid"])
            return None

        Form(app, ask_bid, lambda ev: event(s, "bid", ev)).start()
    elif key == "challenge":
        ask_one(s, "challenge", "player", "Challenger", seats(names, mv["challenge"]["players"]))
    elif key == "bet":
        spec = mv["bet"]

        def ask_bet(ev):
            if "player" not in ev:
                return ("player", "Bettor", "pick", seats(names, spec["players"]), "")
            if "on" not in ev:
                return ("on", "Bet on", "pick", [("made", "made"), ("failed", "failed")], "")
            if "amount" not in ev:
                return ("amount", "Amount", "num", (0, spec["limits"][ev["player"]], 0), names[ev["player"]][:16])
            return None

        Form(app, ask_bet, lambda ev: event(s, "bet", ev)).start()
    elif key == "start_play":
        s.submit({"type": "start_play"})
    elif key == "result":
        spec = mv["result"]
        bid = s.state["bid"]

        def ask_points(ev):
            if "points" not in ev:
                return ("points", "Points scored", "num", (spec["min"], spec["max"], min(bid, spec["max"])), "bid %d" % bid)
            return None

        def result_done(ev):
            if event(s, "result", ev):
                last = s.state.get("last") or {}
                if last.get("bidder") is None:
                    return
                if last.get("sit"):
                    show_best(s)  # says made/failed too, beside the best possible
                else:
                    app.toast("%s %s %d (%d points)" % (names[last["bidder"]], "made" if last["made"] else "failed", last["bid"], last["points"]))

        Form(app, ask_points, result_done).start()


def _setup_form(s, spec):
    values = spec["planets"]
    nm = spec["moons"]
    nd = spec["dice"]
    per = spec.get("per_star", 3)
    stars = spec.get("stars", 12)

    def ask(ev):
        pl = ev.get("planets") or [None] * len(values)
        for i in range(len(values)):
            if pl[i] is None:
                free = [("Star %d" % k, k) for k in range(stars) if k not in pl]
                return (("planets", i, len(values)), "Planet %d star" % values[i], "pick", free, "")
        mo = ev.get("moons") or [None] * nm
        for i in range(nm):
            if mo[i] is None:
                free = [("Star %d" % k, k) for k in range(stars) if mo.count(k) < per]
                return (("moons", i, nm), "Moon %d star" % (i + 1), "pick", free, "")
        di = ev.get("dice") or [None] * nd
        for i in range(nd):
            if di[i] is None:
                return (("dice", i, nd), "Die %d of %d" % (i + 1, nd), "num", (1, 6, 1), "")
        return None

    def done(ev):
        ev["planets"] = [[ev["planets"][i], values[i]] for i in range(len(values))] if values else []
        if event(s, "setup", ev):
            show_situation(s)

    Form(s.app, ask, done).start()


def situation_text(sit):
    pl = " ".join(["%d@%d" % (p[1], p[0]) for p in sit["planets"]]) or "none"
    mo = " ".join([str(m) for m in sit["moons"]])
    di = " ".join([str(x) for x in sit["dice"]])
    return "Planets value@star: %s\nMoons on stars: %s\nDice: %s" % (pl, mo, di)


def show_situation(s):
    from screens.base import Notice

    sit = s.state.get("sit")
    if sit:
        s.app.push(Notice(s.app, "Situation", situation_text(sit)))


def _best_known(s):
    """The last round was bid on and its situation is known."""
    last = s.state.get("last")
    return bool(last and last.get("sit") and last.get("bidder") is not None)


def show_best(s):
    """The last round's points beside the best possible (screens/ms_best.py,
    loaded for that screen only)."""
    from screens.ms_best import BestPossible

    s.app.push(BestPossible(s.app, s.state["round"], s.state["last"]))


def menu_items(s):
    items = [("Situation", "sit")] if s.state.get("sit") else []
    if _best_known(s):
        items.append(("Last round", "best"))
    return items


def menu_action(s, key):
    if key == "sit":
        show_situation(s)
    elif key == "best":
        show_best(s)


# -- drawing -------------------------------------------------------------------
def _clock(d, s, label):
    import bigdigits

    st = s.state
    t = s.timer
    if t is not None:
        secs = t.seconds_shown()
        bigdigits.draw(d, str(secs), 2, 14, 32)
        if not t.running:
            d.text("PAUSED" if secs else "TIME UP", 2, 47, 1)
    else:
        d.text("no time", 4, 20, 1)
        d.text("limit", 4, 30, 1)
    # the standing bid and bidder, beside the clock
    d.vline(68, 11, 44, 1)
    d.text(label, 72, 12, 1)
    if st["bid"]:
        bigdigits.draw(d, str(st["bid"]), 74, 22, 24)
        d.text(st["players"][st["bidder"]][:7], 72, 46, 1)
    else:
        d.text("--", 84, 28, 1)
    if st.get("challengers"):
        text_right(d, "x%d" % len(st["challengers"]), 12)


def draw(d, s, play):
    st = s.state
    ph = st["phase"]
    names = st["players"]
    rnd = st["round"] + 1
    if ph == "bidding":
        title_bar(d, "R%d Bidding" % rnd)
        _clock(d, s, "BID")
        # Whether another bid can come is the rules' call (70 closes bidding).
        hint(d, "OK:bid" + (" BACK:menu" if "bid" in s.moves() else " max bid"))
        return
    if ph == "playing":
        title_bar(d, "R%d Playing" % rnd)
        _clock(d, s, "NEEDS")
        hint(d, "OK: result")
        return
    titles = {"first": "Who sets up?", "choose": "Variants", "setup": "Set-up", "betting": "Side bets",
              "result": "Time up!", "over": "Game over"}
    title_bar(d, "R%d %s" % (rnd, titles.get(ph, ph)) if ph != "over" else "Game over")
    mark = st["setter"] if ph in ("choose", "setup") else (st["bidder"] if ph in ("betting", "result") else None)
    scoreboard(d, names, st["scores"], 11, 4, mark, play.scroll)
    if ph == "over":
        hint(d, "Won: " + names[st["winner"]])
    elif ph == "first":
        hint(d, "OK: roll/choose")
    elif ph == "setup":
        hint(d, names[st["setter"]][:8] + " sets up")
    elif ph == "choose":
        hint(d, names[st["setter"]][:8] + " picks")
    elif ph == "betting":
        hint(d, "OK: bet / play")
    else:
        hint(d, "OK: enter result")
