# Moonstar: who sets up the first round. Each player throws four dice and
# the highest total sets up; tied players throw again (a roll-off).
"""Choosing Moonstar's first setter: recorded, seeded or explicit."""

from shared_rules.ticks import const
from shared_rules.errors import RuleError
from shared_rules.util import Rng, is_int
from shared_rules.moonstar.round import start_round
from shared_rules.seeds import seed_of


_ROLLS_KEPT = const(8)  # roll-offs the state keeps to show (a long tie streak drops the oldest)


def _rolls(state, rolls, rolling):
    """The entered dice, checked: per seat four dice, or None for a seat
    not in the roll-off."""
    n = len(state["players"])
    if not isinstance(rolls, list) or len(rolls) != n:
        raise RuleError("rolls must be a list with one entry per player (%d)" % n)
    dice: list = [None] * n  # None: not in the roll-off (annotated so lists fit)
    for p in range(n):
        r = rolls[p]
        who = state["players"][p]
        if p not in rolling:
            if r is not None:
                raise RuleError("%s is not in the roll-off; give null for that seat" % who)
            continue
        if not isinstance(r, list) or len(r) != 4:
            raise RuleError("%s must roll four dice, given as a list of four numbers" % who)
        for d in r:
            if not is_int(d) or d < 1 or d > 6:
                raise RuleError("%s's die shows %r, but a die shows 1-6" % (who, d))
        dice[p] = list(r)
    return dice


def roll_for_setter(state, event):
    """One throw of four dice by every player still rolling. The state
    keeps every throw (state["rolls"]: {"dice", "totals"} per throw, None
    for seats not rolling) so a screen can show the whole roll-off."""
    n = len(state["players"])
    rolling = state["rolloff"] or list(range(n))
    if "seed" in event:
        if "rolls" in event:
            raise RuleError("give either rolls or a seed, not both")
        rng = Rng(seed_of(event))
        dice: list = [None] * n
        for p in rolling:
            dice[p] = [1 + rng.below(6) for _ in range(4)]
    elif "rolls" in event:
        dice = _rolls(state, event["rolls"], rolling)
    else:
        raise RuleError("roll_for_setter needs the rolls (four dice per player) or a seed")
    totals: list = [None if d is None else sum(d) for d in dice]
    best = max([totals[p] for p in rolling])
    top = [p for p in rolling if totals[p] == best]
    s = dict(state)
    s["rolls"] = (state["rolls"] + [{"dice": dice, "totals": totals}])[-_ROLLS_KEPT:]
    if len(top) == 1:
        start_round(s, top[0])
        s["first_leader"] = top[0]
    else:
        s["rolloff"] = top
    return s


def choose_setter(state, event):
    n = len(state["players"])
    p = event.get("player")
    if not is_int(p) or p < 0 or p >= n:
        raise RuleError("player must be a seat from 0 to %d, not %r" % (n - 1, p))
    s = dict(state)
    start_round(s, p)
    s["first_leader"] = p
    return s
