"""Shoot the Moon on the device: each trick's winner and the BIG/LITTLE
MOON cards in it, illegal plays, and the chips of every player or team.
Ranges (moons left this round, hands in a trick) come from legal()."""

from screens.base import title_bar, text_right
from screens.form import Form, seats
from screens.gcommon import ask_one, event, hint

PLAYERS = (2, 6)


def option_field(ev, n, app):
    if "teams" not in ev:
        items = [("Individual", 0)]
        if n == 4:
            items.append(("2 teams of 2", 2))
        if n == 6:
            items.append(("3 teams of 2", 3))
            items.append(("2 teams of 3", 2))
        if len(items) == 1:
            ev["teams"] = 0
        else:
            return ("teams", "Partnerships", "pick", items, "")
    if "target" not in ev:
        return ("target", "Chips to win", "num", (3, 20, 7), "")
    return None


def finish_options(ev, n, app):
    opts = {"target": ev["target"]}
    if ev.get("teams"):
        opts["teams"] = ev["teams"]
    return opts


def _hand_names(s):
    names = list(s.names())
    if len(names) == 2:
        names.append("Dummy")
    return names


# (legal move, menu label, action key)
ACTIONS = (("trick", "Trick won", "trick"), ("illegal", "Illegal play", "illegal"))


def act(s, key):
    app = s.app
    mv = s.moves()
    hands = _hand_names(s)
    if key == "trick":
        spec = mv["trick"]

        def ask(ev):
            if "winner" not in ev:
                return ("winner", "Trick %d won by" % (sum(s.state["tricks"]) + 1), "pick", seats(hands, spec["players"]), "")
            if "big" not in ev:
                if spec["big_max"] <= 0:
                    ev["big"] = 0
                else:
                    return ("big", "BIG MOONs in it", "num", (0, min(spec["big_max"], spec["moons_max"]), 0), "winner +1 each")
            if "little" not in ev:
                top = min(spec["little_max"], spec["moons_max"] - ev["big"])
                if top <= 0:
                    ev["little"] = 0
                else:
                    return ("little", "LITTLE MOONs", "num", (0, top, 0), "winner -1 each")
            return None

        Form(app, ask, lambda ev: event(s, "trick", ev)).start()
    elif key == "illegal":
        ask_one(s, "illegal", "player", "Who played it?", seats(hands, mv["illegal"]["players"]))


def _chips(d, x, y, n):
    """n chips as small discs (a number beyond 8)."""
    if n > 8:
        d.text("%d" % n, x, y, 1)
        return
    for i in range(n):
        d.fill_rect(x + 6 * i, y + 1, 5, 5, 1)


def draw(d, s, play):
    st = s.state
    names = st["players"]
    teams = st["teams"]
    if st["over"]:
        title_bar(d, "Game over")
    else:
        title_bar(d, "R%d trick %d/5" % (st["round"] + 1, sum(st["tricks"]) + 1))
    chips = st["chips"]
    y = 11
    top = min(play.scroll, max(0, len(chips) - 4))
    for side in range(top, min(len(chips), top + 4)):
        if teams:
            label = "/".join([names[p][:3] for p in range(len(names)) if p % teams == side])
            tr = sum([st["tricks"][p] for p in range(len(names)) if p % teams == side])
        else:
            label = names[side]
            tr = st["tricks"][side]
        d.text(label[:7], 0, y, 1)
        _chips(d, 58, y, chips[side])
        text_right(d, "t%d" % tr, y)
        y += 9
    if st["over"]:
        hint(d, "Won: " + names[st["winner"]])
    else:
        hint(d, "dealer " + names[st["dealer"]][:9])
