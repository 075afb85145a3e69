"""`moontable players [list | add NAME... | rename OLD NEW | merge FROM INTO | link GAME SEAT NAME]`.

Merge exists because the same person often turns up under two spellings
(typed on the device, imported from a file): it moves every result to one
player and keeps the other name as an alias, so later syncs land there too.

Link exists because a seat label (P1, P2, ... for a seat nobody named on
the device or the page) is never a person: renaming P1 to Ann would make
every P1 of every game Ann's. Link says who sat at one seat of one game.
"""

import os

from moontable import db as dbmod
from moontable.commands._output import print_json, print_listing
from moontable.names import check_typed_name
from moontable.terminal import printable
from moontable.words import count

HELP = ("list players, or add / rename / merge them (merge moves all results), "
        "or link GAME SEAT NAME (who sat at a seat, such as P1, of one game)")

# how many names each action takes: (fewest, most); None: no bound
ARITY = {"list": (0, 0), "add": (1, None), "rename": (2, 2), "merge": (2, 2), "link": (3, 3)}
USAGE = {"list": "players list", "add": "players add NAME...", "rename": "players rename OLD NEW",
         "merge": "players merge FROM INTO", "link": "players link GAME SEAT NAME"}
EMPTY = "the roster is empty (no players yet: `moontable players add NAME`, or sync or import a game)"


def add_arguments(parser):
    parser.add_argument("action", nargs="?", default="list", choices=sorted(ARITY),
                        help="list (default), add (one name or several), rename, merge or link")
    parser.add_argument("names", nargs="*", metavar="NAME", help="player names for the action")
    dbmod.add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")


def _body(args):
    fewest, most = ARITY[args.action]
    given = len(args.names)
    if given < fewest or (most is not None and given > most):
        raise dbmod.DbError("usage: moontable %s (got %d name%s)" % (USAGE[args.action], given,
                                                                    "" if given == 1 else "s"))
    # what a person types is composed (NFC), as the rules keep names
    args.names = [check_typed_name(name) for name in args.names]
    if args.action == "list":
        return _list(args)
    # only `add` makes a database: there is nobody to rename, merge or link
    # in one that is not there, and a failed command leaves no empty file
    with dbmod.open_for(args, create=args.action == "add") as db:
        if args.action == "add":
            db.add_players(args.names)
            result = {"added": args.names}
            text = "added %s" % ", ".join(args.names)
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
            seat, person = db.link_seat(*args.names)
            result = {"game": args.names[0], "seat": seat, "player": person}
            text = "game %s: %s is %s" % (printable(args.names[0]), printable(seat), printable(person))
    if args.json:
        print_json(result)
    else:
        print(text)
    return 0


def _list(args):
    """The roster. A database not made yet holds nobody: an empty roster
    is an answer, and a read makes no file."""
    if not os.path.exists(args.db or dbmod.default_path()):
        print_listing([], args.json, EMPTY, _player_lines)
        return 0
    with dbmod.open_for(args, readonly=True) as db:
        print_listing(db.players(), args.json, EMPTY, _player_lines)
    return 0


def _player_lines(p):
    """One player, with the other spellings merged into it."""
    also = "  (also: %s)" % ", ".join(printable(a) for a in p["aliases"]) if p["aliases"] else ""
    yield "%-10s  %9s  %8s%s" % (printable(p["name"]), count(p["games"], "game"), count(p["wins"], "win"), also)


def run(args):
    return dbmod.guarded("players", _body, args)
