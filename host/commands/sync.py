"""`moontable sync [--port PORT] [--db PATH]`: copy the device's finished
games into the database (verified by replay, resumable), mark them synced
on the device, and push the roster and the clock."""

import sys

from host import db as dbmod
from host.commands._output import print_json
from host.serial_link import DeviceError, Link, LinkError, choose_port
from host.sync import Progress, sync

HELP = "sync finished games from the device (USB serial) into the database; push roster and clock"


def add_arguments(parser):
    parser.add_argument("--port", help="serial port of the device (default: find it by its USB ids)")
    dbmod.add_db_argument(parser)
    parser.add_argument("--all", action="store_true",
                        help="also re-check games the device already counts as synced")
    parser.add_argument("--no-roster", action="store_true", help="do not push the roster")
    parser.add_argument("--no-clock", action="store_true", help="do not set the device's clock")
    parser.add_argument("--timeout", type=float, default=2.0,
                        help="seconds to wait for each reply before sending again (default 2)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the outcome as one JSON object")


class BarProgress(Progress):
    """A tqdm bar over journal bytes (plain text if tqdm is missing)."""

    def __init__(self, enabled):
        self.enabled = enabled
        self.bar = None

    def start(self, total_bytes, games):
        if not self.enabled or not total_bytes:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            print("receiving %d games (%d bytes)" % (games, total_bytes), file=sys.stderr)
            return
        self.bar = tqdm(total=total_bytes, unit="B", unit_scale=True, desc="sync", file=sys.stderr,
                        leave=False, dynamic_ncols=True)

    def advance(self, nbytes):
        if self.bar is not None:
            self.bar.update(nbytes)

    def note(self, text):
        if self.bar is not None:
            self.bar.set_postfix_str(text, refresh=False)

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _as_json(res):
    return {
        "device": res.device,
        "info": res.info,
        "stored": [g for g, _ in res.stored],
        "quarantined": [{"game": g, "report": m} for g, m in res.quarantined],
        "unchanged": res.unchanged,
        "acked": res.acked,
        "in_progress": res.open,
        "problems": [{"game": g, "problem": m} for g, m in res.problems],
        "warnings": res.warnings,
        "bytes": res.bytes,
        "roster": res.roster,
        "clock": res.clock,
    }


def run(args):
    try:
        port = choose_port(args.port)
    except LinkError as e:
        print("moontable sync: %s" % e, file=sys.stderr)
        return 2
    try:
        database = dbmod.open_for(args)
    except dbmod.DbError as e:
        print("moontable sync: %s" % e, file=sys.stderr)
        return 2
    bar = BarProgress(not args.quiet and not args.json and sys.stderr.isatty())
    try:
        with Link.open(port, timeout=args.timeout) as link:
            res = sync(link, database, progress=bar, roster=not args.no_roster, clock=not args.no_clock,
                       all_games=args.all)
    except LinkError as e:
        bar.close()
        print("moontable sync: %s\nNothing received so far is lost: run `moontable sync` again to resume." % e,
              file=sys.stderr)
        return 1
    except DeviceError as e:
        bar.close()
        print("moontable sync: the device refused a request: %s" % e, file=sys.stderr)
        return 1
    finally:
        database.close()
    bar.close()
    if args.json:
        print_json(_as_json(res))
    else:
        for gid, msg in res.stored:
            print(msg)
        for gid, msg in res.quarantined:
            print(msg)
        for gid, msg in res.problems:
            print("%s: %s" % (gid, msg))
        for w in res.warnings:
            print("warning: %s" % w)
        print(res.summary())
    return 3 if res.quarantined else 0
