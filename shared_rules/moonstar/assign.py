"""Planets for shared_rules.moonstar.solver: moons score independently, so
the best plan is a maximum-weight assignment of moons to dice (a pair's
weight is its best destination; any die moves any moon, so every
assignment is a legal plan), solved exactly by the Hungarian method, once
per possible Favorite Star. docs/solver.md has the argument. Loaded for
planets only: squares and chains never need it (piles.py)."""

from shared_rules.moonstar.board import STARS, destinations, planet_values

try:
    from micropython import const
except ImportError:  # CPython

    def const(__expr):  # positional-only, like the stub: see shared_rules/ticks.py
        return __expr


_INF = const(1 << 28)


class Assign:
    """A resumable exact solve of a checked planets situation `sit`, an
    assignment row a unit of work."""

    def __init__(self, sit):
        self.sit = sit
        self.result = None
        self.units = 0
        self.best = -1
        self.greedy = -1  # the best greedy plan's score so far
        values = planet_values(sit)
        self.favs = [s for s in range(STARS) if values[s]] if sit["favorite_star"] else [None]
        self._assign_start()

    def step(self, budget):
        """Do about `budget` units of work; the result once done, else None."""
        if self.result is None:
            self._assign_step(budget)
        return self.result

    def reached(self):
        """As Solver.reached: the exact method's best so far or a greedy plan's."""
        return max(self.best, self.greedy)

    def _assign_start(self):
        """Set up the Hungarian method for the next Favorite Star (or none):
        rows are the moons or the dice, whichever are fewer."""
        sit = self.sit
        dice = sit["dice"]
        fav = self.fav = self.favs.pop()
        pts = [v or 1 for v in planet_values(sit)]
        if fav is not None:
            pts[fav] *= 2
        top = self.top = []  # top[moon][v]: best points with a v * 16 + where
        for start in sit["moons"]:
            row = [0] * 7
            for v in range(1, 7):
                for to in destinations(start, v, sit["movement"]):
                    row[v] = max(row[v], pts[to] * 16 + to)
            top.append(row)
        self._greedy(top, dice)
        n, m = len(top), len(dice)
        # row 0 of the cost matrix is the method's dummy row, never read
        if n <= m:
            cost = [[]] + [[0] + [-(row[d] >> 4) for d in dice] for row in top]
        else:
            n, m = m, n
            cost = [[]] + [[0] + [-(row[d] >> 4) for row in top] for d in dice]
        self.hn = n
        self.h = (cost, [0] * (n + 1), [0] * (m + 1), [0] * (m + 1), [0] * (m + 1), [0] * (m + 1), [0] * (m + 1))
        self.row = 1

    def _greedy(self, top, dice):
        """Score of a plan in which each die in turn moves the unmoved moon
        it scores most with: any assignment is a legal plan, so this is a
        score the round certainly allows, known before the exact method
        runs (see reached()). Allocates nothing: the board's heap is small."""
        used = total = 0
        for d in dice:
            best = pick = -1
            for i in range(len(top)):
                if not used >> i & 1:
                    v = top[i][d] >> 4
                    if v > best:
                        best = v
                        pick = i
            if pick < 0:
                break
            used |= 1 << pick
            total += best
        if total > self.greedy:
            self.greedy = total

    def _assign_row(self):
        """Add row self.row (shortest augmenting path with potentials)."""
        cost, u, v, p, way, minv, used = self.h
        m = len(p) - 1
        for j in range(m + 1):
            minv[j] = _INF
            used[j] = 0
        p[0] = self.row
        j0 = 0
        while p[j0]:
            used[j0] = 1
            i0 = p[j0]
            ci = cost[i0]
            ui = u[i0]
            delta = _INF
            for j in range(1, m + 1):
                if not used[j]:
                    cur = ci[j] - ui - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
        self.row += 1

    def _assign_step(self, budget):
        dice = self.sit["dice"]
        while budget > 0:
            budget -= 1
            self.units += 1
            if self.row <= self.hn:
                self._assign_row()
                continue
            total = 0
            plan = []
            p = self.h[3]
            for j in range(1, len(p)):
                if p[j]:
                    moon, die = (p[j] - 1, j - 1) if self.hn == len(self.top) else (j - 1, p[j] - 1)
                    t = self.top[moon][dice[die]]
                    total += t >> 4
                    plan.append({"moon": moon, "die": die, "to": t & 15})
            if total > self.best:
                self.best = total
                self.found = {"best": total, "plan": plan, "favorite": self.fav}
            if not self.favs:
                self.result = self.found
                del self.h, self.top  # free the tables: the board's heap is small
                return
            self._assign_start()
