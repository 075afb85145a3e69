"""`moontable import LOG...`: verify game logs from disk and store them.

Each log is replayed with shared_rules exactly as a synced game is; one
that breaks a rule is quarantined with the line and the rule named, and
never merged. (The module is named `import` so the command reads
`moontable import`; cli.py loads modules by name, so the keyword is fine.)
"""

import json
import os
import sqlite3
import sys

from moontable import db as dbmod
from moontable.dbfiles import sqlite_problem
from moontable.journals import MAX_LOG
from moontable.names import check_device_name
from shared_rules.wire_read import decode

HELP = "import game logs (.jsonl, or a device journal) into the database, verifying each with the rules"


def add_arguments(parser):
    parser.add_argument("logs", nargs="+", metavar="LOG", help="game log files to import")
    parser.add_argument("--device",
                        help="device id to file the games under (default: the device the log's header names, "
                             "as the board and the web page write it, else file)")
    dbmod.add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object per log")


def header_device(path):
    """The device a log file's header names ("device": the board's id, or
    the web page's web-<8 hex digits>), checked as --device is; None when
    it names none that fits, or the path is no regular file (a pipe is
    read once, by the import) or cannot be read (the import says why).
    Filed under it, the game is DEVICE/GAME_ID as a sync or the web page
    names it, so its BG Stats play is one play from either."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            header = decode(f.readline(MAX_LOG))
    except (OSError, ValueError, RecursionError):
        return None
    device = header.get("device")
    if not isinstance(device, str):
        return None
    try:
        return check_device_name(device)
    except dbmod.DbError:
        return None


def _body(args):
    if args.device is not None:
        args.device = check_device_name(args.device)  # before the database: a bad name makes nothing
    db = dbmod.open_for(args)
    worst = 0
    results = []
    stopped = None
    with db:
        for path in args.logs:
            try:
                device = args.device or header_device(path) or "file"
                status, message, game_id = db.import_log(path, device_id=device)
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
            results.append({"file": path, "status": status, "device": device, "game_id": game_id,
                            "message": message})
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
