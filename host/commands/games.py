"""`moontable games`: the stored games, one line each (or the quarantine).

Games are named as on the box ("Shoot the Moon", "Moon (dominoes)"), with
Moonstar's variant ("Moonstar (Game 8)"); a game not over is "(not
finished)", as the report says; a date the board's clock gave only in
part, or not at all (then the day the game reached the PC), is marked
"approx."."""

from moontable import db as dbmod
from moontable.commands._output import print_listing
from moontable.names import check_game_name
from moontable.terminal import printable
from moontable.words import outcome

HELP = "list the games in the database (--quarantine: the games refused by the rules)"


def add_arguments(parser):
    parser.add_argument("--game", help="only this game (moonstar, shoot-the-moon, moon, moons, or the box's name)")
    parser.add_argument("--player", help="only games this player took part in")
    parser.add_argument("--quarantine", action="store_true",
                        help="list quarantined logs and why each was refused")
    dbmod.add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _body(args):
    args.game = check_game_name(args.game)
    with dbmod.open_for(args, readonly=True) as db:
        if args.quarantine:
            print_listing(db.quarantined(), args.json, "no quarantined games", _quarantine_lines)
            return 0
        rows = db.games(game=args.game, player=args.player)
    print_listing(rows, args.json, "no games stored yet (use `moontable sync` or `moontable import`)", _game_lines,
                  "%4s  %-27s  %-17s  %6s  %-14s  %s" % ("id", "date", "game", "rounds", "winner",
                                                           "players (score)"))
    return 0


def _quarantine_lines(q):
    """A refused log: where and why, then the offending text if kept (every
    part escaped: a log may carry terminal escape sequences)."""
    where = "line %d" % q["line"] if q["line"] else "log"
    yield "%d. %s/%s (%s, %d bytes): %s: %s" % (q["id"], printable(q["device"]), printable(q["game_id"]),
                                                 q["received"], q["bytes"], where, printable(q["reason"]))
    if q["excerpt"]:
        yield "     %s" % printable(q["excerpt"])


def _game_lines(g):
    """One stored game, under the table header; ranks shown where tied."""
    players = "  ".join("%s %d" % (printable(p), s) for p, s in zip(g["players"], g["scores"]))
    yield "%4d  %-27s  %-17s  %6d  %-14s  %s" % (g["id"], g["date"], g["game_name"], g["rounds"], outcome(g),
                                                 players)


def run(args):
    return dbmod.guarded("games", _body, args)
