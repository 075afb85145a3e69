"""Shoot the Moon (Fundex card game): chips, five-trick rounds, the
two-player dummy, illegal plays and the 7-chip win. See
docs/games/shoot-the-moon.md. Cards, tricks and legal() are in stm_tricks.

States are copy-on-write: apply copies the top-level dict and replaces the
lists it changes, never changing a nested value in place. A new state
shares everything else with the one before, so a replay does no deep copy
per event and the states of a Match's undo stack cost little memory.
"""

from shared_rules.ticks import const
from shared_rules.dispatch import dispatch
from shared_rules.shoot_the_moon import tricks as cards
from shared_rules.shoot_the_moon.tricks import hand_names, hand_of, seat_in
from shared_rules.errors import RuleError
from shared_rules import places as pl

_TRICKS = const(5)  # tricks per round = cards per hand
_MOONS = const(2)  # copies of each moon card
# Event type -> the phases it is legal in (None: any; each handler checks
# what it needs), and its handler, a function of this module
# (shared_rules/dispatch.py).
EVENTS = (
    ("deal", None, None, "_dealt"),
    ("play", None, None, "_play"),
    ("trick", None, None, "_trick"),
    ("round", None, None, "_dealt"),
    ("illegal", None, None, "_illegal"),
)


def start_bounds(options):
    """(lowest, highest) starting chips of a side in a game carried over
    from paper, what new() accepts: chips are never below 0, and the
    target's own bound caps them for sanity."""
    return 0, 100000


def new(players, options=None):
    from shared_rules.players import check_players, start_scores

    players = check_players(players, 2, 6)
    options = options or {}
    if not isinstance(options, dict):
        raise RuleError("shoot-the-moon's options must be an object such as {\"teams\": 2}, not %r" % (options,))
    for key in options:
        if key not in ("teams", "target", "dealer", "start"):
            raise RuleError("unknown option %r for shoot-the-moon (known: teams, target, dealer, start)" % (key,))
    n = len(players)
    teams = options.get("teams")
    if teams is None:
        teams = 0
    elif type(teams) is not int or not 0 <= teams <= 3:
        raise RuleError("teams must be 0 (everyone plays alone), 2 or 3, not %r" % (teams,))
    if teams and not ((n == 4 and teams == 2) or (n == 6 and teams > 1)):
        raise RuleError("partnerships need 4 players in 2 teams, or 6 players in 2 or 3 teams, not %d players in %d"
                        % (n, teams))
    target = options.get("target")
    if target is None:
        target = 7
    elif type(target) is not int or not 1 <= target <= 100000:
        raise RuleError("the target must be a whole number of chips from 1 to 100000, not %r" % (target,))
    dealer = options.get("dealer")
    dealer = 0 if dealer is None else seat_in(players, dealer, "dealer", n)
    # "start": the chips of a game carried over from paper, per side (a
    # partnership, or a lone player); one side alone at the target has won.
    low, high = start_bounds(options)
    chips = start_scores(options, teams or n, low, high, "chips", target) or [2] * (teams or n)
    s = {"players": players, "round": 0, "over": False, "winner": None,
         "teams": teams, "chips": chips, "target": target, "dealer": dealer, "first_leader": dealer,
         "shot": None}
    _sync(s)
    s["start_scores"] = s["scores"]
    _start_round(s)
    return s


def _hands(s):
    """Hands in a trick: the players, plus the dummy when two play."""
    return max(3, len(s["players"]))


def side_of(s, hand):
    """Side (partnership or lone player) of a hand; None for the dummy."""
    if hand >= len(s["players"]):
        return None
    return hand % s["teams"] if s["teams"] else hand


def _start_round(s):
    # "start" keeps the chips at the deal: an illegal play undoes the hand
    s["start"] = s["chips"]  # shared, never changed in place
    s["tricks"] = [0] * _hands(s)
    s["leader"] = (s["dealer"] + 1) % len(s["players"])
    s["moons"] = [0, 0]  # BIG, LITTLE seen this round
    s["played"] = []  # numbered cards seen this round
    s["trick"] = []  # [[hand, card], ...] of a trick entered card by card
    s["held"] = None  # each player's cards still in hand, if dealt in
    s["phase"] = "deal"


def _sync(s):
    chips = s["chips"]
    s["scores"] = [chips[side_of(s, i)] for i in range(len(s["players"]))]


def _over(s):
    w = s["winner"]
    t = s["teams"]
    return "the game is over: %s won" % " and ".join(
        [s["players"][i] for i in range(len(s["players"])) if (i % t if t else i) == w])


def apply(state, event):
    return dispatch(state, event, EVENTS, __name__, "shoot-the-moon", _over, None)


def _play(state, event):
    s = dict(state)
    done = cards.play(state, s, event)
    s["phase"] = "play"
    if done:
        _finish_trick(s, done[0], done[1], done[2])
    return s


def _dealt(state, event):
    """A deal (each hand's cards), or a whole round at once: both before
    the round's first trick."""
    kind = event["type"]
    if state["held"] is not None:
        raise RuleError("this round's hands are already dealt in, so it is entered card by card")
    if sum(state["tricks"]) or state["trick"]:
        raise RuleError("a %s is entered before the first trick of the round, and this round has begun"
                        % ("whole round" if kind == "round" else "deal"))
    if kind == "deal":
        return cards.deal(state, event, _TRICKS)
    return _round(state, event)


def _moon_count(event, name, what):
    v = event.get(name)
    if v is None:
        return 0
    if type(v) is not int or not 0 <= v <= _MOONS:
        raise RuleError("%s must be 0, 1 or 2 (the deck has 2 %ss), not %r" % (name, what, v))
    return v


def _trick(state, event):
    if state["trick"] or state["held"] is not None:
        raise RuleError("this round is being entered card by card: enter the trick's cards with play events")
    k = _hands(state)
    win = hand_of(state, event, "winner", k)
    big = _moon_count(event, "big", "BIG MOON")
    little = _moon_count(event, "little", "LITTLE MOON")
    used = state["moons"]
    if used[0] + big > _MOONS or used[1] + little > _MOONS:
        raise RuleError("the deck has only %d BIG MOON%s and %d LITTLE MOON%s left this round"
                        % (_MOONS - used[0], "" if _MOONS - used[0] == 1 else "s",
                           _MOONS - used[1], "" if _MOONS - used[1] == 1 else "s"))
    if big + little > k or little >= k:
        raise RuleError("a trick of %d cards cannot hold %d BIG and %d LITTLE MOONs" % (k, big, little))
    s = dict(state)
    s["moons"] = [used[0] + big, used[1] + little]
    _finish_trick(s, win, big, little)
    return s


def _finish_trick(s, win, big, little):
    """Count a trick and pay its moon cards at once. One trick's BIG and
    LITTLE MOONs count together (net): the same as gains before losses.
    The dummy's moon cards score for nobody."""
    tricks = list(s["tricks"])
    tricks[win] += 1
    s["tricks"] = tricks
    s["leader"] = win
    s["phase"] = "play"
    side = side_of(s, win)
    if side is not None and (big or little):
        chips = list(s["chips"])
        chips[side] = max(0, chips[side] + big - little)
        s["chips"] = chips
        _sync(s)
    if sum(tricks) == _TRICKS:
        _end_round(s)


def _round(state, event):
    k = _hands(state)
    lists = []
    for name in ("tricks", "big", "little"):
        v = event.get(name) or ([0] * k if name != "tricks" else None)
        top = _TRICKS if name == "tricks" else _MOONS
        if not isinstance(v, list) or len(v) != k:
            raise RuleError("a round gives %s as one number per hand, %d in all (%s), not %r"
                            % (name, k, ", ".join(hand_names(state)), v))
        for x in v:
            if type(x) is not int or not 0 <= x <= top:
                raise RuleError("a round's %s counts are whole numbers from 0 to %d, not %r" % (name, top, x))
        lists.append(v)
    tricks, big, little = lists
    if sum(tricks) != _TRICKS:
        raise RuleError("a round's tricks must add up to %d, not %d" % (_TRICKS, sum(tricks)))
    if sum(big) > _MOONS or sum(little) > _MOONS:
        raise RuleError("the deck has only %d BIG MOONs and %d LITTLE MOONs, not %d and %d"
                        % (_MOONS, _MOONS, sum(big), sum(little)))
    s = dict(state)
    net = [0] * len(s["chips"])
    for h in range(k):
        if (big[h] or little[h]) and not tricks[h]:
            raise RuleError("%s won no trick, so cannot have won a moon card" % hand_names(s)[h])
        side = side_of(s, h)
        if side is not None:
            net[side] += big[h] - little[h]
    chips = list(s["chips"])
    for side in range(len(net)):
        chips[side] = max(0, chips[side] + net[side])
    s["chips"] = chips
    s["tricks"] = list(tricks)
    s["moons"] = [sum(big), sum(little)]
    _end_round(s)
    return s


def _end_round(s):
    """Chips for tricks pooled per side; the win check; the deal passes."""
    chips = list(s["chips"])
    pooled = [0] * len(chips)
    for h in range(len(s["tricks"])):
        side = side_of(s, h)
        if side is not None:
            pooled[side] += s["tricks"][h]
    shot = None
    for side in range(len(chips)):
        chips[side] += (0, 1, 0, 1, 0, 2)[pooled[side]]
        if pooled[side] == _TRICKS:
            shot = side
    s["chips"] = chips
    s["shot"] = shot  # the side that shot the moon (all 5 tricks) in the round just ended
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
    seat = hand_of(state, event, "player", len(state["players"]))
    s = dict(state)
    chips = list(state["start"])
    side = side_of(s, seat)
    if side is not None:  # always: a player's seat, never the dummy
        chips[side] = max(0, chips[side] - 1)
    s["chips"] = chips
    _start_round(s)  # same dealer
    _sync(s)
    return s


def legal(state):
    return cards.legal_moves(state, _TRICKS)


def turn(state):
    """{"leader": the dealer, "to_act": the hand that plays next (the
    player left of the dealer leads the round); None for the dummy's card
    in a two-player game, and both None once the game is over}."""
    if state["over"]:
        return {"leader": None, "to_act": None}
    n = len(state["players"])
    act = cards.play_order(n, state["dealer"], state["leader"])[len(state["trick"])]
    return {"leader": state["dealer"], "to_act": act if act < n else None}


def placings(state):
    """Places by chips, a partnership's seats sharing one place (the next
    side is second); the winning side first."""
    n = len(state["players"])
    k = state["teams"]
    sides = [[s for s in range(n) if s % k == t] for t in range(k)] if k else pl.solo(n)
    w = state["winner"]
    return pl.order(sides, state["chips"], None if w is None else [side_of(state, w)])


def standings(state):
    return pl.rows(state, placings(state))


def winner(state):
    return state["winner"]
