"""`moontable show GAME`: one game's round-by-round score table.

For Moonstar rounds whose set-up (the situation) is known, it also shows
what the bidder made of it against the best possible score, which the
solver (shared_rules.moonstar.solver) works out. The solver is imported only when
needed, so the table works without it.
"""

import io
import json
import sys

from moontable import db as dbmod
from moontable.commands._output import print_json
from moontable.terminal import printable
from moontable.words import count, options_text
from shared_rules.errors import LogError, RuleError
from shared_rules.log import Replay

HELP = "show one game's round-by-round scores (Moonstar: with each round's best possible score)"


def add_arguments(parser):
    parser.add_argument("game", metavar="GAME", help="game number from `moontable games`, or DEVICE/GAME_ID")
    parser.add_argument("--no-best", action="store_true", help="skip the Moonstar best-score column")
    dbmod.add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


class RoundLog(Replay):
    """A Replay that also keeps each finished round's "last" record (Moonstar
    keeps the bidder, bid, points and situation there), trimmed on undo
    exactly as the score snapshots are."""

    def __init__(self):
        super().__init__()
        self.details = []

    def step(self, event, lineno):
        super().step(event, lineno)
        del self.details[len(self.rounds):]
        while len(self.details) < len(self.rounds):
            last = self.match.state.get("last")
            self.details.append(last if isinstance(last, dict) else None)


def _solver():
    try:
        from shared_rules.moonstar import solver
    except ImportError:
        return None
    return solver


def moonstar_rounds(journal, with_best=True):
    """Per round: bidder seat, bid, points, made, best possible (or None)."""
    rep = RoundLog().feed(io.BytesIO(journal))
    solver = _solver() if with_best else None
    cache = {}
    out = []
    for d in rep.details:
        if not d:
            out.append(None)
            continue
        row = {"setter": d.get("setter"), "bidder": d.get("bidder"), "bid": d.get("bid"),
               "points": d.get("points"), "made": d.get("made"), "best": None}
        sit = d.get("sit")
        if solver is not None and sit and d.get("bidder") is not None:
            key = json.dumps(sit, sort_keys=True)
            if key not in cache:
                try:
                    cache[key] = solver.solve(sit)["best"]
                except RuleError:
                    cache[key] = None
            row["best"] = cache[key]
        out.append(row)
    return out


def _body(args):
    with dbmod.open_for(args, readonly=True) as db:
        pk = db.game_pk(args.game)
        g = db.game(pk)
    journal = g.pop("journal")
    details = None
    if g["game"] == "moonstar":
        try:
            details = moonstar_rounds(journal, with_best=not args.no_best)
        except LogError as e:  # stored games all replayed once; a rules change could break one
            raise dbmod.DbError("game %d no longer replays with these rules: %s" % (pk, e))
    rounds = []
    for i, scores in enumerate(g.pop("round_scores"), 1):
        r = {"round": i, "scores": scores}
        if details is not None and i <= len(details) and details[i - 1]:
            r.update(details[i - 1])
        rounds.append(r)
    g["round_table"] = rounds
    if args.json:
        print_json(g, indent=1)
    else:
        print_table(g, sys.stdout)
    return 0


def print_table(g, out):
    p = printable
    players = [p(name) for name in g["players"]]
    width = max([len(name) for name in players] + [5])
    out.write("game %d: %s  %s  (%s/%s)\n" % (g["id"], g["game_name"], g["date"], p(g["device"]), p(g["game_id"])))
    when = []
    if g["started"] and not g["approx"]:
        when.append("started %s" % g["started"])
    if g["duration_min"]:
        when.append("%d min" % g["duration_min"])
    if g["start_seat"] is not None and 0 <= g["start_seat"] < len(players):
        when.append("first %s: %s" % ("setter" if g["game"] == "moonstar" else
                                      "dealer" if g["game"] == "shoot-the-moon" else
                                      "bidder" if g["game"] == "moon" else "player", players[g["start_seat"]]))
    if when:
        out.write("%s\n" % ", ".join(when))
    if g["options"]:
        out.write("options: %s\n" % options_text(g["game"], g["options"], g["players"]))
    moon = any("bid" in r for r in g["round_table"])
    head = "round " + " ".join(name.rjust(width) for name in players)
    if moon:
        head += "  bidder".ljust(2 + width) + "  bid  points  best"
    out.write(head + "\n")
    for r in g["round_table"]:
        line = str(r["round"]).rjust(5) + " " + " ".join(str(s).rjust(width) for s in r["scores"])
        if moon and r.get("bidder") is not None:
            line += "  " + players[r["bidder"]].ljust(width)
            line += "  %3d  %6s  %4s" % (r["bid"], r["points"], "-" if r.get("best") is None else r["best"])
        elif moon:
            line += "  " + "(no bid)".ljust(width)
        out.write(line + "\n")
    # the scores so far are no final result: an unfinished game says how far it got
    head = "final" if g["finished"] else "so far, after %s" % count(len(g["round_table"]), "round")
    out.write("%s: %s\n" % (head, ", ".join("%d. %s %d" % (rk, name, s)
                                            for rk, name, s in sorted(zip(g["ranks"], players, g["scores"]),
                                                                      key=lambda x: x[0]))))
    out.write("winner: %s\n" % (", ".join(p(w) for w in g["winners"]) if g["finished"]
                                else "none yet (game not finished)"))


def run(args):
    return dbmod.guarded("show", _body, args)
