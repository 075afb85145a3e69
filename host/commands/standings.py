"""`moontable standings`: games, wins and win rate per player, over all
finished games and per game. Players with the same record share a rank."""

import sys

from host import db as dbmod
from host.commands._output import print_json
from shared_rules import display_name, game_names

HELP = "games, wins and win rate per player, overall and per game"


def add_arguments(parser):
    parser.add_argument("--game", help="only this game (moonstar, shoot-the-moon, moon, moons)")
    dbmod.add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")


def collect(db, game=None):
    """{"overall": rows, "by_game": {game id: rows}, "names": {game id: box name}}."""
    stored = db.game_names()
    names = [game] if game else [g for g in game_names() if g in stored]  # the menu's order
    return {"overall": db.standings(game), "by_game": {n: db.standings(n) for n in names},
            "names": {n: display_name(n) for n in names}}


def _table(title, rows, out):
    out.write("%s\n" % title)
    if not rows:
        out.write("  no finished games\n")
        return
    width = max([len(r["player"]) for r in rows] + [6])
    out.write("  %4s  %s  %5s  %4s  %6s\n" % ("rank", "player".ljust(width), "games", "wins", "win %"))
    for r in rows:
        out.write("  %4d  %s  %5d  %4d  %5.1f%%\n" % (r["rank"], dbmod.printable(r["player"]).ljust(width),
                                                    r["games"], r["wins"], 100.0 * r["win_rate"]))


def _body(args):
    args.game = dbmod.check_game_name(args.game)
    with dbmod.open_for(args, readonly=True) as db:
        data = collect(db, args.game)
    if args.json:
        print_json(data, indent=1)
        return 0
    _table("overall" if not args.game else display_name(args.game), data["overall"], sys.stdout)
    if not args.game:
        for name, rows in data["by_game"].items():
            sys.stdout.write("\n")
            _table(display_name(name), rows, sys.stdout)
    return 0


def run(args):
    return dbmod.guarded("standings", _body, args)
