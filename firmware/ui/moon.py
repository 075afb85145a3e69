"""Moon (dominoes, three players) on the device: the bid round (each seat
once, in turn), the bidder's trump and spare swap, who won each trick, and
the hand score. Bids and trumps offered are those legal() lists.

OK in the bidding asks the player to act "bid or pass?" in one menu (pass
first, then the bids); in the play UP/DOWN points at the trick's winner
(it starts at the one who leads) and OK enters it. Whose turn (the
hand's first bidder, who bids, names trump or leads) is the rules'
turn(), never worked out here."""

from ui.banner import banner
from ui.base import COLS, fit, text_right, title_bar
from ui.gcommon import ask_one, event, hint, offered, over

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


# legal move|menu label|action key, in menu order (gcommon.offered)
ACTIONS = """bid|Bid|bid
pass|Pass|pass
trump|Name trump|trump
swap|Swapped spare|swap
trick|Trick won|trick
totals|Hand totals|totals"""


def actions(s):
    """Bid and pass are one question ("bid"), asked as one menu."""
    acts = offered(s.moves(), ACTIONS)
    if "pass" in s.moves():
        acts = [("Bid or pass", "bid")] + [a for a in acts if a[1] not in ("bid", "pass")]
    return acts


def question(s):
    mv = s.moves()
    if "trump" in mv:
        # the words whole, the name fitted to what is left (title_bar):
        # "P1: trump/swap?" where it fits, else "Chloe: trump?"
        name = s.names()[mv["trump"]["players"][0]]
        return (name, ": trump/swap?" if len(name) < 4 else ": trump?")
    return "What happened?"


def pointing(s):
    """The seat the game screen points at first: the one who leads
    (turn()'s to_act)."""
    if "trick" not in s.moves():
        return None
    return s.turn()["to_act"]


def act_on(s, p):
    if p in s.moves()["trick"].get("values", [0, 1, 2]):
        _hand_done(s, "trick", {"winner": p})


def act(s, key):
    from ui.form import Form, seats  # an entry's: it goes with the entry (a game over holds no form)

    app = s.app
    mv = s.moves()
    names = s.names()
    if key == "bid" and "pass" in mv:
        p = mv["pass"]["players"][0]
        items = [("Pass", 0)]
        if "bid" in mv:
            items += [(BID_LABELS.get(v, str(v)), v) for v in mv["bid"]["values"]]

        def said(ev):
            if ev["bid"]:
                event(s, "bid", ev, {"player": p})
            else:
                s.submit({"type": "pass", "player": p})

        # "P1: bid or pass?" where it fits, else "Chloe: bid/pass?"
        ask_one(s, "bid", "bid", (names[p], ": bid or pass?" if len(names[p]) < 3 else ": bid/pass?"), items, done=said)
    elif key == "bid":
        spec = mv["bid"]
        p = spec["players"][0]
        items = [(BID_LABELS.get(v, str(v)), v) for v in spec["values"]]
        ask_one(s, "bid", "bid", (names[p], " bids"), items, {"player": p})
    elif key == "pass":
        s.submit({"type": "pass", "player": mv["pass"]["players"][0]})
    elif key == "trump":
        spec = mv["trump"]
        items = [(TRUMP_LABELS.get(v, str(v)), v) for v in spec["values"]]
        ask_one(s, "trump", "trump", (names[spec["players"][0]], ": trump?"), items, {"player": spec["players"][0]})
    elif key == "swap":
        s.submit({"type": "swap", "player": mv["swap"]["players"][0]})
        app.toast("spare swap noted")
    elif key == "trick":
        winners = mv["trick"].get("values", [0, 1, 2])
        ask_one(s, "trick", "winner", "Trick %d: who won?" % (sum(s.state["tricks"]) + 1), seats(names, winners),
                done=lambda ev: _hand_done(s, "trick", ev))
    elif key == "totals":
        spec = mv["totals"]
        least = spec["at_least"]

        def ask_tricks(ev):
            t = ev.get("tricks") or [None, None, None]
            for p in range(2):
                if t[p] is None:
                    left = spec["sum"] - (t[0] if p == 1 else 0)
                    return (("tricks", p, 3), (names[p], " tricks"), "num", (least[p], min(spec["max"], left), least[p]), "")
            if t[2] is None:
                t[2] = spec["sum"] - t[0] - t[1]
            return None

        Form(app, ask_tricks, lambda ev: _hand_done(s, "totals", ev)).start()


def _hand_done(s, kind, ev):
    """After a hand's last trick: toast each player's points for the hand
    (the difference in scores, so nothing but the contract is read)."""
    st = s.state
    before = st["round"]
    old = list(st["scores"])
    bid, bidder = st.get("bid"), st.get("bidder")
    if event(s, kind, ev) and (s.state["round"] > before or s.state["over"]):
        new = s.state["scores"]
        names = s.names()
        s.app.toast("Hand: " + ", ".join(["%s %+d" % (names[p], new[p] - old[p]) for p in range(3)]))
        if bid == 21 and bidder is not None and new[bidder] > old[bidder]:
            banner(s.app, "Shot the moon!\n" + fit(names[bidder], 14))


def draw(d, s, play):
    st = s.state
    names = st["players"]
    ph = st["phase"]
    # whose turn, as the rules say it (turn()): the hand's first bidder,
    # and who bids, names trump or leads now
    t = s.turn()
    act = t["to_act"]
    at = play.pointed(s)
    turn = at if at is not None else act
    bids = st.get("bids") or [None, None, None]
    tricks = st.get("tricks") or [0, 0, 0]
    bidder = st.get("bidder")
    if st["over"]:
        over(d, s)
    elif ph == "play" and act is not None:
        head = "Hand %d lead " % (st["round"] + 1)
        title_bar(d, head + fit(names[act], getattr(d, "room", COLS) - len(head)))
    else:
        title_bar(d, "Hand %d %s" % (st["round"] + 1, ph))
    y = 11
    for p in range(3):
        mark = " "
        if turn == p:
            mark = ">"
        elif bidder == p:
            mark = "*"
        # the name whole unless it cannot fit before the next column (a
        # column's gap kept): the tricks at x 82, a bid at x 78, else the
        # score at the right
        sc = str(st["scores"][p])
        if ph == "play":
            room = 8
        elif ph == "bidding" and bids[p] is not None:
            room = 7
        else:
            room = COLS - 2 - len(sc)
        d.text(mark + fit(names[p], room), 0, y, 1)
        if ph == "play":
            d.text("t%d" % tricks[p], 82, y, 1)
        elif ph == "bidding" and bids[p] is not None:
            d.text("pass" if bids[p] == 0 else str(bids[p]), 78, y, 1)
        text_right(d, sc, y)
        y += 9
    if bidder is not None and ph in ("trump", "play"):
        tr = st.get("trump")
        d.text("bid %s %s" % (st.get("bid", "?"), "trump ?" if tr is None else TRUMP_LABELS.get(tr, "trump %s" % tr)), 0, 38, 1)
    if t["leader"] is not None:
        d.text("1st bid: " + fit(names[t["leader"]], 7), 0, 47, 1)
    if st["over"]:
        return
    if ph == "bidding":
        hint(d, fit(names[act], 5) + " to bid: OK" if act is not None else "OK: bid / pass")
    elif ph == "trump":
        hint(d, fit(names[act if act is not None else bidder], 6) + " trump: OK")
    elif at is not None:
        hint(d, "OK: %s won" % fit(names[at], 8))
    else:
        hint(d, "OK: enter")
