"""The pin-level code the Pico and the ESP32 share: four buttons to GND with
pull-ups, a PWM piezo and the OLED over machine.I2C, all from the pin map."""

# Mask bits for the four buttons, in the order of the pin map's keys.
BUTTON_NAMES = ("up", "down", "ok", "back")


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
        from boards import StdioSerial

        serial = StdioSerial()
        self.read_byte = serial.read_byte
        self.write = serial.write
        self.idle = serial.wait  # sleeps between passes, wakes on a byte from the PC
        import binascii

        self.info = {"board": cfg.get("board", "?"), "id": binascii.hexlify(machine.unique_id()).decode()}

    def ticks_ms(self):
        import time

        return time.ticks_ms()

    def random32(self):
        import os

        return int.from_bytes(os.urandom(4), "big")
