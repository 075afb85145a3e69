# Moonstar: setting up a round. The set-up is entered (checked by
# board.py against the set-up rules and this round's numbers),
# expanded from a recorded seed, or skipped (situation unknown).
"""The Moonstar set-up and Game 12's per-round variant choice."""

from shared_rules.moonstar import board
from shared_rules.errors import RuleError
from shared_rules.util import Rng
from shared_rules.seeds import seed_of


def random_situation(cfg, seed):
    """A random set-up and dice roll for a round config, from a seed.

    A fixed order, so both interpreters expand a seed alike (Rng is
    xorshift32): shuffle the 12 stars and put the planets, in the config's
    order, on the first ones; then each moon on a drawn star, drawing again
    while that star holds 3 moons; then each die 1 + below(6)."""
    rng = Rng(seed)
    stars = rng.shuffle(list(range(12)))
    planets = [[stars[i], v] for i, v in enumerate(cfg["planets"])]
    count = [0] * 12
    moons = []
    for _ in range(cfg["moons"]):
        s = rng.below(12)
        while count[s] >= 3:
            s = rng.below(12)
        count[s] += 1
        moons.append(s)
    dice = [1 + rng.below(6) for _ in range(cfg["dice"])]
    return {"stars": 12, "planets": planets, "moons": moons, "dice": dice,
            "scoring": cfg["scoring"], "movement": cfg["movement"],
            "favorite_star": cfg["favorite"]}


def variants(state, event):
    # Game 12's choice only: a set-up needs none of the options' checks
    from shared_rules.moonstar.opts import check_games, config

    if "games" not in event:
        raise RuleError("variants event needs a 'games' list (empty for the basic game)")
    s = dict(state)
    s["cfg"] = config(check_games(event["games"], "a round"), event, "this round")
    s["phase"] = "setup"
    return s


def _values(values):
    return ", ".join([str(v) for v in values]) if values else "none"


def _entered(cfg, event):
    from shared_rules.moonstar.check import check_situation

    sit = check_situation({
        "planets": event["planets"], "moons": event["moons"], "dice": event["dice"],
        "scoring": cfg["scoring"], "movement": cfg["movement"],
        "favorite_star": cfg["favorite"]})
    if len(sit["moons"]) != cfg["moons"]:
        raise RuleError("this round uses %d moons, not %d" % (cfg["moons"], len(sit["moons"])))
    if len(sit["dice"]) != cfg["dice"]:
        raise RuleError("this round uses %d dice, not %d" % (cfg["dice"], len(sit["dice"])))
    have = sorted([p[1] for p in sit["planets"]])
    want = sorted(cfg["planets"])
    if have != want:
        raise RuleError("this round's planets are %s, not %s" % (_values(want), _values(have)))
    # Own copies: a caller changing its event must not change the state.
    sit["planets"] = [list(p) for p in sit["planets"]]
    sit["moons"] = list(sit["moons"])
    sit["dice"] = list(sit["dice"])
    return sit


def setup(state, event):
    """The round's set-up, or a correction of it ("fix_situation", taken
    until the result is in: same fields, the phase stays)."""
    cfg = state["cfg"]
    given = [k for k in ("planets", "moons", "dice") if k in event]
    if "seed" in event:
        if given:
            raise RuleError("give either a seed or the planets, moons and dice, not both")
        sit = random_situation(cfg, seed_of(event))
    elif given:
        if len(given) < 3:
            raise RuleError("a set-up gives all of planets, moons and dice (or none of them)")
        sit = _entered(cfg, event)
    else:
        sit = None
    s = dict(state)
    s["sit"] = sit
    if event["type"] != "fix_situation":
        s["phase"] = "bidding"
    return s
