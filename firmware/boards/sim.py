"""The virtual board: the firmware runs under the micropython unix port and
its hardware lives in a PC process (host/sim/board_link.py) at the other end
of a pipe pair whose fds are given in $MOONSIM_FDS ("read,write").

Wire format, binary, one message after another:

  board -> PC   b"H"                        hello; the PC answers with "T"
                b"W" addr len(2) data       one I2C write transaction
                b"S"                        I2C scan; the PC answers "s"
                b"R" addr n                 I2C read of n bytes; answered "r"
                b"Z" on freq(2)             buzzer on (freq Hz) or off
                b"I" ms(2)                  idle (virtual clock only): the
                                            loop pass is over, PC answers "T"
  PC -> board   b"T" ticks(4) mask          virtual time and button levels
                b"K" mask                   button levels changed (live)
                b"s" n addr*n               scan answer
                b"r" n data                 read answer

All integers are big-endian. With $MOONSIM_CLOCK=virtual the board's clock
is the PC's: time moves only when the PC answers an idle, which keeps test
runs deterministic (lockstep). Otherwise the clock is time.ticks_ms() and
button changes arrive whenever the keyboard produces them.

The USB serial link is the process's stdin/stdout, exactly like a board's
console, so the REPL, mpremote and the sync protocol all share it.
"""

import os
import select
import struct
import time

from boards import StdioSerial


class Link:
    """The pipe pair to the PC. Reads are exact (the unix port's FileIO
    read(n) blocks until n bytes arrive)."""

    def __init__(self, rfd, wfd, virtual):
        self.r = open("/dev/fd/%d" % rfd, "rb")
        self.w = open("/dev/fd/%d" % wfd, "wb")
        self.virtual = virtual
        self.poller = select.poll()
        self.poller.register(self.r, select.POLLIN)
        self.mask = 0
        self.now = 0
        self._answer = None

    def send(self, data):
        self.w.write(data)

    def _read_message(self):
        """Read one PC message; keep levels/time, return (kind, payload)."""
        kind = self.r.read(1)
        if not kind:
            raise OSError(32, "simulator link closed")
        if kind == b"T":
            b = self.r.read(5)
            self.now = struct.unpack(">I", b[:4])[0]
            self.mask = b[4]
            return kind, None
        if kind == b"K":
            self.mask = self.r.read(1)[0]
            return kind, None
        if kind in (b"s", b"r"):
            n = self.r.read(1)[0]
            return kind, self.r.read(n) if n else b""
        raise OSError(22, "simulator link: unknown message %r" % kind)

    def wait_for(self, want):
        while True:
            kind, payload = self._read_message()
            if kind == want:
                return payload

    def wake_on(self, stream):
        """Live mode: let pump() return early when `stream` (the USB serial
        link) has a byte, as a board's idle does."""
        self.poller.register(stream, select.POLLIN)

    def pump(self, timeout_ms):
        """Live mode: take whatever the PC sent, waiting up to timeout_ms
        (less when a serial byte arrives)."""
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
                self._read_message()
            elif timeout_ms == 0:
                return
            timeout_ms = 0


class SimI2C:
    """machine.I2C's surface (writeto, readfrom_into, scan) over the link."""

    def __init__(self, link):
        self.link = link

    def writeto(self, addr, buf, stop=True):
        n = len(buf)
        self.link.send(struct.pack(">BBH", 0x57, addr, n))  # "W"
        self.link.send(buf)
        return n

    def writevto(self, addr, bufs, stop=True):
        data = b"".join(bytes(b) for b in bufs)
        return self.writeto(addr, data, stop)

    def readfrom_into(self, addr, buf, stop=True):
        self.link.send(struct.pack(">BBB", 0x52, addr, len(buf)))  # "R"
        data = self.link.wait_for(b"r")
        if len(data) < len(buf):
            raise OSError(19, "no I2C device at 0x%02x" % addr)
        buf[:] = data[: len(buf)]

    def readfrom(self, addr, n, stop=True):
        buf = bytearray(n)
        self.readfrom_into(addr, buf)
        return bytes(buf)

    def scan(self):
        self.link.send(b"S")
        return list(self.link.wait_for(b"s"))


class SimButtons:
    def __init__(self, link):
        self.link = link

    def read(self):
        return self.link.mask


class SimBuzzer:
    def __init__(self, link, cfg):
        self.link = link
        self.freq = cfg.get("buzzer", {}).get("freq", 2700)
        self.on = False

    def tone(self, freq=None):
        self.on = True
        self.link.send(struct.pack(">BBH", 0x5A, 1, freq or self.freq))  # "Z"

    def off(self):
        if self.on:
            self.on = False
            self.link.send(struct.pack(">BBH", 0x5A, 0, 0))


class Board:
    def __init__(self, cfg):
        from i2c_adapter import BusioI2C
        from oled import Oled

        fds = (os.getenv("MOONSIM_FDS") or "").split(",")
        if len(fds) != 2:
            raise OSError(2, "the sim board needs $MOONSIM_FDS=read,write (start it with `moontable sim`)")
        virtual = os.getenv("MOONSIM_CLOCK") == "virtual"
        self.link = Link(int(fds[0]), int(fds[1]), virtual)
        self.link.send(b"H")
        self.link.wait_for(b"T")
        self.cfg = cfg
        self.buttons = SimButtons(self.link)
        self.buzzer = SimBuzzer(self.link, cfg)
        c = cfg["i2c"]
        d = cfg.get("display", {})
        self.display = Oled(BusioI2C(SimI2C(self.link)), d.get("width", 128), d.get("height", 64), c.get("addr", 0x3C))
        self.storage_root = os.getcwd() + "/data"
        serial = StdioSerial()
        self.read_byte = serial.read_byte
        self.write = serial.write
        if not virtual:
            import sys

            self.link.wake_on(sys.stdin)
        self.info = {"board": "sim", "id": os.getenv("MOONSIM_ID") or "sim-0001"}
        seed = int(os.getenv("MOONSIM_SEED") or "0")
        self._rng = None
        if seed:
            from shared_rules.util import Rng

            self._rng = Rng(seed)

    def ticks_ms(self):
        if self.link.virtual:
            return self.link.now
        return time.ticks_ms()

    def idle(self, ms):
        if self.link.virtual:
            self.link.send(struct.pack(">BH", 0x49, ms))  # "I"
            self.link.wait_for(b"T")
        else:
            self.link.pump(ms)

    def random32(self):
        if self._rng is not None:
            # Deterministic under a test's seed: the same presses give the
            # same set-ups, so a killed run can be compared with a clean one.
            return self._rng.next32()
        return int.from_bytes(os.urandom(4), "big")


def setup(cfg):
    return Board(cfg)
