"""Display benchmark: frame render time and I2C load of the countdown.

    .venv/bin/python bench/display.py

Runs itself twice: under CPython (driver over adafruit_framebuf, traffic fed
to the SSD1306 emulator) and under `micropython -X heapsize=64K` (driver over
the builtin framebuf, traffic counted by a stand-in for machine.I2C). Both
print the same figures; the CPython run prints the table.

Render time: draw a countdown screen (big seven-segment digits from the
firmware's ui.bigdigits module, two lines of 8x8 text) and show() it, with the digits different every frame,
so every show() sends something. Times are for this PC, not a Pico; use them
to compare, not as board figures.

Bus load: a 60 s countdown with the main loop at 10 iterations per second,
each iteration redrawing the whole screen and calling show(), the digits
changing once a second. Bits on the wire count 9 per byte (8 + ACK) plus 11
per transaction (START, address byte + ACK, STOP), against a 400 kHz bus
(400,000 bit/s). Target: at most 10 %.
"""

import sys

IS_MP = sys.implementation.name == "micropython"

BUS_HZ = 400000
LOOP_HZ = 10
SECONDS = 60
TRANSACTION_BITS = 11
BYTE_BITS = 9

def clock(seconds):
    return "%d:%02d" % (seconds // 60, seconds % 60)


def compact_screen(disp, seconds):
    """The app's bidding screen shape: M:SS in 32 px big digits (the
    firmware's own ui.bigdigits module, 4 pages) between two lines of text."""
    from ui import bigdigits

    disp.fill(0)
    disp.text("BID 7 P3", 0, 0, 1)
    bigdigits.draw(disp, clock(seconds), 14, 16, 32)
    disp.text("MOONSTAR", 0, 56, 1)


def wide_screen(disp, seconds):
    """The worst case for a big-digit clock: M:SS in 56 px digits spanning
    the full width (123 px, pages 1..7) under a line of text."""
    from ui import bigdigits

    disp.fill(0)
    disp.text("BID 7 P3", 0, 0, 1)
    bigdigits.draw(disp, clock(seconds), 2, 8, 56)


class CountingI2C:
    """machine.I2C's method names; counts write transactions and bytes, and
    passes each one on to `sink(addr, data)` if given."""

    def __init__(self, sink=None):
        self.sink = sink
        self.transactions = 0
        self.bytes = 0

    def writeto(self, addr, buf, stop=True):
        self.transactions += 1
        self.bytes += len(buf)
        if self.sink is not None:
            self.sink(addr, bytes(buf))
        return len(buf)

    def readfrom_into(self, addr, buf, stop=True):
        self.transactions += 1

    def scan(self):
        return [0x3C]

    def bits(self):
        return BYTE_BITS * self.bytes + TRANSACTION_BITS * self.transactions

    def reset(self):
        self.transactions = 0
        self.bytes = 0


if IS_MP:
    import time

    def now_us():
        return time.ticks_us()

    def elapsed_us(start):
        return time.ticks_diff(time.ticks_us(), start)

else:
    import time

    def now_us():
        return time.perf_counter()

    def elapsed_us(start):
        return (time.perf_counter() - start) * 1e6


def render_time(disp, screen, frames):
    """Mean microseconds to draw a screen, to show() it, and to show() it unchanged."""
    draw_total = show_total = same_total = 0
    for i in range(frames):
        start = now_us()
        screen(disp, 59 - (i % 60))
        draw_total += elapsed_us(start)
        start = now_us()
        disp.show()
        show_total += elapsed_us(start)
        start = now_us()
        disp.show()
        same_total += elapsed_us(start)
    return draw_total / frames, show_total / frames, same_total / frames


def countdown_load(disp, bus, screen, only_on_change=False):
    """Bits sent during a SECONDS-long countdown at LOOP_HZ iterations per
    second, and the most bits a single show() sent."""
    screen(disp, SECONDS)
    disp.show()
    bus.reset()
    shown = None
    worst = 0
    for i in range(SECONDS * LOOP_HZ):
        remaining = SECONDS - i // LOOP_HZ
        screen(disp, remaining)
        if only_on_change and remaining == shown:
            continue
        before = bus.bits()
        disp.show()
        worst = max(worst, bus.bits() - before)
        shown = remaining
    return bus.bits(), worst


def percent(bits):
    return 100.0 * bits / SECONDS / BUS_HZ


def measure(make_oled, make_stock, frames):
    """Every figure, as (key, value) pairs. Render times use a bus that only
    counts; the loads run with the emulator behind the bus where there is one."""
    out = []
    for name, screen in (("compact", compact_screen), ("wide", wide_screen)):
        disp, bus = make_oled(False)
        draw, show, same = render_time(disp, screen, frames)
        out.append(("render_%s_draw_us" % name, draw))
        out.append(("render_%s_show_us" % name, show))
        out.append(("render_%s_show_unchanged_us" % name, same))
        total = 0
        for _ in range(frames):
            disp.invalidate()
            start = now_us()
            disp.show()
            total += elapsed_us(start)
        out.append(("render_%s_show_full_us" % name, total / frames))
        for kind, make, on_change in (("oled", make_oled, False), ("stock", make_stock, False),
                                      ("stock_on_change", make_stock, True)):
            disp, bus = make(True)
            bits, worst = countdown_load(disp, bus, screen, on_change)
            out.append(("load_%s_%s_bits" % (name, kind), bits))
            out.append(("load_%s_%s_worst_show_bits" % (name, kind), worst))
    return out


def mp_main():
    import gc

    from adafruit_ssd1306 import SSD1306_I2C
    from i2c_adapter import BusioI2C
    from oled import Oled

    def make_oled(_emulate):
        bus = CountingI2C()
        return Oled(BusioI2C(bus)), bus

    def make_stock(_emulate):
        bus = CountingI2C()
        return SSD1306_I2C(128, 64, BusioI2C(bus)), bus

    for key, value in measure(make_oled, make_stock, 200):
        print("%s %d" % (key, value))
        gc.collect()
    print("heap_free_bytes %d" % gc.mem_free())


def cpython_main():
    import os
    import random
    import subprocess
    import tempfile

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, os.path.join(root, "firmware"))
    sys.path.insert(0, root)
    import adafruit_ssd1306
    from i2c_adapter import BusioI2C
    from oled import Oled

    from moontable.sim.ssd1306_emu import Ssd1306Emulator

    # adafruit_framebuf (CPython) reads glyphs from font5x8.bin, which the
    # package does not ship: write a stand-in so text() draws something.
    workdir = tempfile.mkdtemp(prefix="moontable-bench-")
    rng = random.Random(5)
    font = bytearray([5, 8])
    for code in range(256):
        font += bytes(5) if code == 32 else bytes(rng.randrange(1, 256) for _ in range(5))
    with open(os.path.join(workdir, "font5x8.bin"), "wb") as handle:
        handle.write(font)
    os.chdir(workdir)

    emus = []

    def wires(emulate):
        if not emulate:
            return CountingI2C(), None
        emu = Ssd1306Emulator()
        return CountingI2C(emu.write), emu

    def make_oled(emulate):
        bus, emu = wires(emulate)
        disp = Oled(BusioI2C(bus))
        if emu:
            emus.append((emu, disp))
        return disp, bus

    def make_stock(emulate):
        bus, emu = wires(emulate)
        disp = adafruit_ssd1306.SSD1306_I2C(128, 64, BusioI2C(bus))
        if emu:
            emus.append((emu, disp))
        return disp, bus

    cpy = dict(measure(make_oled, make_stock, 20))
    # Every emulated panel decoded cleanly and shows what its driver drew last.
    assert len(emus) == 6
    for emu, disp in emus:
        assert emu.unknown_count == 0 and emu.problem_count == 0
        assert emu.vlsb() == bytes(disp.buffer[1:]), "emulated panel differs from the frame buffer"

    mp_bin = os.path.join(os.path.dirname(sys.executable), "micropython")
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join(
        [os.path.join(root, "firmware"), os.path.dirname(os.path.abspath(adafruit_ssd1306.__file__)), ".frozen"]
    )
    proc = subprocess.run(
        [mp_bin, "-X", "heapsize=64K", os.path.abspath(__file__)],
        env=env, capture_output=True, text=True, timeout=600,
    )
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        raise SystemExit("micropython run failed")
    mpy = {}
    for line in proc.stdout.splitlines():
        key, _, value = line.partition(" ")
        mpy[key] = int(value)

    print("Frame render time (mean, microseconds; this PC, not a board)")
    print("%-34s %12s %12s" % ("", "CPython", "MicroPython"))
    for name in ("compact", "wide"):
        for part, label in (("draw", "draw screen"), ("show", "show() digits changed"),
                            ("show_unchanged", "show() unchanged"), ("show_full", "show() full frame")):
            key = "render_%s_%s_us" % (name, part)
            print("%-34s %12.0f %12d" % ("%s: %s" % (name, label), cpy[key], mpy[key]))
    print()
    print("I2C load, %d s countdown, %d loop iterations/s, digits change each second" % (SECONDS, LOOP_HZ))
    print("(9 bits/byte incl. ACK + %d bits/transaction, %d bit/s bus; target <= 10%%)" % (TRANSACTION_BITS, BUS_HZ))
    print("%-44s %10s %8s %10s %8s" % ("", "CPy bit/s", "CPy %", "MPy bit/s", "MPy %"))
    rows = (("oled", "Oled partial show() every iteration"),
            ("stock", "stock driver show() every iteration"),
            ("stock_on_change", "stock driver, show() only on change"))
    for name in ("compact", "wide"):
        for kind, label in rows:
            key = "load_%s_%s_bits" % (name, kind)
            print("%-44s %10.0f %7.2f%% %10.0f %7.2f%%" % (
                "%s: %s" % (name, label), cpy[key] / SECONDS, percent(cpy[key]), mpy[key] / SECONDS, percent(mpy[key])))
    print()
    print("Bus time of the largest single show() at 400 kHz (how long the bus is held):")
    for name in ("compact", "wide"):
        for kind, label in rows[:2]:
            key = "load_%s_%s_worst_show_bits" % (name, kind)
            print("  %-44s %6d bits = %6.2f ms" % ("%s: %s" % (name, label), mpy[key], mpy[key] * 1000.0 / BUS_HZ))
    print()
    print("MicroPython heap free after the run (64K heap): %d bytes" % mpy["heap_free_bytes"])
    worst = max(percent(cpy["load_compact_oled_bits"]), percent(cpy["load_wide_oled_bits"]),
                percent(mpy["load_compact_oled_bits"]), percent(mpy["load_wide_oled_bits"]))
    print("Worst Oled load: %.2f%% of the bus (%s the 10%% target)" % (worst, "within" if worst <= 10 else "OVER"))


if IS_MP:
    mp_main()
elif __name__ == "__main__":
    cpython_main()
