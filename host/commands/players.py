"""`moontable players [list | add NAME | rename OLD NEW | merge FROM INTO]`.

Merge exists because the same person often turns up under two spellings
(typed on the device, imported from a file): it moves every result to one
player and keeps the other name as an alias, so later syncs land there too.
"""

from host import db as dbmod
from host.commands._output import print_json, print_listing
from host.db import printable

HELP = "list players, or add / rename / merge them (merge moves all results)"

ARITY = {"list": 0, "add": 1, "rename": 2, "merge": 2}
USAGE = {"list": "players list", "add": "players add NAME", "rename": "players rename OLD NEW",
         "merge": "players merge FROM INTO"}


def add_arguments(parser):
    parser.add_argument("action", nargs="?", default="list", choices=sorted(ARITY),
                        help="list (default), add, rename or merge")
    parser.add_argument("names", nargs="*", metavar="NAME", help="player names for the action")
    dbmod.add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")


def _body(args):
    want = ARITY[args.action]
    if len(args.names) != want:
        raise dbmod.DbError("usage: moontable %s (got %d name%s)" % (USAGE[args.action], len(args.names),
                                                                    "" if len(args.names) == 1 else "s"))
    with dbmod.open_for(args, readonly=args.action == "list") as db:
        if args.action == "add":
            db.add_player(args.names[0])
            result = {"added": args.names[0]}
            text = "added %s" % args.names[0]
        elif args.action == "rename":
            db.rename_player(args.names[0], args.names[1])
            result = {"renamed": args.names[0], "to": args.names[1]}
            text = "renamed %s to %s" % tuple(args.names)
        elif args.action == "merge":
            moved = db.merge_players(args.names[0], args.names[1])
            result = {"merged": args.names[0], "into": args.names[1], "results_moved": moved}
            text = "merged %s into %s (%d result%s moved)" % (args.names[0], args.names[1], moved,
                                                               "" if moved == 1 else "s")
        else:
            print_listing(db.players(), args.json, "no players yet", _player_lines)
            return 0
    if args.json:
        print_json(result)
    else:
        print(text)
    return 0


def _player_lines(p):
    """One player, with the other spellings merged into it."""
    also = "  (also: %s)" % ", ".join(printable(a) for a in p["aliases"]) if p["aliases"] else ""
    yield "%-10s  %3d games  %3d wins%s" % (printable(p["name"]), p["games"], p["wins"], also)


def run(args):
    return dbmod.guarded("players", _body, args)
