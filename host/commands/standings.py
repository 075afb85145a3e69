"""`moontable standings`: games, wins and win rate per player, over all
finished games and per game. Players with the same record share a rank.
With --ratings, each game's openskill ratings as well: a skill estimate
and how sure it is, partners rated as one team."""

import sys

from moontable import db as dbmod
from moontable.commands._output import print_json
from moontable.names import check_game_name
from moontable.terminal import printable
from shared_rules import display_name, game_names

HELP = "games, wins and win rate per player, overall and per game"


def add_arguments(parser):
    parser.add_argument("--game", help="only this game (moonstar, shoot-the-moon, moon, moons)")
    dbmod.add_db_argument(parser)
    parser.add_argument("--ratings", action="store_true",
                        help="add each game's openskill ratings: mu +- 2 sigma, and mu - 3 sigma (surely at least)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")


def collect(db, game=None, ratings=False):
    """{"overall": rows, "by_game": {game id: rows}, "names": {game id: box
    name}}, and with `ratings` "ratings": {game id: rows of player, mu,
    sigma, ordinal, plays}, highest ordinal first."""
    stored = db.game_names()
    names = [game] if game else [g for g in game_names() if g in stored]  # the menu's order
    out = {"overall": db.standings(game), "by_game": {n: db.standings(n) for n in names},
           "names": {n: display_name(n) for n in names}}
    if ratings:
        from moontable.stats import ratings as rate

        rated = rate(db.games(game))
        out["ratings"] = {n: [{k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()
                               if k not in ("history", "player_id")} for r in rated.get(n, [])] for n in names}
    return out


def _ratings_table(title, rows, out):
    out.write("%s ratings (openskill)\n" % title)
    if not rows:
        out.write("  no finished games\n")
        return
    width = max([len(r["player"]) for r in rows] + [6])
    out.write("  %s  %13s  %15s  %5s\n" % ("player".ljust(width), "rating +- 2sd", "surely at least", "games"))
    for r in rows:
        out.write("  %s  %6.1f +- %4.1f  %15.1f  %5d\n" % (printable(r["player"]).ljust(width), r["mu"],
                                                        2 * r["sigma"], r["ordinal"], r["plays"]))


def _table(title, rows, out):
    out.write("%s\n" % title)
    if not rows:
        out.write("  no finished games\n")
        return
    width = max([len(r["player"]) for r in rows] + [6])
    out.write("  %4s  %s  %5s  %4s  %6s\n" % ("rank", "player".ljust(width), "games", "wins", "win %"))
    for r in rows:
        out.write("  %4d  %s  %5d  %4d  %5.1f%%\n" % (r["rank"], printable(r["player"]).ljust(width),
                                                    r["games"], r["wins"], 100.0 * r["win_rate"]))


def _body(args):
    args.game = check_game_name(args.game)
    with dbmod.open_for(args, readonly=True) as db:
        data = collect(db, args.game, args.ratings)
    if args.json:
        print_json(data, indent=1)
        return 0
    _table("overall" if not args.game else display_name(args.game), data["overall"], sys.stdout)
    if not args.game:
        for name, rows in data["by_game"].items():
            sys.stdout.write("\n")
            _table(display_name(name), rows, sys.stdout)
    for name, rows in data.get("ratings", {}).items():
        sys.stdout.write("\n")
        _ratings_table(display_name(name), rows, sys.stdout)
    return 0


def run(args):
    return dbmod.guarded("standings", _body, args)
