"""Moonstar's actions on the device, as the game screen's action menu
offers them (ui/moonstar/offers.py ACTIONS): the setter roll, the set-up
and a bid (the set-up skipped, the start of play and the result's entry
are ui/moonstar/game.py act's own); the rarer moments are in
ui/moonstar/more.py. Loaded when an action is chosen and unloaded when the
game screen shows again, so the game's resident code stays small.

Defaults sit on the likely answer, so that OK alone often does: the bidder
menu's cursor starts on the player who probably bids next (the seats in
table order, always: a hand that knows the menu's rows is never sent to
the wrong one), and the amount one raise above the standing bid: the
raise that made the standing bid (tables keep a rhythm), else _BID_RAISE;
the first bid at the lowest. Both come from the bids that stand: an
undone bid leaves nothing behind."""

from shared_rules.ticks import const
from ui.form import Form, seats
from ui.gcommon import event

_BID_RAISE = const(5)  # the bid entry starts this far above the standing bid, until the table shows its own raise


def _bidders(s):
    """The last few bids entered here, as (round, seat, amount, the bidder
    and the bid that stood before it), kept with the game's session: only
    defaults for the next bid's entry."""
    return s.notes.setdefault("bidders", [])


def _standing(s, st):
    """The note of the standing bid (the newest note of it: an earlier one,
    if any, was undone), or None if it was not entered here. The bid
    before it, which the note names, stands too: an undo takes back the
    newest event first."""
    found = None
    for note in _bidders(s):
        if note[0] == st["round"] and note[1] == st["bidder"] and note[2] == st["bid"]:
            found = note
    return found


def likely_bidder(s, st):
    """Who probably bids next: the player the standing bidder outbid (two
    players outbidding each other), else the one after the standing bidder
    or, for the first bid, after the setter."""
    n = len(st["players"])
    if st["bidder"] is None:
        return (st["setter"] + 1) % n
    note = _standing(s, st)
    if note is not None and note[3] is not None and note[3] != st["bidder"]:
        return note[3]
    return (st["bidder"] + 1) % n


def raise_of(s, st):
    """The raise that made the standing bid (over the bid before it), else
    _BID_RAISE."""
    note = _standing(s, st)
    if note is not None and note[4]:
        return note[2] - note[4]
    return _BID_RAISE


def bid_done(s, ev):
    st = s.state  # what stood before the bid
    if event(s, "bid", ev):
        bidders = _bidders(s)
        del bidders[:-3]
        bidders.append((st["round"], ev["player"], ev["amount"], st["bidder"], st["bid"]))


def _show(s):
    from ui.moonstar.situation import show

    show(s, s.state["phase"] == "bidding")


def act(s, key):
    """Do the action `key`."""
    app = s.app
    mv = s.moves()
    names = s.names()
    st = s.state
    if key == "roll":
        if s.submit({"type": "roll_for_setter", "seed": app.board.random32()}):
            from ui.moonstar.roll import RollOff

            app.push(RollOff(app, s.state))
    elif key == "setup_seed":
        if s.submit({"type": "setup", "seed": app.board.random32()}):
            # the board's drawing, in the passes after the set-up's
            app.prepare(("ui.moonstar.ring", "ui.moonstar.situation"), lambda: _show(s))
    elif key == "setup_enter" or key == "fix":
        from ui.moonstar.situation import entry

        entry(s, mv["setup"] if key == "setup_enter" else mv["fix_situation"],
              "setup" if key == "setup_enter" else "fix_situation")
    elif key == "bid":
        spec = mv["bid"]
        items = seats(names, spec["players"])
        likely = likely_bidder(s, st)
        standing = st["bid"]
        lo, hi = spec["min"], spec["max"]
        start = min(hi, max(lo, standing + raise_of(s, st))) if standing else lo

        def ask_bid(ev):
            if "player" not in ev:
                return ("player", "Who bids?", "pick", items, "", likely)
            if "amount" not in ev:
                return ("amount", (names[ev["player"]], " bids"), "num", (lo, hi, start),
                        "standing %d" % standing if standing else "first bid")
            return None

        Form(app, ask_bid, lambda ev: bid_done(s, ev)).start()
    else:  # the rarer moments: ui/moonstar/more.py
        from ui.moonstar.more import act as more

        more(s, key)
