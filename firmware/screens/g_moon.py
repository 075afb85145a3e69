"""Moon (dominoes, three players) on the device: the bid round (each seat
once, in turn), the bidder's trump and spare swap, who won each trick, and
the hand score. Bids and trumps offered are those legal() lists."""

from screens.base import title_bar, text_right
from screens.form import Form, seats
from screens.gcommon import ask_one, event, hint

PLAYERS = (3, 3)
BID_LABELS = {21: "21 shoot moon"}
TRUMP_LABELS = {"doubles": "Doubles", "follow-me": "Follow me"}


def option_field(ev, n, app):
    if "target" not in ev:
        return ("target", "Points to win", "num", (5, 99, 21), "")
    if "first_bidder" not in ev:
        return ("first_bidder", "First bidder", "pick", [("Seat %d" % (i + 1), i) for i in range(3)], "")
    return None


def finish_options(ev, n, app):
    return {"target": ev["target"], "first_bidder": ev["first_bidder"]}


# (legal move, menu label, action key)
ACTIONS = (
    ("bid", "Bid", "bid"),
    ("pass", "Pass", "pass"),
    ("trump", "Name trump", "trump"),
    ("swap", "Swapped spare", "swap"),
    ("trick", "Trick won", "trick"),
    ("totals", "Hand totals", "totals"),
)


def act(s, key):
    app = s.app
    mv = s.moves()
    names = s.names()
    if key == "bid":
        spec = mv["bid"]
        p = spec["players"][0]
        items = [(BID_LABELS.get(v, str(v)), v) for v in spec["values"]]
        ask_one(s, "bid", "bid", names[p][:10] + " bids", items, {"player": p})
    elif key == "pass":
        s.submit({"type": "pass", "player": mv["pass"]["players"][0]})
    elif key == "trump":
        spec = mv["trump"]
        items = [(TRUMP_LABELS.get(v, str(v)), v) for v in spec["values"]]
        ask_one(s, "trump", "trump", "Trump", items, {"player": spec["players"][0]})
    elif key == "swap":
        s.submit({"type": "swap", "player": mv["swap"]["players"][0]})
        app.toast("spare swap noted")
    elif key == "trick":
        winners = mv["trick"].get("values", [0, 1, 2])
        ask_one(s, "trick", "winner", "Trick won by", seats(names, winners), done=lambda ev: _hand_done(s, "trick", ev))
    elif key == "totals":
        spec = mv["totals"]
        least = spec["at_least"]

        def ask_tricks(ev):
            t = ev.get("tricks") or [None, None, None]
            for p in range(2):
                if t[p] is None:
                    left = spec["sum"] - (t[0] if p == 1 else 0)
                    return (("tricks", p, 3), names[p][:10] + " tricks", "num", (least[p], min(spec["max"], left), least[p]), "")
            if t[2] is None:
                t[2] = spec["sum"] - t[0] - t[1]
            return None

        Form(app, ask_tricks, lambda ev: _hand_done(s, "totals", ev)).start()


def _hand_done(s, kind, ev):
    """After a hand's last trick: toast each player's points for the hand
    (the difference in scores, so nothing but the contract is read)."""
    before = s.state["round"]
    old = list(s.state["scores"])
    if event(s, kind, ev) and s.state["round"] > before:
        new = s.state["scores"]
        names = s.names()
        s.app.toast("Hand: " + ", ".join(["%s %+d" % (names[p], new[p] - old[p]) for p in range(3)]))


def draw(d, s, play):
    st = s.state
    names = st["players"]
    ph = st["phase"]
    mv = s.moves()
    turn = mv["pass"]["players"][0] if "pass" in mv else None
    bids = st.get("bids") or [None, None, None]
    tricks = st.get("tricks") or [0, 0, 0]
    bidder = st.get("bidder")
    title_bar(d, "Game over" if st["over"] else "Hand %d %s" % (st["round"] + 1, ph))
    y = 11
    for p in range(3):
        mark = " "
        if turn == p:
            mark = ">"
        elif bidder == p:
            mark = "*"
        d.text(mark + names[p][:8], 0, y, 1)
        if ph == "play":
            d.text("t%d" % tricks[p], 82, y, 1)
        elif ph == "bidding" and bids[p] is not None:
            d.text("pass" if bids[p] == 0 else str(bids[p]), 78, y, 1)
        text_right(d, str(st["scores"][p]), y)
        y += 9
    if bidder is not None and ph in ("trump", "play"):
        tr = st.get("trump")
        d.text("bid %s trump %s" % (st.get("bid", "?"), "?" if tr is None else TRUMP_LABELS.get(tr, str(tr))[:6]), 0, 40, 1)
    if st["over"]:
        hint(d, "Won: " + names[st["winner"]])
    elif ph == "bidding":
        hint(d, "OK: bid / pass")
    elif ph == "trump":
        hint(d, "OK: trump")
    else:
        hint(d, "OK: trick winner")
