"""`moontable games`: the stored games, one line each (or the quarantine)."""

from host import db as dbmod
from host.commands._output import print_listing

HELP = "list the games in the database (--quarantine: the games refused by the rules)"


def add_arguments(parser):
    parser.add_argument("--game", help="only this game (moonstar, shoot-the-moon, moon, moons)")
    parser.add_argument("--player", help="only games this player took part in")
    parser.add_argument("--quarantine", action="store_true",
                        help="list quarantined logs and why each was refused")
    dbmod.add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _body(args):
    dbmod.check_game_name(args.game)
    with dbmod.open_for(args) as db:
        if args.quarantine:
            print_listing(db.quarantined(), args.json, "no quarantined games", _quarantine_lines)
            return 0
        rows = db.games(game=args.game, player=args.player)
    print_listing(rows, args.json, "no games stored yet (use `moontable sync` or `moontable import`)", _game_lines,
                  "%4s  %-19s  %-14s  %6s  %-8s  %s" % ("id", "date", "game", "rounds", "winner", "players (score)"))
    return 0


def _quarantine_lines(q):
    """A refused log: where and why, then the offending text if kept."""
    where = "line %d" % q["line"] if q["line"] else "log"
    yield "%d. %s/%s (%s, %d bytes): %s: %s" % (q["id"], q["device"], q["game_id"], q["received"],
                                                 q["bytes"], where, q["reason"])
    if q["excerpt"]:
        yield "     %s" % q["excerpt"]


def _game_lines(g):
    """One stored game, under the table header."""
    winner = ", ".join(g["winners"]) if g["finished"] else "(going)"
    players = "  ".join("%s %d" % (p, s) for p, s in zip(g["players"], g["scores"]))
    yield "%4d  %-19s  %-14s  %6d  %-8s  %s" % (g["id"], g["date"], g["game"], g["rounds"], winner, players)


def run(args):
    return dbmod.guarded("games", _body, args)
