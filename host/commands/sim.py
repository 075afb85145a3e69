"""`moontable sim`: run the device firmware on the desktop, on a virtual
board (see host/sim/run.py), with the keyboard as buttons and a pty as its
USB serial port."""

HELP = "run the device firmware in a virtual board (terminal display, keyboard buttons, pty serial port)"


def add_arguments(parser):
    parser.add_argument("--flash", help="folder that stands in for the board's flash (default: ~/.local/share/moontable/sim-flash)")
    parser.add_argument("--fresh", action="store_true", help="erase the virtual board's data (games, roster, settings) first")
    parser.add_argument("--seed", type=int, default=0, help="make the device's dice rolls repeatable with this seed")
    parser.add_argument("--heap", default=None, help="MicroPython heap size, e.g. 256K")
    parser.add_argument("--headless", action="store_true",
                        help="no panel and no keyboard: print the serial port and serve it until interrupted "
                             "(for mpremote, moontable flash/sync and scripts)")
    parser.add_argument("--snapshot", nargs="*", metavar="BUTTON",
                        help="headless: boot, press these buttons (up/down/ok/back), print the screen and exit")


def run(args):
    from host.sim import run as sim_run
    from host.sim.board_link import HEAP

    heap = args.heap or HEAP
    if args.snapshot is not None:
        from host.sim.board_link import deploy

        flash = args.flash
        if flash is None:
            flash = str(sim_run.default_flash())
        deploy(flash)
        bad = [b for b in args.snapshot if b not in ("up", "down", "ok", "back")]
        if bad:
            print("moontable sim: unknown button %s (use up, down, ok, back)" % ", ".join(bad))
            return 2
        return sim_run.snapshot(flash, args.seed or 1, args.snapshot)
    return sim_run.run_live(args.flash, args.seed, heap, args.fresh, headless=args.headless)
