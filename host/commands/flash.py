"""`moontable flash [--port PORT] [--board pico|esp32|sim] [--romfs] [--dry-run]`:
compile the app to .mpy and deploy it to a MicroPython board over USB
serial (see docs/deploy.md and host/deploy.py for what and why); with
--romfs, as one ROMFS image where the board's firmware has a partition."""

import json
import sys

from moontable.deploy import BOARDS, DeployError, deploy

HELP = "compile the app to .mpy and copy what changed to a MicroPython board, verify it, and restart it"


def add_arguments(parser):
    parser.add_argument("--port", help="serial port of the board (default: find it by its USB ids; "
                        "the simulator prints its pty path)")
    parser.add_argument("--board", choices=BOARDS,
                        help="which pin map to install (default: from the board's sys.platform: "
                        "rp2 -> pico, esp32 -> esp32, the unix port -> sim)")
    parser.add_argument("--romfs", action="store_true",
                        help="put the compiled app in the board's ROMFS partition (MicroPython 1.25+ firmware that "
                        "has one), keeping its code out of RAM; other boards get files as without it")
    parser.add_argument("--dry-run", action="store_true",
                        help="list what would be sent and removed (with --romfs: the image size against the "
                        "partition); change nothing")
    parser.add_argument("--no-reset", action="store_true", help="leave the board at the REPL afterwards")
    parser.add_argument("--json", action="store_true", help="print the outcome as one JSON object")


def run(args):
    out = sys.stderr if args.json else sys.stdout

    def log(msg):
        print(msg, file=out, flush=True)

    try:
        summary = deploy(port=args.port, board=args.board, dry_run=args.dry_run, log=log,
                         reset=not args.no_reset, romfs=args.romfs)
    except DeployError as e:
        print("moontable flash: %s" % e, file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    return 0
