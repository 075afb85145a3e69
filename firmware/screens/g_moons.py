"""Moons (cards) on the device: each player's tableau, each trick's winner
and token, the lowest off-suit card's token, the round-end awards, manual
token moves (Asteroids), the tokens per player and the score. The planets
a player may take are exactly those legal() lists."""

from screens.base import title_bar, text_right
from screens.form import Form, seats
from screens.gcommon import ask_one, event, hint, offered

PLAYERS = (2, 6)
SHORT = {"jupiter": "J", "saturn": "S", "neptune": "N", "uranus": "U"}


def option_field(ev, n, app):
    if "sc" not in ev:
        return ("sc", "Set scoring", "pick", [("Default 1/2/3/10", 0), ("Custom table", 1)], "")
    if ev["sc"]:
        sc = ev.get("scoring") or [None] * 4
        defaults = (1, 2, 3, 10)
        for i in range(4):
            if sc[i] is None:
                return (("scoring", i, 4), "%d planet%s" % (i + 1, "s" if i else ""), "num", (0, 50, defaults[i]), "points per group")
    return None


def finish_options(ev, n, app):
    if ev.get("sc"):
        return {"scoring": ev["scoring"]}
    return {}


def _planets(values):
    return [(v[0].upper() + v[1:], v) for v in values]


# (legal move, menu label, action key); the tableau is asked apart, while
# one is missing
ACTIONS = (
    ("first", "First player", "first"),
    ("trick", "Trick won", "trick"),
    ("end", "End of round", "end"),
    ("move", "Move tokens", "move"),
)


def actions(s):
    mv = s.moves()
    out = offered(mv, ACTIONS)
    if "tableau" in mv and mv["tableau"]["missing"]:
        out.insert(0, ("Tableau", "tableau"))
    return out


def act(s, key):
    app = s.app
    mv = s.moves()
    names = s.names()
    n = len(names)
    if key == "tableau":
        spec = mv["tableau"]
        count = spec["count"]

        def ask_tableau(ev):
            if "player" not in ev:
                return ("player", "Tableau of", "pick", seats(names, spec["missing"]), "")
            su = ev.get("suits") or [None] * count
            for i in range(count):
                if su[i] is None:
                    return (("suits", i, count), "Card %d suit" % (i + 1), "pick", _planets(spec["values"]), "")
            return None

        Form(app, ask_tableau, lambda ev: event(s, "tableau", ev)).start()
    elif key == "first":
        ask_one(s, "first", "player", "First player", seats(names, mv["first"]["players"]))
    elif key == "trick":
        spec = mv["trick"]

        def ask_trick(ev):
            if "winner" not in ev:
                return ("winner", "Trick won by", "pick", seats(names, spec["players"]), "")
            take = spec["take"][ev["winner"]]
            if "take" not in ev:
                if len(take) > 1:
                    return ("take", "Token taken", "pick", _planets(take), "")
                ev["take"] = take[0] if take else None
            if "low" not in ev:
                others = [("Nobody (or tie)", None)] + seats(names, [p for p in range(n) if p != ev["winner"]])
                return ("low", "Lowest off-suit", "pick", others, "")
            if ev["low"] is not None and "low_suit" not in ev:
                return ("low_suit", "Its planet", "pick", _planets(spec["low_values"] or spec["values"]), "")
            return None

        def trick_done(ev):
            if ev.get("low") is None:
                ev.pop("low", None)
                ev.pop("low_suit", None)
            if ev.get("take") is None:
                ev.pop("take", None)
            event(s, "trick", ev)

        Form(app, ask_trick, trick_done).start()
    elif key == "end":
        spec = mv["end"]
        choices = spec["choices"]

        def end_done(ev):
            take = ev.get("take") or [None] * n
            for p in range(n):
                if take[p] is None and len(choices[p]) == 1:
                    take[p] = choices[p][0]
            event(s, "end", {"take": take})

        Form(app, _end_ask(n, names, choices), end_done).start()
    elif key == "move":
        spec = mv["move"]
        extra = {"supply": "Supply"}

        def ask_move(ev):
            if "from" not in ev:
                return ("from", "Move from", "pick", seats(names, spec["from"], extra), "")
            if "to" not in ev:
                return ("to", "Move to", "pick", seats(names, [p for p in spec["to"] if p != ev["from"]], extra), "")
            from shared_rules.moons import PLANETS

            src = ev["from"]
            have = s.state["supply"] if src == "supply" else s.state["tokens"][src]
            if "planet" not in ev:
                vals = [PLANETS[i] for i in range(4) if have[i]]
                return ("planet", "Planet", "pick", _planets(vals), "")
            if "count" not in ev:
                top = have[PLANETS.index(ev["planet"])]
                if top <= 1:
                    ev["count"] = 1
                else:
                    return ("count", "How many", "num", (spec.get("min", 1), top, 1), "")
            return None

        Form(app, ask_move, lambda ev: event(s, "move", ev)).start()


def _end_ask(n, names, choices):
    """Round end: ask only players with a real choice of token."""
    need = [p for p in range(n) if len(choices[p]) > 1]

    def ask(ev):
        tk = ev.get("take") or [None] * n
        for p in need:
            if tk[p] is None:
                return (("take", p, n), names[p][:10] + " takes", "pick", _planets(choices[p]), "")
        return None

    return ask


def draw(d, s, play):
    st = s.state
    names = st["players"]
    title_bar(d, "Game over" if st["over"] else "R%d %s t%d" % (st["round"] + 1, st["phase"][:7], sum(st["tricks"])))
    n = len(names)
    top = min(play.scroll, max(0, n - 4))
    y = 11
    for p in range(top, min(n, top + 4)):
        tok = st["tokens"][p]
        d.text(names[p][:6], 0, y, 1)
        d.text("%d%d%d%d" % (min(9, tok[0]), min(9, tok[1]), min(9, tok[2]), min(9, tok[3])), 56, y, 1)
        text_right(d, str(st["scores"][p]), y)
        y += 9
    sup = st["supply"]
    d.text("sup %d %d %d %d" % (sup[0], sup[1], sup[2], sup[3]), 0, 47, 1)
    if st["over"]:
        hint(d, "Won: " + names[st["winner"]])
    elif st["phase"] == "tableau":
        hint(d, "OK: tableaux")
    else:
        hint(d, "OK: trick/end")
