"""Shoot the Moon on the device: each trick's winner and the BIG/LITTLE
MOON cards in it, illegal plays, and the chips of every player or team.
Ranges (moons left this round, hands in a trick) come from legal().

A trick is two inputs: UP/DOWN points at the winner on the game screen
(it starts at the hand with the most tricks this round, among equals the
one who leads), OK, then the moon cards in it from one menu ("no moons"
first). An illegal play is in
the game menu (BACK)."""

# The rules (side_of) are not imported at the top: this module loads in
# the pass of the press that chooses the game, before the start loads the
# rules a module a pass; imported here, they took that pass on the chip to
# 172.5 ms (bench/board.py, at 9963f65). In play they are the match's
# (s.match.rules); only start_labels, which the new-game form calls too,
# imports them.
from ui.banner import banner
from ui.base import fit, fit_all, scroll_marks, text_right, title_bar
from ui.form import seats
from ui.gcommon import ask_one, event, hint, over

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


SCORE_WORD = "chips"
START_DEFAULT = 2  # every side starts a fresh game with two chips


def start_labels(opts, names, room=8):
    """Who a starting chip count is asked for ("P1/P3/P5: chips?" leaves a
    side 8 characters), a team's row and its banner: each side (a
    partnership's players, every one of them, in `room` characters, cut
    evenly where they must be: "Ali/Chl"; or a lone player). Who sits in
    which side is the rules' side_of."""
    from shared_rules.shoot_the_moon import side_of

    teams = opts.get("teams")
    if not teams:
        return names
    s = {"players": names, "teams": teams}
    return [fit_all([names[p] for p in range(len(names)) if side_of(s, p) == side], room, "/") for side in range(teams)]


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


# legal move|menu label|action key, in menu order (gcommon.offered)
ACTIONS = "illegal|Illegal play|illegal\ntrick|Trick won|trick"


def moon_choices(spec):
    """Menu items for the moon cards in one trick, (label, (big, little)):
    none first, then BIG MOONs, both, and LITTLE MOONs last, so that the
    usual answers are one step from the top either way round."""
    bmax = min(spec["big_max"], spec["moons_max"])
    lmax = min(spec["little_max"], spec["moons_max"])
    out = [("no moons", (0, 0))]
    for b in range(1, bmax + 1):
        out.append(("%d BIG" % b, (b, 0)))
    for b in range(1, bmax + 1):
        for l in range(1, lmax + 1):
            if b + l <= spec["moons_max"]:
                out.append(("%d BIG %d LITTLE" % (b, l), (b, l)))
    for l in range(lmax, 0, -1):
        out.append(("%d LITTLE" % l, (0, l)))
    return out


def pointing(s):
    """The hand the game screen points at first, the likeliest winner: the
    one with the most tricks this round (the hand holding the high red
    rockets keeps taking them), among equals the last trick's winner, who
    leads (turn()'s to_act; the Dummy when it is None). A guess for the
    cursor only: OK still asks who won. None when no trick can be entered."""
    if "trick" not in s.moves():
        return None
    hands = len(_hand_names(s))
    t = s.turn()["to_act"]
    lead = hands - 1 if t is None else t
    tricks = s.state["tricks"]
    best = lead
    for h in range(hands):
        if tricks[h] > tricks[best]:
            best = h
    return best


def ring(s):
    """The pointer goes round the hands: the players, and the Dummy with two."""
    return len(_hand_names(s))


def act_on(s, p):
    """OK on the game screen: the pointed-at hand won the trick."""
    spec = s.moves()["trick"]
    if p not in spec["players"]:
        return
    items = moon_choices(spec)
    hands = _hand_names(s)
    if len(items) == 1:
        _trick(s, p, 0, 0)
        return

    def done(ev):
        b, l = ev["moons"]
        _trick(s, p, b, l)

    # the words whole, the name fitted to what is left (title_bar): "P2
    # won: moons?"; the space after the colon goes first ("Dummy
    # won:moons?"), then "won" (the screen before said "OK: Dmitri won"),
    # so that a longer name keeps 8 columns: "Dmitri: moons?"
    name = hands[p]
    n = len(name)
    ask_one(s, "trick", "moons", (name, " won: moons?" if n < 5 else " won:moons?" if n == 5 else ": moons?"),
            items, done=done)


def _trick(s, p, big, little):
    """Enter the trick; a banner when a side shot the moon (all 5 tricks of
    the round, the rules' state["shot"]) or a player's BIG MOON paid."""
    rnd = s.state["round"]
    if not event(s, "trick", {"winner": p, "big": big, "little": little}):
        return
    st = s.state
    names = st["players"]
    if (st["round"] > rnd or st["over"]) and st.get("shot") is not None:
        banner(s.app, "Shot the moon!\n+2 chips\n" + start_labels(st, names, 14)[st["shot"]])
    elif big and p < len(names):  # the Dummy's moon cards pay nobody
        # the chip is the side's: a partnership's banner names the team
        who = fit(names[p], 14)
        if st.get("teams"):
            side = s.match.rules.side_of(st, p)  # p < len(names): never the dummy's None
            if side is not None:
                who = start_labels(st, names, 14)[side]
        banner(s.app, ("BIG MOON:\n+1 chip\n" if big == 1 else "2 BIG MOONs:\n+2 chips\n") + who)


def act(s, key):
    mv = s.moves()
    hands = _hand_names(s)
    if key == "trick":
        ask_one(s, "trick", "winner", "Trick %d: who won?" % (sum(s.state["tricks"]) + 1),
                seats(hands, mv["trick"]["players"]), done=lambda ev: act_on(s, ev["winner"]))
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
    # whose turn, as the rules say it (turn()): the dealer, and the hand
    # that leads the trick to enter (None: the Dummy's card)
    t = s.turn()
    if st["over"]:
        over(d, s)
    else:
        title_bar(d, "R%d trick %d/5" % (st["round"] + 1, sum(st["tricks"]) + 1))
    chips = st["chips"]
    at = play.pointed(s)
    hands = _hand_names(s)
    if teams:
        _sides(d, s, at)
    else:
        # one row per hand (the two-player dummy too): the pointer marks
        # the hand OK will say won the trick
        n = len(hands)
        top = min(play.scroll if at is None else max(0, at - 3), max(0, n - 4))
        y = 11
        for p in range(top, min(n, top + 4)):
            d.text((">" if p == at else " ") + hands[p][:6], 0, y, 1)
            if p < len(chips):
                _chips(d, 58, y, chips[p])
                text_right(d, "t%d" % st["tricks"][p], y)
            y += 9
        scroll_marks(d, top > 0, top + 4 < n, 11, 38)
    if st["over"]:
        return
    _lead_line(d, hands[-1 if t["to_act"] is None else t["to_act"]], names[t["leader"]])
    if at is not None:
        hint(d, "OK: %s won" % fit(hands[at], 8))
    else:
        hint(d, "OK: enter")


def _lead_line(d, lead, deal):
    """Who leads and who dealt, one line: "P2 leads  deal P1" when both
    names fit whole; else "Ann leads D:Dmitri" shape, the two names sharing the
    7 columns left evenly (fit_all's way: each cut to the same longest
    length that fits, so neither is cut to a letter: "Ann leads D:Dmit",
    "Max leads D:Dmi")."""
    if len(lead) + len(deal) <= 4:
        d.text(lead + " leads", 0, 47, 1)
        text_right(d, "deal " + deal, 47)
        return
    k = max(len(lead), len(deal))
    while k > 1 and min(len(lead), k) + min(len(deal), k) > 7:
        k -= 1
    d.text(fit(lead, k) + " leads D:" + fit(deal, k), 0, 47, 1)


def _sides(d, s, at):
    """Partnerships (at most three, so no scrolling): a row per team, the
    pointer (`at`, a player) on its team's (">Ali/Chl"), the chips a
    column on, its tricks at the right: 16 characters. Teams of three
    take two rows each, the names on the first (">Ali/Bob/Dan"), so that
    every partner keeps a name one can read."""
    st = s.state
    names = st["players"]
    side_of = s.match.rules.side_of
    chips = st["chips"]
    teams = len(chips)
    two = len(names) > 2 * teams
    labels = start_labels(st, names, 15 if two else 7)
    mine = None if at is None else side_of(st, at)
    y = 11
    for side in range(teams):
        tr = 0
        for p in range(len(names)):
            if side_of(st, p) == side:
                tr += st["tricks"][p]
        d.text((">" if side == mine else " ") + labels[side], 0, y, 1)
        if two:
            y += 9
        _chips(d, 64, y, chips[side])
        text_right(d, "t%d" % tr, y)
        y += 9
