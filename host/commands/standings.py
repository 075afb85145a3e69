"""`moontable standings`: games, wins and win rate per player, over all
finished games and per game."""

import sys

from host import db as dbmod
from host.commands._output import print_json

HELP = "games, wins and win rate per player, overall and per game"


def add_arguments(parser):
    parser.add_argument("--game", help="only this game (moonstar, shoot-the-moon, moon, moons)")
    dbmod.add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")


def collect(db, game=None):
    names = [game] if game else db.game_names()
    return {"overall": db.standings(game), "by_game": {n: db.standings(n) for n in names}}


def _table(title, rows, out):
    out.write("%s\n" % title)
    if not rows:
        out.write("  no finished games\n")
        return
    width = max([len(r["player"]) for r in rows] + [6])
    out.write("  %s  %5s  %4s  %6s\n" % ("player".ljust(width), "games", "wins", "win %"))
    for r in rows:
        out.write("  %s  %5d  %4d  %5.1f%%\n" % (r["player"].ljust(width), r["games"], r["wins"], 100.0 * r["win_rate"]))


def _body(args):
    dbmod.check_game_name(args.game)
    with dbmod.open_for(args) as db:
        data = collect(db, args.game)
    if args.json:
        print_json(data, indent=1)
        return 0
    _table("overall" if not args.game else "%s" % args.game, data["overall"], sys.stdout)
    if not args.game:
        for name, rows in data["by_game"].items():
            sys.stdout.write("\n")
            _table(name, rows, sys.stdout)
    return 0


def run(args):
    return dbmod.guarded("standings", _body, args)
