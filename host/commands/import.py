"""`moontable import LOG...`: verify game logs from disk and store them.

Each log is replayed with shared_rules exactly as a synced game is; one
that breaks a rule is quarantined with the line and the rule named, and
never merged. (The module is named `import` so the command reads
`moontable import`; cli.py loads modules by name, so the keyword is fine.)
"""

import json
import sqlite3
import sys

from moontable import db as dbmod
from moontable.dbfiles import sqlite_problem
from moontable.names import check_device_name

HELP = "import game logs (.jsonl, or a device journal) into the database, verifying each with the rules"


def add_arguments(parser):
    parser.add_argument("logs", nargs="+", metavar="LOG", help="game log files to import")
    parser.add_argument("--device", default="file",
                        help="device id to file the games under (default: file)")
    dbmod.add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object per log")


def _body(args):
    args.device = check_device_name(args.device)  # before the database: a bad name makes nothing
    db = dbmod.open_for(args)
    worst = 0
    results = []
    stopped = None
    with db:
        for path in args.logs:
            try:
                status, message, game_id = db.import_log(path, device_id=args.device)
            except dbmod.DbError as e:
                status, message, game_id = "error", "%s: %s" % (path, e), None
            except sqlite3.Error as e:
                # A full disk (or a file that turned read-only): this log is
                # not stored, nor any after it; the ones before are.
                stopped = "%s: not stored: %s" % (path, sqlite_problem(db.path, e))
                worst = 2
                break
            if status in ("quarantined", "error", "partial"):
                worst = 2
            results.append({"file": path, "status": status, "game_id": game_id, "message": message})
    for r in results:
        if args.json:
            sys.stdout.write(json.dumps(r) + "\n")
        elif r["status"] in ("quarantined", "error", "partial"):
            print("moontable import: %s: %s" % (r["file"], r["message"]) if r["status"] != "error"
                  else "moontable import: %s" % r["message"], file=sys.stderr)
        else:
            print("%s: %s" % (r["file"], r["message"]))
    if stopped:
        kept = [r["file"] for r in results if r["status"] == "stored"]
        print("moontable import: %s; stopped there. %s" % (
            stopped, "Stored before it: %s." % ", ".join(kept) if kept else "Nothing was stored."), file=sys.stderr)
    return worst


def run(args):
    return dbmod.guarded("import", _body, args)
