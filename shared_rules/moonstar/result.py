# Moonstar: the bidder's result (as points, or as moves checked and scored
# by board.py) and Game 11's side bets.
"""Result entry and side bets for Moonstar."""

from shared_rules.errors import RuleError
from shared_rules.util import is_int
from shared_rules.moonstar.round import settle
from shared_rules.moonstar.bid import seat
from shared_rules.moonstar.limits import bet_room, max_points


def bet(state, event):
    """A side bet (Game 11's betting, after the bidding)."""
    if not state["cfg"]["side_bets"]:
        raise RuleError("side bets are part of Game 11 (Side Bets) only")
    p = seat(state, event)
    on = event.get("on")
    if on != "made" and on != "failed":
        raise RuleError("a side bet is on \"made\" or \"failed\", not %r" % (on,))
    amount = event.get("amount")
    if not is_int(amount) or amount < 0:
        raise RuleError("a bet must be a whole number of points, 0 or more, not %r" % (amount,))
    room = bet_room(state, p)
    bets = state["bets"]
    if amount > room:
        raise RuleError("%s can bet at most %d more (total %d, already bet %d), not %d" % (
            state["players"][p], room, state["scores"][p],
            bets[p][0] + bets[p][1] if bets else 0, amount))
    bets = list(bets) if bets else [[0, 0] for _ in state["players"]]
    pair = list(bets[p])
    pair[0 if on == "made" else 1] += amount
    bets[p] = pair
    s = dict(state)
    s["bets"] = bets
    return s


def check_points(sit, points):
    """Refuse points above the best a known situation allows. Returns that
    best when the check had to work it out, else None: the search stops as
    soon as it has found a plan scoring `points` or more, which is how most
    results end, so an honest result rarely costs a full solve (a board
    replays every result of a game at resume, and the PC every log). Loaded
    and run only when a result meets a known situation. (The device sheds
    the solver's modules after the event with the rules' other on-demand
    ones.)"""
    c = PointsCheck(sit, points)
    r = None
    while r is None:
        r = c.step(16)
    return c.best


class AboveBest(RuleError):
    """Points above the best a set-up allows. The message names that best;
    `without_best` says the same without it, for a device to show while
    the playing minute is not over (the best would tell the bidder, and
    anyone who enters a high number, what to aim for)."""

    def __init__(self, points, best):
        self.without_best = "%d is more than this set-up allows" % points
        super().__init__("%s (best possible %d)" % (self.without_best, best))


class PointsCheck:
    """check_points() in slices: step(budget) does about `budget` units of
    the solver's work (docs/solver.md) and returns None until decided,
    then True (the points are possible; `best` is the best possible when
    the check had to work it out, else None); AboveBest when they are
    not. A device runs it over its loop passes before it commits a
    result, so no pass waits for a whole solve."""

    def __init__(self, sit, points):
        from shared_rules.moonstar.solver import Solver

        self.points = points
        self.best = None
        self.solver = Solver(sit, True)  # checked when it was set up

    def step(self, budget):
        solver = self.solver
        if solver is None:
            return True
        r = solver.step(budget)
        if r is None:
            if solver.reached() < self.points:
                return None
        else:
            self.best = r["best"]
            if self.points > self.best:
                raise AboveBest(self.points, self.best)
        self.solver = None  # decided: free the solver's tables
        return True


def _reaches(state, plan, points):
    from shared_rules.moonstar.plan import reaches

    return reaches(state, plan, points)


class ResultCheck:
    """A result event applied in slices (moonstar.begin): everything that
    can be decided at once is, in the constructor (RuleError for a bad
    event); step(budget) then returns None while the points are still
    being checked against the best possible, and the new state once they
    pass (RuleError if they do not)."""

    def __init__(self, state, event, plan=None):
        self.state = state
        self.check = None
        self.done = None
        sit = state["sit"]
        if "points" in event:
            if "moves" in event:
                raise RuleError("give the result as points or as moves, not both")
            if "favorite" in event:
                raise RuleError("the Favorite Star is given with moves, not with points")
            points = event["points"]
            top = max_points(state["cfg"])
            if not is_int(points) or points < 0 or points > top:
                raise RuleError("points must be a whole number from 0 to %d, not %r" % (top, points))
            self.points = points
            # No plan scores less than nothing, so 0 needs no check either.
            if sit is None or points == 0 or (plan is not None and _reaches(state, plan, points)):
                self.done = settle(state, points)
            else:
                self.check = PointsCheck(sit, points)
        elif "moves" in event:
            if sit is None:
                raise RuleError("this round's situation is unknown, so enter the result as points")
            from shared_rules.moonstar.plan import plan_score

            # After time ran out the plan may be partial: unmoved moons score nothing.
            points = plan_score(sit, event["moves"], event.get("favorite"), not state["timeout"])
            # A plan the rules have just found legal: the set-up allows its
            # score by definition, so there is nothing for the solver to check.
            self.done = settle(state, points)
        else:
            raise RuleError("result event needs 'points' or 'moves'")

    def step(self, budget):
        c = self.check
        if self.done is None and c is not None and c.step(budget):
            self.done = settle(self.state, self.points)
            self.check = None
        return self.done


def result(state, event):
    """The state after a result event, decided in one go (ResultCheck)."""
    c = ResultCheck(state, event)
    r = None
    while r is None:
        r = c.step(16)  # small steps: the check stops as soon as a plan reaches the points
    return r
