"""Moons (cards) on the device: each player's tableau, each trick's winner
and token, the lowest off-suit card's token, the round-end awards, manual
token moves (Asteroids), the tokens per player and the score. The planets
a player may take are exactly those legal() lists.

The game screen points at a player (UP/DOWN): while tableaux are missing
at the first one without, OK enters theirs; in the tricks at the one who
leads, OK enters the trick they won. Each suit menu starts at the suit
entered before, and a token to take at the one that adds most to the
taker's score (set_score). Tokens show as planet initials (J S N U) with
counts, the supply's too. The title names who leads the next trick and
the line above the supply the round's first player, both from turn()."""

# The rules (PLANETS, set_score) are the match's (s.match.rules), not
# imported at the top, as in ui/stm.py: this module loads in the pass of
# the press that chooses the game, before the start loads the rules a
# module a pass.
from ui.base import fit, scroll_marks, text_right, title_bar
from ui.form import Form, seats
from ui.gcommon import ask_one, event, hint, offered, over

PLAYERS = (2, 6)
INITIALS = "JSNU"  # Jupiter Saturn Neptune Uranus, the rules' PLANETS order


def option_field(ev, n, app):
    # The card says only that sets of tokens score; its values are not
    # public (RULINGS.md), so the default is the rulings' house table and
    # says so, never the box's.
    if "sc" not in ev:
        return ("sc", "Set scoring?", "pick", [("House 1/2/3/10", 0), ("Custom table", 1)], "")
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
    return [(_name(v), v) for v in values]


# legal move|menu label|action key, in menu order (gcommon.offered); the
# tableau is asked apart, while one is missing
ACTIONS = """end|End of round|end
first|First player|first
trick|Trick won|trick
move|Move tokens|move"""


def actions(s):
    mv = s.moves()
    out = offered(mv, ACTIONS)
    if "tableau" in mv and mv["tableau"]["missing"]:
        out.insert(0, ("Tableau", "tableau"))
    return out


def pointing(s):
    """First a missing tableau's owner, then the one who leads the trick
    (turn()'s to_act)."""
    mv = s.moves()
    if "tableau" in mv and mv["tableau"]["missing"]:
        return mv["tableau"]["missing"][0]
    if "trick" in mv:
        return s.turn()["to_act"]
    return None


def likely(s, p, planets):
    """Of `planets` (names), the token that adds most to p's score by the
    rules' set_score; among equals (the house table scores a pair of
    planets as two singles) the one p holds fewest of, the way to a
    complete set of four; then the first. The answer a menu selects
    first, so the usual choice costs one OK: a cursor only, the player
    still picks."""
    rules = s.match.rules
    order = rules.PLANETS
    set_score = rules.set_score
    tk = list(s.state["tokens"][p])
    table = s.state["scoring"]
    best = None
    top = None
    for name in planets:
        if name is None:
            continue
        i = order.index(name)
        tk[i] += 1
        key = (set_score(tk, table), -tk[i])
        tk[i] -= 1
        if top is None or key > top:
            best = name
            top = key
    return best


def opening(s):
    """A round starts with the tableaux: the first one's entry opens by
    itself (at the start of a game and after each round's end). BACK
    leaves it for the game screen."""
    mv = s.moves()
    if "tableau" in mv and mv["tableau"]["missing"] and not s.state["over"]:
        _tableau(s, mv["tableau"], {"player": mv["tableau"]["missing"][0]})


def act_on(s, p):
    mv = s.moves()
    if "tableau" in mv and mv["tableau"]["missing"]:
        if p in mv["tableau"]["missing"]:
            _tableau(s, mv["tableau"], {"player": p})
        else:
            s.app.toast("%s's tableau is in" % s.names()[p])
    elif "trick" in mv:
        _trick(s, mv["trick"], {"winner": p})


def _tableau(s, spec, ev, last=None):
    """One player's tableau, a suit per card; each suit menu starts at the
    suit entered just before (`last`: the previous tableau's last card)."""
    names = s.names()
    count = spec["count"]

    def ask_tableau(ev):
        if "player" not in ev:
            return ("player", "Whose tableau?", "pick", seats(names, spec["missing"]), "")
        su = ev.get("suits") or [None] * count
        for i in range(count):
            if su[i] is None:
                return (("suits", i, count), (names[ev["player"]], " card %d?" % (i + 1)), "pick",
                        _planets(spec["values"]), "", su[i - 1] if i else last)
        return None

    def done(ev):
        # the next missing tableau follows at once: the table lays them out together
        if event(s, "tableau", ev):
            mv = s.moves()
            if "tableau" in mv and mv["tableau"]["missing"]:
                _tableau(s, mv["tableau"], {"player": mv["tableau"]["missing"][0]}, ev["suits"][-1])

    Form(s.app, ask_tableau, done, ev).start()


def _trick(s, spec, ev):
    """A trick: its winner, then one menu for the token they take and
    whether someone played a lowest off-suit card ("Saturn" or "Saturn +
    low"), then, for a low card, who and its planet."""
    names = s.names()
    n = len(names)

    def ask_trick(ev):
        if "winner" not in ev:
            return ("winner", "Trick: who won?", "pick", seats(names, spec["players"]), "")
        if "take" not in ev:
            take = spec["take"][ev["winner"]] or [None]
            plain = [((_name(t) if t else "no token"), (t, False)) for t in take]
            low = [((_name(t) if t else "no token") + " + low", (t, True)) for t in take]
            return ("take", (names[ev["winner"]], " takes?"), "pick", plain + low, "",
                    (likely(s, ev["winner"], take), False))
        t, low = ev["take"]
        if low and "low" not in ev:
            others = seats(names, [p for p in range(n) if p != ev["winner"]])
            return ("low", "Lowest off-suit?", "pick", others, "")
        if low and "low_suit" not in ev:
            return ("low_suit", "Its planet?", "pick", _planets(spec["low_values"] or spec["values"]), "")
        return None

    def trick_done(ev):
        t, _ = ev.pop("take")
        if t is not None:
            ev["take"] = t
        event(s, "trick", ev)

    Form(s.app, ask_trick, trick_done, ev).start()


def _name(planet):
    return planet[0].upper() + planet[1:]


def act(s, key):
    app = s.app
    mv = s.moves()
    names = s.names()
    n = len(names)
    if key == "tableau":
        _tableau(s, mv["tableau"], {})
    elif key == "first":
        ask_one(s, "first", "player", "Who leads first?", seats(names, mv["first"]["players"]))
    elif key == "trick":
        _trick(s, mv["trick"], {})
    elif key == "end":
        spec = mv["end"]
        choices = spec["choices"]

        def end_done(ev):
            take = ev.get("take") or [None] * n
            for p in range(n):
                if take[p] is None and len(choices[p]) == 1:
                    take[p] = choices[p][0]
            if event(s, "end", {"take": take}):
                opening(s)

        Form(app, _end_ask(s, choices), end_done).start()
    elif key == "move":
        spec = mv["move"]
        extra = {"supply": "Supply"}

        def ask_move(ev):
            if "from" not in ev:
                return ("from", "Move from?", "pick", seats(names, spec["from"], extra), "")
            if "to" not in ev:
                return ("to", "Move to?", "pick", seats(names, [p for p in spec["to"] if p != ev["from"]], extra), "")
            order = s.match.rules.PLANETS
            src = ev["from"]
            have = s.state["supply"] if src == "supply" else s.state["tokens"][src]
            if "planet" not in ev:
                vals = [order[i] for i in range(4) if have[i]]
                return ("planet", "Which planet?", "pick", _planets(vals), "")
            if "count" not in ev:
                top = have[order.index(ev["planet"])]
                if top <= 1:
                    ev["count"] = 1
                else:
                    return ("count", "How many?", "num", (spec.get("min", 1), top, 1), "")
            return None

        Form(app, ask_move, lambda ev: event(s, "move", ev)).start()


def _end_ask(s, choices):
    """Round end: ask only players with a real choice of token, each menu
    at the token likeliest taken (likely())."""
    names = s.names()
    n = len(names)
    need = [p for p in range(n) if len(choices[p]) > 1]

    def ask(ev):
        tk = ev.get("take") or [None] * n
        for p in need:
            if tk[p] is None:
                return (("take", p, n), (names[p], " takes?"), "pick", _planets(choices[p]), "",
                        likely(s, p, choices[p]))
        return None

    return ask


def _tokens(d, x, y, counts, room):
    """Tokens as planet initials with counts ("J2 S1"), planets with none
    left out; '-' for none at all. In `room` characters: packed ("J2S1N3")
    when spaced they would not fit (an initial still starts each count),
    cut with "~" past that."""
    out = []
    for i in range(4):
        if counts[i]:
            out.append("%s%d" % (INITIALS[i], counts[i]))
    text = " ".join(out) if out else "-"
    if len(text) > room:
        text = "".join(out)
    if len(text) > room:
        text = text[: room - 1] + "~"
    d.text(text, x, y, 1)


def menu_items(s):
    return [("Legend: J S N U", "legend")]


def menu_action(s, key):
    """The legend of the game screen's planet initials, with each planet's
    supply spelled out (the screen has no row to spare for it)."""
    if key == "legend":
        from ui.dialogs import Notice

        order = s.match.rules.PLANETS
        sup = s.state["supply"]
        lines = ["%s %-8s %3d" % (INITIALS[i], order[i][0].upper() + order[i][1:], sup[i]) for i in range(4)]
        s.app.push(Notice(s.app, "Planets: supply", "\n".join(lines)))


def draw(d, s, play):
    st = s.state
    names = st["players"]
    n = len(names)
    at = play.pointed(s)
    # whose turn, as the rules say it (turn()): the round's first player
    # (who dealt), and who leads the next trick (None: tableaux are laid)
    t = s.turn()
    if st["over"]:
        over(d, s)
    elif t["to_act"] is None:
        title_bar(d, "R%d tableaux" % (st["round"] + 1))
    else:
        left = "R%d t%d lead " % (st["round"] + 1, sum(st["tricks"]) + 1)
        title_bar(d, left + fit(names[t["to_act"]], 16 - len(left)))
    rows = 3
    ref = at if at is not None else play.scroll
    top = min(max(0, ref - rows + 1), max(0, n - rows))
    y = 11
    for p in range(top, min(n, top + rows)):
        # the pointer, the name in 5 columns and a blank one: the tokens
        # start at column 7, never run into the name ("Alicetableau")
        d.text((">" if p == at else " ") + fit(names[p], 5), 0, y, 1)
        if st["phase"] == "tableau" and st["tableaux"][p] is None:
            # what is wanted of this player, in the room of the tokens and
            # the score (unchanged until the tricks)
            d.text("tableau?", 56, y, 1)
        else:
            # the score ends short of the scroll marks' column (122-126),
            # a blank column between it and the tokens
            score = str(st["scores"][p])
            sx = 121 - 8 * len(score)
            d.text(score, sx, y, 1)
            _tokens(d, 56, y, st["tokens"][p], (sx - 64) // 8)
        y += 9
    scroll_marks(d, top > 0, top + rows < n, 11, 29)
    if t["leader"] is not None:
        d.text("1st " + fit(names[t["leader"]], 5), 0, 38, 1)  # a column clear of "supply"
    if st["over"]:
        return
    # the supply's counts under its label, each after its planet's initial
    # as the rows show tokens (J S N U), a space between
    sup = st["supply"]
    text_right(d, "supply", 38)
    text_right(d, " ".join(["%s%d" % (INITIALS[i], sup[i]) for i in range(4)]), 47)
    if at is not None:
        if st["phase"] == "tableau" and st["tableaux"][at] is None:
            # a long name takes the space after "OK:" before it is cut
            hint(d, ("OK: %s tableau" if len(names[at]) < 5 else "OK:%s tableau") % fit(names[at], 5))
        else:
            hint(d, "OK: %s won" % fit(names[at], 8))
    else:
        hint(d, "OK: enter")
