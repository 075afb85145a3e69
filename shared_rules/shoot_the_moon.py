"""Shoot the Moon (Fundex card game): chips, five-trick rounds, the
two-player dummy, illegal plays and the 7-chip win. See
docs/games/shoot-the-moon.md. Cards, tricks and legal() are in stm_tricks,
imported only when needed, and notes are comments rather than docstrings:
both keep the compile within the board's small heap.
"""

from shared_rules.errors import RuleError
from shared_rules.util import check_players, whole

TRICKS = 5  # tricks per round = cards per hand
MOONS = 2  # copies of each moon card


def _opt(d, name, default, low, high):
    return default if d.get(name) is None else whole(d, name, low, high)


def new(players, options=None):
    players = check_players(players, 2, 6)
    options = options or {}
    if not isinstance(options, dict):
        raise RuleError("options must be an object")
    for key in options:
        if key not in ("teams", "target", "dealer"):
            raise RuleError("unknown option %r (teams, target, dealer)" % (key,))
    n = len(players)
    teams = _opt(options, "teams", 0, 0, 3)
    if teams and not ((n == 4 and teams == 2) or (n == 6 and teams > 1)):
        raise RuleError("partnerships need 4 players in 2 teams or 6 in 2 or 3, not %d in %d" % (n, teams))
    s = {"players": players, "scores": [2] * n, "round": 0, "over": False, "winner": None,
         "teams": teams, "chips": [2] * (teams or n),
         "target": _opt(options, "target", 7, 1, 100000), "dealer": _opt(options, "dealer", 0, 0, n - 1)}
    _start_round(s)
    return s


def _hands(s):
    # Hands in a trick: the players, plus the dummy when two play.
    return max(3, len(s["players"]))


def side_of(s, hand):
    # Side (partnership or lone player) of a hand; None for the dummy.
    if hand >= len(s["players"]):
        return None
    return hand % s["teams"] if s["teams"] else hand


def _start_round(s):
    # "start" keeps the chips at the deal: an illegal play undoes the hand
    s["start"] = list(s["chips"])
    s["tricks"] = [0] * _hands(s)
    s["leader"] = (s["dealer"] + 1) % len(s["players"])
    s["moons"] = [0, 0]  # BIG, LITTLE seen this round
    s["played"] = []  # numbered cards seen this round
    s["trick"] = []  # [[hand, card], ...] of a trick entered card by card
    s["held"] = None  # each player's cards still in hand, if dealt in
    s["phase"] = "deal"


def _cards():
    # stm_tricks, loaded on first use. A collection first hands its compile
    # a heap without the garbage of earlier events.
    import sys
    m = sys.modules.get("shared_rules.stm_tricks")
    if m is None:
        import gc
        gc.collect()
        import shared_rules.stm_tricks as m
    return m


def fork(state):
    # A copy of `state` to change: the dict and the lists an event may
    # change in place. The rest (players, "start", the played pairs) is
    # shared with `state`, which is never changed, so each of the undo
    # stack's states costs little memory.
    s = dict(state)
    for key in ("chips", "tricks", "played", "trick"):
        s[key] = list(state[key])
    if state["held"] is not None:
        s["held"] = [list(h) for h in state["held"]]
    return s


def _sync(s):
    s["scores"] = [s["chips"][side_of(s, i)] for i in range(len(s["players"]))]


def apply(state, event):
    if state["over"]:
        raise RuleError("the game is over")
    kind = event.get("type")
    fresh = not sum(state["tricks"]) and not state["trick"] and state["held"] is None
    if kind == "trick":
        return _trick(state, event)
    if kind == "round":
        if not fresh:
            raise RuleError("round only before the first trick")
        return _round(state, event)
    if kind == "illegal":
        return _illegal(state, event)
    if kind == "deal":
        if not fresh:
            raise RuleError("deal only before the first trick")
        return _cards().deal(state, event, TRICKS)
    if kind == "play":
        s = fork(state)
        done = _cards().play(state, s, event)
        s["phase"] = "play"
        if done:
            _finish_trick(s, done[0], done[1], done[2])
        return s
    raise RuleError("unknown event %r" % (kind,))


def _trick(state, event):
    if state["trick"] or state["held"] is not None:
        raise RuleError("round entered card by card")
    k = _hands(state)
    win = whole(event, "winner", 0, k - 1, "winner")
    big = _opt(event, "big", 0, 0, MOONS)
    little = _opt(event, "little", 0, 0, MOONS)
    used = state["moons"]
    if used[0] + big > MOONS or used[1] + little > MOONS:
        raise RuleError("only %d BIG, %d LITTLE MOON left" % (MOONS - used[0], MOONS - used[1]))
    if big + little > k or little >= k:
        raise RuleError("%d cards cannot hold %d BIG + %d LITTLE MOON" % (k, big, little))
    s = fork(state)
    s["moons"] = [used[0] + big, used[1] + little]
    _finish_trick(s, win, big, little)
    return s


def _finish_trick(s, win, big, little):
    # Count a trick and pay its moon cards at once. One trick's BIG and
    # LITTLE MOONs count together (net): the same as gains before losses.
    # The dummy's moon cards score for nobody.
    s["tricks"][win] += 1
    s["leader"] = win
    s["phase"] = "play"
    side = side_of(s, win)
    if side is not None and (big or little):
        s["chips"][side] = max(0, s["chips"][side] + big - little)
        _sync(s)
    if sum(s["tricks"]) == TRICKS:
        _end_round(s)


def _round(state, event):
    k = _hands(state)
    lists = []
    for name in ("tricks", "big", "little"):
        v = event.get(name) or ([0] * k if name != "tricks" else None)
        if not isinstance(v, list) or len(v) != k:
            raise RuleError("round: %r needs %d numbers" % (name, k))
        for x in v:
            whole({name: x}, name, 0, TRICKS if name == "tricks" else MOONS)
        lists.append(v)
    tricks, big, little = lists
    if sum(tricks) != TRICKS:
        raise RuleError("tricks must add up to %d, not %d" % (TRICKS, sum(tricks)))
    if sum(big) > MOONS or sum(little) > MOONS:
        raise RuleError("only two of each moon card")
    s = fork(state)
    net = [0] * len(s["chips"])
    for h in range(k):
        if (big[h] or little[h]) and not tricks[h]:
            raise RuleError("hand %d won no trick, so won no moon card" % h)
        side = side_of(s, h)
        if side is not None:
            net[side] += big[h] - little[h]
    for side in range(len(net)):
        s["chips"][side] = max(0, s["chips"][side] + net[side])
    s["tricks"] = list(tricks)
    s["moons"] = [sum(big), sum(little)]
    _end_round(s)
    return s


def _end_round(s):
    # Chips for tricks pooled per side; the win check; the deal passes.
    chips = s["chips"]
    pooled = [0] * len(chips)
    for h in range(len(s["tricks"])):
        side = side_of(s, h)
        if side is not None:
            pooled[side] += s["tricks"][h]
    for side in range(len(chips)):
        chips[side] += (0, 1, 0, 1, 0, 2)[pooled[side]]
    _sync(s)
    s["round"] += 1
    top = max(chips)
    if top >= s["target"] and chips.count(top) == 1:
        s["over"] = True
        s["winner"] = chips.index(top)  # a side's first seat is its side number
        s["phase"] = "over"
        s["trick"] = []
        s["held"] = None
    else:
        s["dealer"] = (s["dealer"] + 1) % len(s["players"])
        _start_round(s)


def _illegal(state, event):
    seat = whole(event, "player", 0, len(state["players"]) - 1, "player")
    s = dict(state)
    s["chips"] = list(state["start"])
    side = side_of(s, seat)
    s["chips"][side] = max(0, s["chips"][side] - 1)
    _start_round(s)  # same dealer
    _sync(s)
    return s


def legal(state):
    return _cards().legal_moves(state, TRICKS)


def standings(state):
    sc = state["scores"]
    return [[state["players"][i], sc[i]] for i in sorted(range(len(sc)), key=lambda i: (-sc[i], i))]


def winner(state):
    return state["winner"]
