"""`moontable sim`: run the device firmware on the desktop, on a virtual
board (see host/sim/run.py), with the keyboard as buttons and a pty as its
USB serial port."""

import sys

HELP = "run the device firmware in a virtual board (terminal display, keyboard buttons, pty serial port)"


def add_arguments(parser):
    parser.add_argument("--flash", help="folder that stands in for the board's flash (default: sim-flash in moontable's "
                        "data folder, beside the database)")
    parser.add_argument("--fresh", action="store_true", help="erase the virtual board's data (games, roster, settings) first")
    parser.add_argument("--seed", type=int, default=0, help="make the device's dice rolls repeatable with this seed")
    parser.add_argument("--heap", default=None, help="MicroPython heap size, e.g. 256K")
    parser.add_argument("--headless", action="store_true",
                        help="no panel and no keyboard: print the serial port and serve it until interrupted "
                             "(for mpremote, moontable flash/sync and scripts)")
    parser.add_argument("--snapshot", nargs="*", metavar="BUTTON",
                        help="headless: boot, press these buttons (up/down/ok/back), print the screen and exit")
    parser.add_argument("--render", choices=("auto", "braille", "half"), default=None,
                        help="draw the panel with braille cells (64x16, fits 80x24) or half blocks (128x32); "
                             "default auto: half blocks when the terminal ($COLUMNS x $LINES) has room for them. "
                             "Also $MOONTABLE_RENDER, or `make sim RENDER=braille`")


def run(args):
    from moontable.sim import run as sim_run
    from moontable.sim.board_link import HEAP

    heap = args.heap or HEAP
    mode = args.render
    if mode is None:
        try:
            mode = sim_run.render_from_env()
        except ValueError as exc:
            print("moontable sim: %s" % exc, file=sys.stderr)
            return 2
    if mode == "auto":
        mode = None
    if args.snapshot is not None:
        from moontable.sim.board_link import deploy

        bad = [b for b in args.snapshot if b not in ("up", "down", "ok", "back")]
        if bad:
            print("moontable sim: unknown button %s (use up, down, ok, back)" % ", ".join(bad), file=sys.stderr)
            return 2
        flash = args.flash
        if flash is None:
            flash = str(sim_run.default_flash())
        deploy(flash)
        return sim_run.snapshot(flash, args.seed or 1, args.snapshot, render_mode=mode)
    return sim_run.run_live(args.flash, args.seed, heap, args.fresh, headless=args.headless, render_mode=mode)
