"""The pin-level code the Pico and the ESP32 share: four buttons to GND with
pull-ups, a PWM piezo and the OLED over machine.I2C, all from the pin map."""

import binascii
import os
import time

from boards import StdioSerial
from buttons import DEBOUNCE_MS

# Mask bits for the four buttons, in the order of the pin map's keys.
BUTTON_NAMES = ("up", "down", "ok", "back")
IDLE_SLICE_MS = 10  # how often idle() looks whether a button woke it: under the debounce, so a PRESS is still due 20 ms after the edge


class PinButtons:
    """Four buttons wired to GND with pull-ups: a pin reads 0 when pressed
    (buttons_active in the pin map), which read() turns into mask bits.

    The app reads the buttons once per loop pass, and a pass that starts a
    game or changes screens takes hundreds of ms on a Pico, so a quick tap
    can start and end between two reads. With `ticks_ms` given, a pin
    interrupt on both edges latches such a tap: a press held steady for
    DEBOUNCE_MS (the same rule buttons.py applies to its samples) sets the
    button's tap bit, which the next read() reports in bits 4-7 (TAP_SHIFT)
    and clears; buttons.Buttons.update() turns a tap it never saw pressed
    into one short press.

    The same interrupt keeps each pin's last edge time in `since`, which
    buttons.Buttons.update() takes as the moment a level began: its debounce
    then counts from the edge, not from the pass that first saw the level,
    so a press's PRESS is due DEBOUNCE_MS after the finger, whenever the
    loop woke.

    The interrupt is a hard one where the port has them: it runs at the
    edge, even while C code holds the core (a full-frame write to the
    panel takes 25-30 ms). A soft one waits for that code to return, so
    both edges of a 30 ms tap inside such a write were stamped after it,
    too close together to count. A hard handler may not allocate: it only
    stores small ints into lists made here, and read() takes the taps with
    interrupts off (`irq_off`, `irq_on`: machine.disable_irq and
    enable_irq) so an edge between the read and the clear is not lost."""

    def __init__(self, pins, active=0, ticks_ms=None, irq_off=None, irq_on=None):
        self.pins = pins  # in BUTTON_NAMES order
        self.active = active
        self._irq_off = irq_off
        self._irq_on = irq_on
        self.taps = 0
        self.woke = False  # set by any edge since the last read(): the board's idle() ends early on it
        self.since = None
        if ticks_ms is not None:
            self._debounce = DEBOUNCE_MS
            self._ticks = ticks_ms
            self._down_at = [None, None, None, None]  # a press held at power-on started unseen: no tap
            now = ticks_ms()
            self.since = [now, now, now, now]
            # A bound method, made once here: calling a closure over this
            # many names allocates its arguments, which a hard handler may not.
            edge = self._edge
            for p in pins:
                try:
                    p.irq(edge, p.IRQ_FALLING | p.IRQ_RISING, hard=True)
                except (TypeError, ValueError):  # a port without hard pin interrupts
                    p.irq(edge, p.IRQ_FALLING | p.IRQ_RISING)

    def _edge(self, pin):
        """The pin interrupt: stamp the edge; a release after a press held
        DEBOUNCE_MS latches the button's tap. Allocates nothing."""
        self.woke = True
        since = self.since
        if since is None:  # only a board with a clock registers this handler
            return
        i = self.pins.index(pin)
        now = self._ticks()
        since[i] = now
        down_at = self._down_at
        if pin.value() == self.active:
            down_at[i] = now
        elif down_at[i] is not None:
            if (now - down_at[i]) & 0x3FFFFFFF >= self._debounce:
                self.taps |= 1 << i
            down_at[i] = None

    def read(self):
        self.woke = False
        mask = 0
        bit = 1
        for p in self.pins:
            if p.value() == self.active:
                mask |= bit
            bit <<= 1
        if self.taps:
            off, on = self._irq_off, self._irq_on
            state = off() if off is not None else None
            taps = self.taps
            self.taps = 0
            if on is not None:
                on(state)
            mask |= taps << 4
        return mask


def make_pin_buttons(machine, cfg, ticks_ms=None):
    """PinButtons from the pin map, with the internal pull-ups enabled
    (taps latched by pin interrupts when given the clock)."""
    pins = []
    pull = machine.Pin.PULL_UP if cfg.get("buttons_pull", "up") == "up" else machine.Pin.PULL_DOWN
    for name in BUTTON_NAMES:
        pins.append(machine.Pin(cfg["buttons"][name], machine.Pin.IN, pull))
    return PinButtons(pins, cfg.get("buttons_active", 0), ticks_ms, machine.disable_irq, machine.enable_irq)


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
    # here, not at the top: the tests import this module (PinButtons)
    # where the display's library is not on the path
    from i2c_adapter import BusioI2C
    from oled import Oled

    c = cfg["i2c"]
    bus = machine.I2C(c["id"], sda=machine.Pin(c["sda"]), scl=machine.Pin(c["scl"]), freq=c.get("freq", 400000))
    d = cfg.get("display", {})
    return Oled(BusioI2C(bus), d.get("width", 128), d.get("height", 64), c.get("addr", 0x3C))


class MachineBoard:
    """A real MicroPython board driven through `machine`: the Pico and the
    ESP32 differ only in their pin maps, so they share this class."""

    def __init__(self, machine, cfg, storage_root="/data"):
        # `machine` from the board's setup module (pico.py, esp32.py), as
        # the pin-level parts take it: the tests import this module where
        # there is no machine

        # Bound once: the app reads the clock several times a pass, and an
        # `import time` per call searches the flash filesystem first on a
        # board (about 4.7 ms a call on a Pico, most of an idle pass).
        self.ticks_ms = time.ticks_ms
        self.cfg = cfg
        self.buttons = make_pin_buttons(machine, cfg, self.ticks_ms)
        self.buzzer = PwmBuzzer(machine, cfg)
        self.display = make_display(machine, cfg)
        self.storage_root = storage_root
        serial = StdioSerial()
        self.read_byte = serial.read_byte
        self.write = serial.write
        self._wait = serial.wait
        self._ticks_diff = time.ticks_diff
        self.info = {"board": cfg.get("board", "?"), "id": binascii.hexlify(machine.unique_id()).decode()}

    def idle(self, ms):
        """Sleep between loop passes for up to ms: the core waits for an
        interrupt in poll(), and wakes early for a byte from the PC or an
        edge on a button pin (checked every IDLE_SLICE_MS: an interrupt
        does not end poll() itself), so a press is read at once rather
        than up to a whole sleep later."""
        buttons = self.buttons  # read() clears woke: an edge since then ends the sleep at once
        ticks = self.ticks_ms
        diff = self._ticks_diff
        start = ticks()
        left = ms
        while left > 0 and not buttons.woke:
            if self._wait(left if left < IDLE_SLICE_MS else IDLE_SLICE_MS):
                return
            left = ms - diff(ticks(), start)

    def random32(self):
        return int.from_bytes(os.urandom(4), "big")
