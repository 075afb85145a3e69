"""Moonstar's actions on the device, as the game screen's action menu
offers them (ui/moonstar/offers.py ACTIONS): the setter roll, the set-up
and a bid (the set-up skipped, the start of play and the result's entry
are ui/moonstar/game.py act's own); the rarer moments are in
ui/moonstar/more.py. Loaded when an action is chosen and unloaded when the
game screen shows again, so the game's resident code stays small.

Defaults sit on the likely answer, so that OK alone often does: the bidder
menu starts at the player who probably bids next (table order kept), and
the amount one raise above the standing bid: the raise the table made last
this round (tables keep a rhythm), else _BID_RAISE; the first bid at the
lowest."""

from shared_rules.ticks import const
from ui.form import Form, seats
from ui.gcommon import event

_BID_RAISE = const(5)  # the bid entry starts this far above the standing bid, until the table shows its own raise


def rotated(items, first):
    """Seat menu items in table order, starting at seat `first` (the
    likely answer, so OK alone takes it)."""
    for i in range(len(items)):
        if items[i][1] == first:
            return items[i:] + items[:i]
    return items


def _bidders(s):
    """The last few bids entered here, as (round, seat, amount), kept with
    the game's session: only defaults for the next bid's entry, so a stale
    entry (after an undo) costs a press, never a wrong event."""
    return s.notes.setdefault("bidders", [])


def likely_bidder(s, st):
    """Who probably bids next: the player before the standing bidder (two
    players outbidding each other), else the one after the standing bidder
    or, for the first bid, after the setter."""
    n = len(st["players"])
    mine = [p for r, p, _ in _bidders(s) if r == st["round"]]
    if st["bidder"] is None:
        return (st["setter"] + 1) % n
    if len(mine) >= 2 and mine[-1] == st["bidder"] and mine[-2] != st["bidder"]:
        return mine[-2]
    return (st["bidder"] + 1) % n


def raise_of(s, st):
    """The last raise entered this round (a bid over the one before it),
    else _BID_RAISE."""
    amounts = [a for r, _, a in _bidders(s) if r == st["round"]]
    if len(amounts) >= 2 and amounts[-1] == st["bid"] and amounts[-1] > amounts[-2]:
        return amounts[-1] - amounts[-2]
    return _BID_RAISE


def bid_done(s, ev):
    if event(s, "bid", ev):
        bidders = _bidders(s)
        del bidders[:-3]
        bidders.append((s.state["round"], ev["player"], ev["amount"]))


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
        items = rotated(seats(names, spec["players"]), likely_bidder(s, st))
        standing = st["bid"]
        lo, hi = spec["min"], spec["max"]
        start = min(hi, max(lo, standing + raise_of(s, st))) if standing else lo

        def ask_bid(ev):
            if "player" not in ev:
                return ("player", "Who bids?", "pick", items, "")
            if "amount" not in ev:
                return ("amount", names[ev["player"]][:7] + " bids", "num", (lo, hi, start),
                        "standing %d" % standing if standing else "first bid")
            return None

        Form(app, ask_bid, lambda ev: bid_done(s, ev)).start()
    else:  # the rarer moments: ui/moonstar/more.py
        from ui.moonstar.more import act as more

        more(s, key)
