"""Moonstar on the device: setter roll, Game 12 variant choice, set-up
(device roll, entered, or skipped), the bidding minute in big digits with
the standing bid beside it, challenges, side bets, the playing minute and
the result. Choices and ranges come from the rules' legal() spec."""

from shared_rules.ticks import const
from ui.base import fit, text_right, title_bar
from ui.gcommon import hint, over, scoreboard
from ui.moonstar import offers
from ui.moonstar.offers import actions, likely, menu_items  # noqa: F401 (the game screen's menus: Play)

PLAYERS = (2, 8)


# The options (and Game 12's round variants) are asked once in a while, so
# they live in ui/moonstar/options.py, loaded for that and then unloaded;
# OPTIONS_CODE is what asking them loads, leaf first (App.prepare), and its
# last module asks them (option_field, finish_options: ui/menus/newgame.py).
OPTIONS_CODE = ("shared_rules.util", "shared_rules.moonstar", "shared_rules.moonstar.opts", "ui.moonstar.options")


# -- actions -----------------------------------------------------------------
def act(s, key):
    """Do what the action menu offered (ui/moonstar/actions.py, loaded for
    it: what it opens over this screen is let go when that closes). The
    two that are one event with nothing to ask are done here, so that
    the pass that applies them loads no code for them, and so is the
    result, whose entry is a module of its own: the actions' code would
    sit beside it until the result is in."""
    if key == "start_play":
        s.submit({"type": key})
        return
    if key == "setup_skip":  # its code first: the set-up's, and the bidding minute's
        s.app.prepare(_SKIP, lambda: s.submit({"type": "setup"}))
        return
    # With the screen's code comes what the next event needs (the rules'
    # AHEAD, Session.ahead), if the game screen's idle passes have not
    # loaded it yet: a quick press leaves them no time.
    if key == "result":
        # without a known set-up the entry is a plain number; with one, the
        # entry's solve wants the room, and the check loads the result's
        # code itself (ui/moonstar/check.py)
        code = _SOLVING_POINTS if s.state.get("sit") else _PLAIN + s.ahead()
        s.app.prepare(code, lambda: _points(s))
        return
    code = _MORE if key in _MORE_KEYS else _SEEDED if key == "setup_seed" else _ACTIONS
    s.app.prepare(code + s.ahead(), lambda: _run(s, key))


# What each action's screen loads, leaf first: loaded over loop passes
# before it opens (App.prepare), some 100 ms of a Pico's time in all.
# with a set-up: the entry, its solve and the result's code it hands the points to
_SOLVING_POINTS = ("ui.dialogs", "ui.moonstar.solve", "ui.moonstar.result", "ui.moonstar.points")
_PLAIN = ("ui.dialogs", "ui.moonstar.result")  # a points entry without a set-up
_ACTIONS = ("ui.form", "ui.moonstar.actions")
_MORE = _ACTIONS + ("ui.dialogs", "ui.moonstar.more")
# a set-up the device rolls: what applying it loads (its seed's check, the
# set-up's own code) and the bidding minute it starts (the session's timer)
_SKIP = ("shared_rules.moonstar.setup", "shared_rules.timer")
_SEEDED = _ACTIONS + ("shared_rules.seeds",) + _SKIP
_MORE_KEYS = ("choose_setter", "variants", "close", "challenge", "bet")  # ui/moonstar/more.py's


def _points(s):
    spec = s.moves()["result"]
    if s.state.get("sit"):
        from ui.moonstar.points import enter
    else:
        from ui.moonstar.result import enter_points as enter
    enter(s, spec)


def _run(s, key):
    from ui.moonstar.actions import act as run

    run(s, key)


def _name(s, seat):
    names = s.names()
    return names[seat] if seat is not None and 0 <= seat < len(names) else ""


def turn(s):
    """The rules' {"leader", "to_act"}: the setter, and the one seat the
    rules wait for (None while anyone may act)."""
    return s.turn()


# -- the OK and BACK menus' items: ui/moonstar/offers.py
def question(s):
    return offers.question(s, _name)


def menu_action(s, key):
    if not offers.menu_action(s, key):  # not one of the menu's own items: an action
        act(s, key)


# -- between events ------------------------------------------------------------
_SOLVING = ("bidding", "betting", "playing", "result")  # the phases with a set-up and no result yet
# A running minute's last stretch: the event its end makes is the next, and
# its code (which a solve lets go for its room) is loaded ahead instead.
_NEAR_MS = const(1500)


def ahead(s):
    """While the game screen is alone (ui/play.py), from the set-up to the
    result: the round's best possible, solved ahead a slice a loop pass
    (ui/moonstar/solve.py, as the session's job), so that the points entry,
    the result's check and the result screen find it known when the
    bidder's OK comes. Its answer stays in the session's notes; an event
    or a screen opening stops an unfinished solve, and it starts again
    when the game screen is next alone.

    Not in a running minute's last _NEAR_MS: the pass that applies its
    end needs the round's code, which a solve lets go, and loading it
    in that pass makes it long (about 50 ms of loads on a Pico). So the
    solve stops, and the session loads that code ahead over the passes
    left (Session.fetch_ahead); the next phase solves again. Nor while a
    time-up waits for that code (Session.tick)."""
    t = s.timer
    if s.waiting or t is not None and t.running and t.remaining() < _NEAR_MS:
        s.stop_job()
        return
    job = s.job
    if job is None:
        st = s.state
        sit = st.get("sit")
        if not sit or st["phase"] not in _SOLVING:
            return
        known = s.notes.get("best")
        if known is not None and known[0] == sit:
            return
        from ui.moonstar.solve import Slices

        s.notes.pop("best", None)  # another set-up's: room for this one's
        job = s.job = Slices(sit, s.app, s)
        job.own = True  # it loaded ui.moonstar.solve, and lets it go when it ends
    job.update()
    if job.done():
        s.job = None
        if job.answer is not None:  # the round's, for the points entry, the check and the result screen
            s.notes["best"] = (job.sit, job.answer)


# -- drawing -------------------------------------------------------------------
def _clock(d, s, label):
    from ui import bigdigits

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
    # the standing bid (24 px digits, 20-43) and its bidder below (46-53)
    d.vline(68, 11, 44, 1)
    d.text(label, 72, 11, 1)
    if st["bid"]:
        bigdigits.draw(d, str(st["bid"]), 74, 20, 24)
        d.text(fit(st["players"][st["bidder"]], 7), 72, 46, 1)  # x 72 on: 7 columns
    else:
        d.text("--", 84, 28, 1)
    if st.get("challengers"):  # beside the bid's digits, clear of the label
        text_right(d, "x%d" % len(st["challengers"]), 28)


def _paused(s):
    """The minute waits, paused, with time left (a long OK resumes it)."""
    t = s.timer
    return t is not None and not t.running and t.remaining() > 0


def _title(d, s, words):
    """Round and phase on the left, the setter on the right ("set:Ann")."""
    st = s.state
    setter = turn(s).get("leader")
    left = "R%d %s" % (st["round"] + 1, words)
    # the setter's name fitted to the room left (a column apart, after
    # "set:"), whole when it fits; left out when not even three letters
    # (or a shorter name whole) would show: the round and phase come first
    right = ""
    if setter is not None:
        name = _name(s, setter)
        room = 16 - len(left) - 1 - 4
        if room >= min(3, len(name)):
            right = "set:" + fit(name, room)
    title_bar(d, left, right)


def draw(d, s, play):
    st = s.state
    ph = st["phase"]
    names = st["players"]
    if ph == "bidding":
        _title(d, s, "Bids")
        # Whether another bid can come is the rules' call (70 closes bidding).
        tu = s.moves().get("time_up") or {}
        closed = tu.get("closed")
        _clock(d, s, "CLOSED" if closed else "BID")
        if _paused(s):  # OK still does what it says; a long OK resumes
            hint(d, "OK:play hold:run" if closed else "OK:bid hold:run")
        else:
            hint(d, "OK: play minute" if closed else "OK:bid BACK:menu")
        return
    if ph == "playing":
        _title(d, s, "Play")
        _clock(d, s, "NEEDS")
        hint(d, "hold OK: resume" if _paused(s) else fit(_name(s, st["bidder"]), 10) + " plays")
        return
    if ph == "over":
        over(d, s)
    else:
        titles = {"first": "Who sets up?", "choose": "Variants", "setup": "Set-up", "betting": "Bets", "result": "Result"}
        _title(d, s, titles.get(ph, ph))
    act_seat = turn(s).get("to_act")
    scoreboard(d, names, st["scores"], 11, 4, act_seat, play.scroll)
    if ph == "over":
        return
    if ph == "first":
        hint(d, "OK: who sets up")
    elif ph == "setup":
        hint(d, fit(names[st["setter"]], 8) + " sets up")
    elif ph == "choose":
        hint(d, fit(names[st["setter"]], 10) + " picks")
    elif ph == "betting":
        hint(d, "OK: bet / play")
    else:
        hint(d, fit(_name(s, st["bidder"]), 8) + ": points")
