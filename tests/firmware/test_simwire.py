"""The simulated board's link (boards/simwire.py) puts each message on the
wire in one send. Ctrl-C from the PC reaches the unix port as a signal,
raised as KeyboardInterrupt at the next bytecode: between two sends it
would leave the PC an I2C header without its data, the simulator's
parser out of step for good, and the board's REPL unheard. Under
CPython: the unix port runs this code in every simulator test."""

import adafruit_bus_device.spi_device  # noqa: F401  (the real one first: oled.py stands in for it only when nothing has)

from boards.simwire import Link, SimI2C  # noqa: E402


class Recorder(Link):
    def __init__(self):
        super().__init__(False)
        self.sent = []

    def send(self, data):
        self.sent.append(bytes(data))


def test_an_i2c_write_is_one_message_in_one_send():
    link = Recorder()
    frame = bytearray(b"\x40" + bytes(range(1, 129)))
    assert SimI2C(link).writeto(0x3C, memoryview(frame)[1:]) == 128
    assert link.sent == [b"W\x3c\x00\x80" + bytes(frame[1:])]
