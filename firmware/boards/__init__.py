"""Board selection: the one place that knows which hardware module to load.

`/board.json` (a copy of hardware/boards/<board>.json made at deploy time)
names the board; `boards/<board>.py` holds every line of hardware code for
it. The app only ever sees the Board object that module's `setup()` returns:

    display        an Oled (adafruit_ssd1306 subclass, framebuf drawing)
    buttons        .read() -> bit mask of pressed buttons (UP=1 DOWN=2 OK=4 BACK=8)
    buzzer         .tone(freq) / .off()
    ticks_ms()     monotonic ms clock in MicroPython ticks space
    idle(ms)       wait for up to ms between main-loop passes
    storage_root   folder for the journal, roster and settings
    read_byte()    one byte from the USB serial link, or None when none waits
    write(bytes)   raw bytes to the USB serial link
    random32()     a 32-bit seed for device-rolled set-ups
    info           {"board": name, "id": unique id}

Keeping that surface small is what lets the same app run on a Pico, an
ESP32 and the desktop simulator unchanged.
"""

# Mask bits for the four buttons, in the order of the pin map's keys.
BUTTON_NAMES = ("up", "down", "ok", "back")


def load_config(path="board.json"):
    """The pin map as a dict. Read relative to the current folder, which is
    the flash root on a board and the flash folder in the simulator."""
    import json

    with open(path) as f:
        return json.load(f)


def setup(cfg=None):
    """Build the Board for this device from its pin map."""
    if cfg is None:
        cfg = load_config()
    name = cfg.get("board")
    if not name:
        raise ValueError("board.json has no \"board\" key naming boards/<board>.py")
    module = __import__("boards." + name)
    module = getattr(module, name)
    return module.setup(cfg)


class StdioSerial:
    """The USB serial link as MicroPython exposes it: stdin/stdout, which
    also carry the REPL. Reads never block (poll, then one byte); writes
    go out as raw bytes. Shared by every board whose console is stdio."""

    def __init__(self):
        import select
        import sys

        self._in = getattr(sys.stdin, "buffer", sys.stdin)
        self._out = getattr(sys.stdout, "buffer", sys.stdout)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

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


class PinButtons:
    """Four buttons wired to GND with pull-ups: a pin reads 0 when pressed
    (buttons_active in the pin map), which read() turns into mask bits."""

    def __init__(self, pins, active=0):
        self.pins = pins  # in BUTTON_NAMES order
        self.active = active

    def read(self):
        mask = 0
        bit = 1
        for p in self.pins:
            if p.value() == self.active:
                mask |= bit
            bit <<= 1
        return mask


def make_pin_buttons(machine, cfg):
    """PinButtons from the pin map, with the internal pull-ups enabled."""
    pins = []
    pull = machine.Pin.PULL_UP if cfg.get("buttons_pull", "up") == "up" else machine.Pin.PULL_DOWN
    for name in BUTTON_NAMES:
        pins.append(machine.Pin(cfg["buttons"][name], machine.Pin.IN, pull))
    return PinButtons(pins, cfg.get("buttons_active", 0))


class PwmBuzzer:
    """A passive piezo on a PWM pin: tone(freq) at 50% duty, off() silent."""

    def __init__(self, machine, cfg):
        self._pwm = machine.PWM(machine.Pin(cfg["buzzer"]["pin"]))
        self._pwm.duty_u16(0)
        self.freq = cfg["buzzer"].get("freq", 2700)

    def tone(self, freq=None):
        self._pwm.freq(freq or self.freq)
        self._pwm.duty_u16(32768)

    def off(self):
        self._pwm.duty_u16(0)


def make_display(machine, cfg):
    """The OLED over machine.I2C through the busio-style adapter."""
    from i2c_adapter import BusioI2C
    from oled import Oled

    c = cfg["i2c"]
    bus = machine.I2C(c["id"], sda=machine.Pin(c["sda"]), scl=machine.Pin(c["scl"]), freq=c.get("freq", 400000))
    d = cfg.get("display", {})
    return Oled(BusioI2C(bus), d.get("width", 128), d.get("height", 64), c.get("addr", 0x3C))


class MachineBoard:
    """A real MicroPython board driven through `machine`: the Pico and the
    ESP32 differ only in their pin maps, so they share this class."""

    def __init__(self, cfg, storage_root="/data"):
        import machine

        self.cfg = cfg
        self.buttons = make_pin_buttons(machine, cfg)
        self.buzzer = PwmBuzzer(machine, cfg)
        self.display = make_display(machine, cfg)
        self.storage_root = storage_root
        serial = StdioSerial()
        self.read_byte = serial.read_byte
        self.write = serial.write
        import binascii

        self.info = {"board": cfg.get("board", "?"), "id": binascii.hexlify(machine.unique_id()).decode()}

    def ticks_ms(self):
        import time

        return time.ticks_ms()

    def idle(self, ms):
        import time

        time.sleep_ms(ms)

    def random32(self):
        import os

        return int.from_bytes(os.urandom(4), "big")
