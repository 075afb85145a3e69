"""`moontable games`: the stored games, one line each (or the quarantine)."""

import json
import sys

from host import db as dbmod

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
            rows = db.quarantined()
            if args.json:
                json.dump(rows, sys.stdout, indent=1)
                sys.stdout.write("\n")
                return 0
            if not rows:
                print("no quarantined games")
            for q in rows:
                where = "line %d" % q["line"] if q["line"] else "log"
                print("%d. %s/%s (%s, %d bytes): %s: %s" % (q["id"], q["device"], q["game_id"], q["received"],
                                                             q["bytes"], where, q["reason"]))
                if q["excerpt"]:
                    print("     %s" % q["excerpt"])
            return 0
        rows = db.games(game=args.game, player=args.player)
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    if not rows:
        print("no games stored yet (use `moontable sync` or `moontable import`)")
        return 0
    print("%4s  %-19s  %-14s  %6s  %-8s  %s" % ("id", "date", "game", "rounds", "winner", "players (score)"))
    for g in rows:
        winner = ", ".join(g["winners"]) if g["finished"] else "(going)"
        players = "  ".join("%s %d" % (p, s) for p, s in zip(g["players"], g["scores"]))
        print("%4d  %-19s  %-14s  %6d  %-8s  %s" % (g["id"], g["date"], g["game"], g["rounds"], winner, players))
    return 0


def run(args):
    return dbmod.guarded("games", _body, args)
