"""`moontable sync [--port PORT] [--db PATH]`: copy the device's games into
the database (verified by replay, resumable), mark the finished ones synced
on the device, and push the roster and the clock. `moontable sync --list`
shows the serial ports and which look like a board that can run moontable.

Exit status: 0 done; 1 the link failed or the device refused a request (run
it again to resume: nothing received is lost); 2 no usable port (none found,
no such port, nothing that speaks moontable on it), a device that breaks
the protocol, a bad database or bad arguments; 3 done but a game was
quarantined."""

import argparse
import sys

from moontable import db as dbmod
from moontable.commands._output import print_json
from moontable.serial_link import (BadReply, DeviceError, Link, LinkError, PortError, check_timeout, choose_port,
                              port_listing)
from moontable.sync import Progress, clock_text, sync

HELP = "sync games from the device (USB serial) into the database; push roster and clock"


def _timeout(text):
    """argparse type for --timeout: a usage error (exit 2) unless finite and > 0."""
    try:
        return check_timeout(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def add_arguments(parser):
    parser.epilog = ("exit status: 0 done; 1 the link failed or the device refused a request (run it again to "
                     "resume); 2 no usable port, a device that breaks the protocol, a bad database or bad "
                     "arguments; 3 done, but a game was quarantined")
    parser.add_argument("--port", help="serial port of the device (default: find it by its USB ids)")
    parser.add_argument("--list", action="store_true",
                        help="list the serial ports with their USB ids and which look like a moontable board; "
                             "sync nothing")
    dbmod.add_db_argument(parser)
    parser.add_argument("--all", action="store_true",
                        help="also re-check games the device already counts as synced")
    parser.add_argument("--no-roster", action="store_true", help="do not push the roster")
    parser.add_argument("--no-clock", action="store_true", help="do not set the device's clock")
    parser.add_argument("--timeout", type=_timeout, default=2.0,
                        help="seconds to wait for each reply before sending again (default 2; more than 0, finite)")
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
        "roster_refused": res.roster_refused,
        "clock": res.clock,
        "clocks": res.clocks,
        "unfinished": [{"game": g, "note": m} for g, m in res.unfinished],
    }


def _list_ports(args):
    rows = port_listing()
    if args.json:
        print_json(rows, indent=1)
        return 0
    if not rows:
        print("no serial ports found. Plug the board in; the simulator prints its own pty path when it starts.")
        return 0
    width = max(len(r["port"]) for r in rows)
    for r in rows:
        ids = r["usb"] or "no USB ids"
        mark = "moontable-capable: %s" % r["board"] if r["board"] else "not a known board"
        desc = " (%s)" % r["description"] if r["description"] and r["description"] != "n/a" else ""
        print("%-*s  %-10s  %s%s" % (width, r["port"], ids, mark, desc))
    boards = [r for r in rows if r["board"]]
    if len(boards) == 1:
        print("`moontable sync` will use %s." % boards[0]["port"])
    elif boards:
        print("several candidates: name one with --port.")
    else:
        print("none looks like a board: name the port with --port if you know it.")
    return 0


def _print_outcome(res):
    if res.clock is not None:
        print("clock set: %s" % clock_text(res.clock))
    if res.roster is not None:
        print("roster sent: %s" % (", ".join(res.roster) if res.roster else "(empty)"))
    for gid, msg in res.stored:
        print(msg)
    for gid, msg in res.quarantined:
        if (gid, msg) not in res.stored:  # a game kept up to a refused line: said once, above
            print(msg)
    for gid, msg in res.unfinished:
        print(msg)
    for gid, msg in res.problems:
        print("%s: %s" % (gid, msg))
    for w in res.warnings:
        print("warning: %s" % w)
    print(res.summary())


def _failure(e):
    """(exit status, the one line to print) for an error that ends a sync."""
    if isinstance(e, PortError):
        return 2, str(e)
    if isinstance(e, BadReply):
        return 2, "%s. Nothing received so far is lost." % e
    if isinstance(e, LinkError):
        return 1, "%s\nNothing received so far is lost: run `moontable sync` again to resume." % e
    return 1, "the device refused a request: %s" % e


def run(args):
    if args.list:
        return _list_ports(args)
    try:
        port = choose_port(args.port)
    except LinkError as e:
        print("moontable sync: %s" % e, file=sys.stderr)
        return 2
    # The port and the device first: a wrong port must not create a database file.
    try:
        link = Link.open(port, timeout=args.timeout)
    except LinkError as e:
        status, text = _failure(e)
        print("moontable sync: %s" % text, file=sys.stderr)
        return status
    bar = BarProgress(not args.quiet and not args.json and sys.stderr.isatty())
    database = None
    try:
        with link:
            hello = link.hello()
            try:
                database = dbmod.open_for(args)
            except dbmod.DbError as e:
                print("moontable sync: %s" % e, file=sys.stderr)
                return 2
            res = sync(link, database, progress=bar, roster=not args.no_roster, clock=not args.no_clock,
                       all_games=args.all, hello=hello)
    except (LinkError, BadReply, DeviceError) as e:
        bar.close()
        status, text = _failure(e)
        print("moontable sync: %s" % text, file=sys.stderr)
        return status
    finally:
        if database is not None:
            database.close()
    bar.close()
    if args.json:
        print_json(_as_json(res))
    else:
        _print_outcome(res)
    return 3 if res.quarantined else 0
