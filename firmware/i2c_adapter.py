"""A busio-style I2C object over MicroPython's `machine.I2C`.

The pinned display driver (adafruit_ssd1306) talks to the bus through
`adafruit_bus_device.i2c_device.I2CDevice`, which expects CircuitPython's
`busio.I2C`: a lock (`try_lock`/`unlock`) and `start`/`end` slice arguments
on every transfer. `machine.I2C` has neither, so this thin adapter supplies
them. It wraps anything with machine.I2C's method names (`writeto`,
`readfrom_into`, `scan`), which is also what the simulator's virtual bus
provides, so the same driver stack runs on a Pico, an ESP32 and the desktop.

Slices are passed as memoryviews so a partial write of the 1 KB frame
buffer never copies it; whole-buffer transfers pass the buffer unchanged.
"""


class BusioI2C:
    """busio.I2C's interface on top of a machine.I2C-like object.

    The lock is a plain flag: MicroPython's main loop is single-threaded, and
    the lock exists so that I2CDevice's protocol (lock, transfer, unlock) is
    honoured and misuse (a transfer without the lock) fails loudly instead of
    interleaving two devices' transactions.
    """

    def __init__(self, machine_i2c):
        for name in ("writeto", "readfrom_into", "scan"):
            if not hasattr(machine_i2c, name):
                raise TypeError("BusioI2C needs a machine.I2C-like object with %s()" % name)
        self._i2c = machine_i2c
        self._locked = False

    # -- locking, as busio.I2C ------------------------------------------
    def try_lock(self):
        """Take the bus; False if it is already taken."""
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        """Release the bus (harmless if it was not taken)."""
        self._locked = False

    def deinit(self):
        """busio compatibility: nothing to free, the machine.I2C stays usable."""
        self._locked = False

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.deinit()
        return False

    def _check_lock(self):
        if not self._locked:
            raise RuntimeError("BusioI2C: take the bus with try_lock() before a transfer")

    # -- transfers ---------------------------------------------------------
    def scan(self):
        """Addresses that ACK, as a list (busio returns a list)."""
        self._check_lock()
        return list(self._i2c.scan())

    def writeto(self, address, buffer, *, start=0, end=None):
        """Write buffer[start:end] to `address` in one transaction, then STOP."""
        self._check_lock()
        self._i2c.writeto(address, _window(buffer, start, end))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        """Read len(buffer[start:end]) bytes from `address` into that slice."""
        self._check_lock()
        self._i2c.readfrom_into(address, _window(buffer, start, end))

    def writeto_then_readfrom(
        self, address, buffer_out, buffer_in, *, out_start=0, out_end=None, in_start=0, in_end=None
    ):
        """Write, then read with a repeated START (no STOP in between)."""
        self._check_lock()
        self._i2c.writeto(address, _window(buffer_out, out_start, out_end), False)
        self._i2c.readfrom_into(address, _window(buffer_in, in_start, in_end))


def _window(buffer, start, end):
    """buffer[start:end] without copying (the buffer itself when it is whole)."""
    size = len(buffer)
    if end is None:
        end = size
    if start < 0 or end > size or start > end:
        raise ValueError("BusioI2C: slice %d:%d is outside a %d-byte buffer" % (start, end, size))
    if start == 0 and end == size:
        return buffer
    return memoryview(buffer)[start:end]
