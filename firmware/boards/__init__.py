"""Board selection: the one place that knows which hardware module to load.

`/board.json` (a copy of hardware/boards/<board>.json made at deploy time)
names the board; `boards/<board>.py` holds every line of hardware code for
it. The app only ever sees the Board object that module's `setup()` returns:

    display        an Oled (adafruit_ssd1306 subclass, framebuf drawing)
    buttons        .read() -> bit mask of pressed buttons (UP=1 DOWN=2 OK=4 BACK=8)
    buzzer         .tone(freq) / .off()
    ticks_ms()     monotonic ms clock in MicroPython ticks space
    idle(ms)       wait for up to ms between main-loop passes; returns early
                   when a byte arrives on the serial link (a live board)
    storage_root   folder for the journal, roster and settings
    read_byte()    one byte from the USB serial link, or None when none waits
    write(bytes)   raw bytes to the USB serial link
    random32()     a 32-bit seed for device-rolled set-ups
    info           {"board": name, "id": unique id}

Keeping that surface small is what lets the same app run on a Pico, an
ESP32 and the desktop simulator unchanged. The pin-level code the Pico and
the ESP32 share is in boards/machine_board.py, so the simulator never loads
it (every module a board imports stays in its heap).
"""

import json
import select
import sys


def load_config(path="board.json"):
    """The pin map as a dict. Read relative to the current folder, which is
    the flash root on a board and the flash folder in the simulator."""
    with open(path) as f:
        return json.load(f)


def setup(cfg=None):
    """Build the Board for this device from its pin map."""
    if cfg is None:
        cfg = load_config()
    name = cfg.get("board")
    if not name:
        raise ValueError("board.json has no \"board\" key naming boards/<board>.py")
    if name == "sim":
        if sys.platform == "webassembly":
            name = "wasm"  # the same virtual board, reached through the WebAssembly host
    module = __import__("boards." + name)
    module = getattr(module, name)
    return module.setup(cfg)


class StdioSerial:
    """The USB serial link as MicroPython exposes it: stdin/stdout, which
    also carry the REPL. Reads never block (poll, then one byte); writes
    go out as raw bytes. Shared by every board whose console is stdio."""

    def __init__(self):
        self._in = getattr(sys.stdin, "buffer", sys.stdin)
        self._out = getattr(sys.stdout, "buffer", sys.stdout)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def wait(self, ms):
        """Sleep up to ms, waking as soon as a byte arrives: the main loop
        idles here, so a PC's next request is served at once rather than
        a whole loop period later (a sync is request after request).
        Returns whether a byte waits."""
        return bool(self._poll.poll(ms))

    def read_byte(self):
        if not self._poll.poll(0):
            return None
        b = self._in.read(1)
        if not b:
            return None
        return b[0]

    def write(self, data):
        self._out.write(data)
        flush = getattr(self._out, "flush", None)
        if flush is not None:
            flush()
