"""The simulated board's hardware, as seen from the firmware: the I2C bus,
the buttons, the buzzer and the virtual clock all travel over one link to
a PC process (host/sim/board_link.py). Two boards use it: `sim` (the unix
port, the link is a pipe pair) and `wasm` (the WebAssembly port, the link
is reached through the host's `wasmhost` module). Each gives a Link with
`read(n)` (exact, blocking) and `send(data)`.

Wire format, binary, one message after another:

  board -> PC   b"H"                        hello; the PC answers with "T"
                b"W" addr len(2) data       one I2C write transaction
                b"S"                        I2C scan; the PC answers "s"
                b"R" addr n                 I2C read of n bytes; answered "r"
                b"Z" on freq(2)             buzzer on (freq Hz) or off
                b"I" ms(2)                  idle (virtual clock only): the
                                            loop pass is over, PC answers "T"
  PC -> board   b"T" ticks(4) mask          virtual time and button levels
                b"K" mask                   button levels changed (live); bits
                                            4-7: buttons let go after a whole
                                            press (a tap), since the last "K"
                b"s" n addr*n               scan answer
                b"r" n data                 read answer

All integers are big-endian. With a virtual clock the board's clock is the
PC's: time moves only when the PC answers an idle, which keeps test runs
deterministic (lockstep). Otherwise the clock is time.ticks_ms() and
button changes arrive whenever the keyboard produces them.
"""

import os
import struct
import time

from i2c_adapter import BusioI2C
from oled import Oled
from shared_rules.util import Rng


class Link:
    """Message parsing over a transport's read(n)/send(data); keeps the
    button levels and the virtual time the PC last sent."""

    def __init__(self, virtual):
        self.virtual = virtual
        self.mask = 0
        self.taps = 0  # "K"'s tap bits not yet read (SimButtons.read)
        self.now = 0

    def read(self, n):
        raise NotImplementedError

    def send(self, data):
        raise NotImplementedError

    def read_message(self):
        """Read one PC message; keep levels/time, return (kind, payload)."""
        kind = self.read(1)
        if not kind:
            raise OSError(32, "simulator link closed")
        if kind == b"T":
            b = self.read(5)
            self.now = struct.unpack(">I", b[:4])[0]
            self.mask = b[4]
            return kind, None
        if kind == b"K":
            b = self.read(1)[0]
            self.mask = b & 15
            self.taps |= b >> 4
            return kind, None
        if kind in (b"s", b"r"):
            n = self.read(1)[0]
            return kind, self.read(n) if n else b""
        raise OSError(22, "simulator link: unknown message %r" % kind)

    def wait_for(self, want):
        while True:
            kind, payload = self.read_message()
            if kind == want:
                return payload


class SimI2C:
    """machine.I2C's surface (writeto, readfrom_into, scan) over the link."""

    def __init__(self, link):
        self.link = link

    def writeto(self, addr, buf, stop=True):
        # One send a message: a Ctrl-C (KeyboardInterrupt) between two
        # sends would leave the PC a header without its data, and the link
        # out of step for good (a pipe write of one frame is all or nothing).
        n = len(buf)
        self.link.send(struct.pack(">BBH", 0x57, addr, n) + buf)  # "W"
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
    """The levels the PC last sent, and in bits 4-7 the taps it sent since
    the last read, as the Pico's pin interrupt latches them
    (boards/machine_board.py PinButtons): a busy PC may run this process
    only after both edges of a tap are in its pipe, 1 ms apart on its
    clock, which the debounce alone would not count."""

    def __init__(self, link):
        self.link = link

    def read(self):
        link = self.link
        taps = link.taps
        link.taps = 0
        return link.mask | taps << 4


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


class WireBoard:
    """The Board surface (see boards/__init__.py) over a Link: says hello,
    waits for the PC's clock, then builds the display (the pinned
    adafruit_ssd1306 over the busio adapter, as on a Pico), buttons and
    buzzer. `serial` is the USB serial link (StdioSerial); `storage_root`
    the data folder."""

    def __init__(self, cfg, link, serial, info, seed, storage_root):
        self.link = link
        link.send(b"H")
        link.wait_for(b"T")
        self.cfg = cfg
        self.buttons = SimButtons(link)
        self.buzzer = SimBuzzer(link, cfg)
        c = cfg["i2c"]
        d = cfg.get("display", {})
        self.display = Oled(BusioI2C(SimI2C(link)), d.get("width", 128), d.get("height", 64), c.get("addr", 0x3C))
        self.read_byte = serial.read_byte
        self.write = serial.write
        self.storage_root = storage_root
        self.info = info
        self._rng = None
        if seed:
            self._rng = Rng(seed)

    def ticks_ms(self):
        if self.link.virtual:
            return self.link.now
        return time.ticks_ms()

    def idle(self, ms):
        # A whole loop pass (app.LOOP_MS) whatever the app asks: this
        # board's sleep does not end at a button's edge (a longer one would
        # miss a press), and its passes take no virtual time (a shorter one
        # would stop the minute while a check runs in slices).
        ms = 20
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
