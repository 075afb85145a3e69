"""The virtual board: the firmware runs under the micropython unix port and
its hardware lives in a PC process (host/sim/board_link.py) at the other end
of a pipe pair whose fds are given in $MOONSIM_FDS ("read,write"). The wire
format is in boards/simwire.py. With $MOONSIM_CLOCK=virtual the board's
clock is the PC's (lockstep).

The USB serial link is the process's stdin/stdout, exactly like a board's
console, so the REPL, mpremote and the sync protocol all share it.
"""

import os
import select
import sys

from boards import StdioSerial
from boards.simwire import Link, WireBoard


class PipeLink(Link):
    """The pipe pair to the PC. Reads are exact (the unix port's FileIO
    read(n) blocks until n bytes arrive)."""

    def __init__(self, rfd, wfd, virtual):
        super().__init__(virtual)
        self.r = open("/dev/fd/%d" % rfd, "rb")
        self.w = open("/dev/fd/%d" % wfd, "wb")
        self.read = self.r.read
        self.send = self.w.write
        self.poller = select.poll()
        self.poller.register(self.r, select.POLLIN)

    def wake_on(self, stream):
        """Live mode: let pump() return early when `stream` (the USB serial
        link) has a byte, as a board's idle does."""
        self.poller.register(stream, select.POLLIN)

    def pump(self, timeout_ms):
        """Live mode: take what the PC sent, waiting up to timeout_ms (less
        when a serial byte arrives), and no more than one button message:
        each "K" then comes to SimButtons.read in a pass of its own, so two
        taps of one button that were in the pipe together (this process ran
        late on a busy PC) stay two presses."""
        r = self.r
        while True:
            ready = self.poller.poll(timeout_ms)
            if not ready:
                return
            link = False
            for ev in ready:
                if ev[0] is r:
                    link = True
                elif ev[1] & select.POLLIN:
                    timeout_ms = 0  # serial input: finish this wait now
                else:  # the serial end hung up: stop waking on it
                    self.poller.unregister(ev[0])
            if link:
                if self.read_message()[0] == b"K":
                    return
            elif timeout_ms == 0:
                return
            timeout_ms = 0


def setup(cfg):
    fds = (os.getenv("MOONSIM_FDS") or "").split(",")
    if len(fds) != 2:
        raise OSError(2, "the sim board needs $MOONSIM_FDS=read,write (start it with `moontable sim`)")
    virtual = os.getenv("MOONSIM_CLOCK") == "virtual"
    link = PipeLink(int(fds[0]), int(fds[1]), virtual)
    serial = StdioSerial()
    board = WireBoard(cfg, link, serial, {"board": "sim", "id": os.getenv("MOONSIM_ID") or "sim-0001"},
                      int(os.getenv("MOONSIM_SEED") or "0"), os.getcwd() + "/data")
    if not virtual:
        link.wake_on(sys.stdin)
    log = os.getenv("MOONSIM_DRAWLOG")
    if log:
        log_drawing(board.display, log)
    return board


def log_drawing(d, path):
    """Write every drawing call on the panel to `path`, one line each
    ("text x y c|string", "fill_rect x y w h c", ...; "show" ends a
    frame), for the layout test (tests/sim/test_layout.py), which reads
    text drawn past its box or over other drawing from it. Test-only: set
    by $MOONSIM_DRAWLOG; the calls themselves are unchanged."""
    f = open(path, "a")  # every board a test starts adds its frames

    def wrap(name):
        orig = getattr(d, name)

        def call(*args):
            a = list(args)
            if name == "text":
                f.write("text %d %d %d|%s\n" % (a[1], a[2], a[3] if len(a) > 3 else 1, a[0]))
            else:
                f.write(name + " " + " ".join([str(x) for x in a]) + "\n")
                if name == "show":
                    f.flush()
            return orig(*a)

        setattr(d, name, call)

    for name in ("text", "fill", "fill_rect", "rect", "hline", "vline", "line", "pixel", "ellipse", "show"):
        wrap(name)
