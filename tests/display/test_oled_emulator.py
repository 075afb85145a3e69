"""The real adafruit_ssd1306 driver (plain, and through firmware/oled.py's
partial-update Oled) over a virtual machine.I2C bus that feeds the SSD1306
emulator: what the driver draws must be what the emulated panel shows, and
partial updates must cost only what changed.

CPython's driver draws text with adafruit_framebuf, which reads glyphs from a
font5x8.bin file the pip package does not ship. The tests write a synthetic
font (any glyph bits serve: the check is that the emulator shows exactly what
the driver drew, pixel for pixel)."""

import random
import struct
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT / "firmware"))  # appended: never shadow another module

import adafruit_ssd1306  # noqa: E402
from i2c_adapter import BusioI2C  # noqa: E402
from oled import Oled  # noqa: E402

from moontable.sim import render  # noqa: E402
from moontable.sim.ssd1306_emu import HORIZONTAL, PAGE, VERTICAL, Ssd1306Emulator  # noqa: E402


# -- the wires ------------------------------------------------------------------
class VirtualI2C:
    """machine.I2C's method names over emulated devices (NACK -> OSError, as
    machine.I2C raises)."""

    def __init__(self, *devices):
        self.devices = devices
        self.fail_next_writes = 0
        self.stops = []

    def writeto(self, addr, buf, stop=True):
        self.stops.append(stop)
        if self.fail_next_writes:
            self.fail_next_writes -= 1
            raise OSError(5, "EIO")
        for dev in self.devices:
            if dev.write(addr, bytes(buf)):
                return len(buf)
        raise OSError(19, "ENODEV")

    def readfrom_into(self, addr, buf, stop=True):
        for dev in self.devices:
            got = dev.read(addr, len(buf))
            if got is not None:
                buf[:] = got
                return
        raise OSError(19, "ENODEV")

    def scan(self):
        return [dev.addr for dev in self.devices]


@pytest.fixture(autouse=True)
def font_dir(tmp_path, monkeypatch):
    """A synthetic 5x8 font file in the working directory (see module doc)."""
    data = bytearray([5, 8])
    rng = random.Random(5)
    for code in range(256):
        glyph = [0] * 5 if code == 32 else [rng.randrange(1, 256) for _ in range(5)]
        data += bytes(glyph)
    (tmp_path / "font5x8.bin").write_bytes(bytes(data))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def make(cls=Oled, width=128, height=64, **kw):
    emu = Ssd1306Emulator(width, height)
    bus = VirtualI2C(emu)
    if cls is Oled:
        disp = Oled(BusioI2C(bus), width, height, **kw)
    else:
        disp = cls(width, height, BusioI2C(bus), **kw)
    return disp, emu, bus


def frame(disp):
    return bytes(disp.buffer[1:])


def draw_seg_digit(disp, digit, x, y, w=20, h=32, t=4):
    """A seven-segment digit with fill_rect: the kind of big digit the
    countdown uses (32 px tall, 4 pages)."""
    segs = {
        0: "abcdef", 1: "bc", 2: "abged", 3: "abgcd", 4: "fgbc",
        5: "afgcd", 6: "afgedc", 7: "abc", 8: "abcdefg", 9: "abcdfg",
    }[digit]
    half = h // 2
    rects = {
        "a": (x, y, w, t), "g": (x, y + half - t // 2, w, t), "d": (x, y + h - t, w, t),
        "f": (x, y, t, half), "b": (x + w - t, y, t, half),
        "e": (x, y + half, t, half), "c": (x + w - t, y + half, t, half),
    }
    for s in segs:
        disp.fill_rect(*rects[s], 1)


def countdown_screen(disp, seconds):
    disp.fill(0)
    disp.text("BID 7 P3", 0, 0, 1)
    draw_seg_digit(disp, seconds // 60, 14, 16)
    disp.fill_rect(40, 22, 4, 4, 1)
    disp.fill_rect(40, 38, 4, 4, 1)
    draw_seg_digit(disp, (seconds % 60) // 10, 50, 16)
    draw_seg_digit(disp, seconds % 10, 76, 16)
    disp.text("MOONSTAR", 0, 56, 1)


# -- init and picture --------------------------------------------------------------
@pytest.mark.parametrize("cls", [Oled, adafruit_ssd1306.SSD1306_I2C])
def test_init_sequence_is_decoded(cls):
    disp, emu, _ = make(cls)
    assert emu.display_on and emu.powered
    assert emu.contrast == 0xFF
    assert emu.mode == HORIZONTAL
    assert emu.seg_remap and emu.com_remap
    assert emu.mux == 64 and emu.display_offset == 0 and emu.start_line == 0
    assert emu.charge_pump and emu.com_pins == 0x12 and emu.clock_divide == 0x80
    assert emu.precharge == 0xF1 and emu.vcomh == 0x30 and emu.iref == 0x30
    assert not emu.inverted and not emu.entire_on
    assert emu.unknown_count == 0 and emu.problem_count == 0
    names = [entry[0] for entry in emu.log]
    assert names[:4] == ["display", "display", "memory_mode", "start_line"]
    assert names.index("charge_pump") < len(names) - 1 - names[::-1].index("display")
    # The init ends with a full frame of zeros: RAM written everywhere.
    assert emu.data_bytes == 1024
    assert emu.vlsb() == bytes(1024)


def test_power_on_reset_state_is_dark():
    emu = Ssd1306Emulator()
    assert not emu.display_on and emu.mode == PAGE and emu.contrast == 0x7F
    assert render.to_text(emu) == "\n".join([" " * 128] * 32)


@pytest.mark.parametrize("cls", [Oled, adafruit_ssd1306.SSD1306_I2C])
def test_driver_drawing_appears_on_the_panel_exactly(cls):
    disp, emu, _ = make(cls)
    disp.text("Hello 42!", 3, 5, 1)
    disp.rect(0, 20, 128, 30, 1)
    disp.line(0, 63, 127, 40, 1)
    disp.fill_rect(60, 25, 10, 20, 1)
    disp.pixel(127, 63, 1)
    disp.show()
    assert sum(bin(b).count("1") for b in frame(disp)) > 300
    assert emu.vlsb() == frame(disp)
    assert emu.lit(127, 63) and not emu.lit(126, 62)
    assert emu.pixels[63][127] == 1


def test_random_drawing_sequences_always_match():
    rng = random.Random(2024)
    disp, emu, _ = make()
    for _ in range(150):
        for _ in range(rng.randrange(1, 4)):
            op = rng.randrange(5)
            c = rng.randrange(2)
            if op == 0:
                disp.pixel(rng.randrange(128), rng.randrange(64), c)
            elif op == 1:
                disp.fill_rect(rng.randrange(-5, 128), rng.randrange(-5, 64), rng.randrange(1, 40), rng.randrange(1, 30), c)
            elif op == 2:
                disp.text(str(rng.randrange(1000)), rng.randrange(120), rng.randrange(60), c)
            elif op == 3:
                disp.hline(rng.randrange(128), rng.randrange(64), rng.randrange(1, 128), c)
            else:
                disp.vline(rng.randrange(128), rng.randrange(64), rng.randrange(1, 64), c)
        disp.show()
        assert emu.vlsb() == frame(disp)
    assert emu.unknown_count == 0 and emu.problem_count == 0


@pytest.mark.parametrize("size", [(128, 32), (64, 48), (96, 16)])
def test_other_panel_sizes_match(size):
    width, height = size
    disp, emu, _ = make(Oled, width, height)
    assert emu.mux == height
    disp.text("ab", 1, 2, 1)
    disp.rect(0, 0, width, height, 1)
    disp.show()
    assert emu.vlsb() == frame(disp)
    disp.fill_rect(width // 2, 0, 3, height, 1)
    disp.show()
    assert emu.vlsb() == frame(disp)


# -- partial updates ------------------------------------------------------------------
def test_unchanged_show_sends_nothing():
    disp, emu, _ = make()
    disp.text("steady", 10, 10, 1)
    disp.show()
    emu.reset_counters()
    disp.show()
    disp.show()
    assert emu.transactions == 0 and emu.bytes == 0


def test_stock_driver_sends_a_full_frame_every_time():
    """The reason for Oled: the same unchanged show() costs a whole frame."""
    disp, emu, _ = make(adafruit_ssd1306.SSD1306_I2C)
    emu.reset_counters()
    disp.show()
    assert emu.data_bytes == 1024


def test_one_changed_page_costs_one_page_plus_a_window():
    disp, emu, _ = make()
    emu.reset_counters()
    disp.hline(0, 27, 128, 1)  # page 3, every column
    disp.show()
    assert emu.data_bytes == 128
    assert emu.command_bytes == 6  # 0x21 a b 0x22 c d
    assert emu.transactions == 2 and emu.bytes == 128 + 6 + 2
    assert emu.vlsb() == frame(disp)
    assert disp.sent_bytes == 1025 + 7 + 136  # init frame + window, then this update


def test_changed_columns_are_narrowed():
    disp, emu, _ = make()
    emu.reset_counters()
    disp.pixel(77, 9, 1)
    disp.show()
    assert emu.data_bytes == 1 and emu.transactions == 2 and emu.bytes == 9
    assert (emu.col_start, emu.col_end, emu.page_start, emu.page_end) == (77, 77, 1, 1)
    assert emu.lit(77, 9)


def test_a_run_of_pages_shares_one_window_and_wraps():
    disp, emu, _ = make()
    emu.reset_counters()
    disp.fill_rect(30, 10, 12, 30, 1)  # pages 1..4, columns 30..41
    disp.show()
    assert emu.data_bytes == 4 * 12
    assert emu.command_bytes == 6  # a single window for the whole run
    assert (emu.col_start, emu.col_end, emu.page_start, emu.page_end) == (30, 41, 1, 4)
    assert emu.vlsb() == frame(disp)


def test_separate_runs_get_separate_windows():
    disp, emu, _ = make()
    emu.reset_counters()
    disp.pixel(5, 1, 1)  # page 0
    disp.pixel(100, 60, 1)  # page 7
    disp.show()
    assert emu.command_bytes == 12 and emu.data_bytes == 2
    assert emu.vlsb() == frame(disp)


def test_countdown_tick_sends_only_the_changed_digit():
    disp, emu, _ = make()
    countdown_screen(disp, 59)
    disp.show()
    emu.reset_counters()
    countdown_screen(disp, 58)  # only the last digit changes
    disp.show()
    assert emu.vlsb() == frame(disp)
    assert 0 < emu.data_bytes <= 4 * 20  # four pages of one 20-px digit at most
    assert emu.bytes < 128
    emu.reset_counters()
    countdown_screen(disp, 50)  # 58 -> 50: two digits' worth of columns
    disp.show()
    assert emu.vlsb() == frame(disp)
    assert emu.data_bytes <= 4 * (96 - 76)
    emu.reset_counters()
    for _ in range(9):  # the rest of the second: redrawn, unchanged
        countdown_screen(disp, 50)
        disp.show()
    assert emu.bytes == 0


def test_bus_error_makes_the_next_show_resend_everything():
    disp, emu, bus = make()
    disp.text("x", 0, 0, 1)
    bus.fail_next_writes = 1
    with pytest.raises(OSError):
        disp.show()
    emu.reset_counters()
    disp.show()
    assert emu.data_bytes == 1024
    assert emu.vlsb() == frame(disp)
    emu.reset_counters()
    disp.show()
    assert emu.bytes == 0


def test_invalidate_forces_a_full_frame():
    disp, emu, _ = make()
    emu.ram[:] = bytes(1024)  # as if the module had lost its RAM
    disp.text("abc", 0, 0, 1)
    disp.show()
    disp.invalidate()
    emu.reset_counters()
    disp.show()
    assert emu.data_bytes == 1024 and emu.vlsb() == frame(disp)


def test_framebuffer_is_untouched_by_the_borrowed_control_byte():
    disp, emu, _ = make()
    disp.fill_rect(0, 0, 128, 64, 1)
    disp.show()
    disp.fill_rect(50, 8, 10, 8, 0)  # page 1, columns 50..59: byte 49 is borrowed
    before = frame(disp)
    disp.show()
    assert frame(disp) == before
    assert emu.vlsb() == before


# -- display controls ----------------------------------------------------------------
def test_invert_contrast_and_power_are_reflected():
    disp, emu, _ = make()
    disp.fill_rect(0, 0, 64, 64, 1)
    disp.show()
    assert emu.lit(0, 0) and not emu.lit(100, 0)
    disp.invert(True)
    assert emu.inverted and not emu.lit(0, 0) and emu.lit(100, 0)
    disp.invert(False)
    assert emu.lit(0, 0)
    bright = render.brightness(emu)
    disp.contrast(10)
    assert emu.contrast == 10 and render.brightness(emu) < bright
    disp.poweroff()
    assert not emu.display_on and not emu.lit(0, 0)
    assert set(render.to_text(emu)) <= {" ", "\n"}
    assert emu.read(0x3C, 1) == b"\x40"  # status: display off
    disp.poweron()
    assert emu.display_on and emu.lit(0, 0) and emu.read(0x3C, 1) == b"\x00"
    assert emu.vlsb() == frame(disp)


def test_rotation_shows_the_frame_upside_down_and_back():
    disp, emu, _ = make()
    disp.text("R", 0, 0, 1)
    disp.fill_rect(0, 0, 3, 2, 1)
    disp.show()
    disp.rotate(False)  # 0xC0 + 0xA0: 180 degrees on this module
    disp.show()
    buf = frame(disp)
    for x in range(128):
        for y in range(64):
            drawn = (buf[(y >> 3) * 128 + x] >> (y & 7)) & 1
            assert emu.lit(127 - x, 63 - y) == bool(drawn)
    disp.rotate(True)
    disp.show()
    assert emu.vlsb() == frame(disp)


# -- decoding details and abuse --------------------------------------------------------
def test_argument_bytes_are_never_commands():
    disp, emu, _ = make()
    disp.contrast(0xAE)  # the argument equals the display-off opcode
    assert emu.display_on and emu.contrast == 0xAE
    emu.write(0x3C, bytes([0x00, 0x81, 0xA7, 0x26, 0x00, 0xAE, 0x00, 0x07, 0x00, 0xFF]))
    assert emu.contrast == 0xA7 and not emu.inverted and emu.display_on
    assert emu.scroll_setup == (0x26, (0x00, 0xAE, 0x00, 0x07, 0x00, 0xFF))
    assert emu.unknown_count == 0


def test_command_split_across_transactions():
    emu = Ssd1306Emulator()
    for byte in (0x21, 0x10, 0x1F, 0x22, 0x02, 0x03, 0x20, 0x00):
        emu.write(0x3C, bytes([0x80, byte]))
    assert (emu.col_start, emu.col_end, emu.page_start, emu.page_end) == (16, 31, 2, 3)
    assert emu.mode == HORIZONTAL and (emu.col, emu.page) == (16, 2)


def test_co_bit_mixes_commands_and_data_in_one_transaction():
    emu = Ssd1306Emulator()
    emu.write(0x3C, bytes([0x80, 0xAF, 0x80, 0x8D, 0x80, 0x14, 0x80, 0xA1, 0x80, 0xC8]))
    emu.write(0x3C, bytes([0x80, 0xB0, 0x80, 0x05, 0x80, 0x10, 0xC0, 0xFF, 0x40, 0x01, 0x81]))
    # Page mode at reset: page 0, column 5. 0xC0 writes one data byte, then
    # 0x40 makes the rest data: columns 5, 6, 7.
    assert emu.control_bytes == 5 + 5 and emu.data_bytes == 3
    assert [emu.lit(x, y) for x, y in ((5, 0), (5, 7), (6, 0), (6, 1), (7, 0), (7, 7), (7, 1))] == [
        True, True, True, False, True, True, False]


def test_page_mode_addressing():
    emu = Ssd1306Emulator()
    emu.write(0x3C, bytes([0x00, 0x8D, 0x14, 0xA1, 0xC8, 0xAF, 0xB2, 0x05, 0x11]))  # page 2, column 0x15
    emu.write(0x3C, bytes([0x40, 0x01, 0x80]))
    assert (emu.page, emu.col) == (2, 23)
    assert emu.lit(21, 16) and emu.lit(22, 23) and not emu.lit(21, 17)
    emu.write(0x3C, bytes([0x00, 0xB7, 0x0F, 0x17]))  # column 127 wraps to 0 on the same page
    emu.write(0x3C, bytes([0x40, 0xFF, 0xFF]))
    assert emu.lit(127, 56) and emu.lit(0, 63) and (emu.page, emu.col) == (7, 1)


def test_vertical_mode_fills_column_by_column():
    emu = Ssd1306Emulator()
    emu.write(0x3C, bytes([0x00, 0x8D, 0x14, 0xA1, 0xC8, 0xAF, 0x20, 0x01, 0x21, 10, 11, 0x22, 6, 7]))
    assert emu.mode == VERTICAL
    emu.write(0x3C, bytes([0x40, 0x01, 0x02, 0x04, 0x08, 0x10]))
    # (10, p6) (10, p7) (11, p6) (11, p7) then wrap to (10, p6)
    assert emu.lit(10, 48 + 4) and not emu.lit(10, 48) and emu.lit(10, 57)
    assert emu.lit(11, 50) and emu.lit(11, 59)


def test_horizontal_window_wraps_back_to_its_start():
    emu = Ssd1306Emulator()
    emu.write(0x3C, bytes([0x00, 0x8D, 0x14, 0xA1, 0xC8, 0xAF, 0x20, 0x00, 0x21, 120, 121, 0x22, 0, 1]))
    emu.write(0x3C, bytes([0x40]) + bytes([0x01, 0x02, 0x04, 0x08, 0x10]))
    # (120,p0)=1 (121,p0)=2 (120,p1)=4 (121,p1)=8, then back to (120,p0)=0x10
    assert emu.lit(120, 4) and not emu.lit(120, 0) and emu.lit(121, 1) and emu.lit(120, 10) and emu.lit(121, 11)


def test_start_line_offset_and_multiplex():
    disp, emu, _ = make()
    disp.hline(0, 8, 128, 1)
    disp.show()
    assert emu.lit(0, 8)
    emu.write(0x3C, bytes([0x80, 0x48]))  # start line 8
    assert emu.start_line == 8 and emu.lit(0, 0) and not emu.lit(0, 8)
    emu.write(0x3C, bytes([0x00, 0x40, 0xD3, 4]))  # start line 0, offset 4
    assert emu.lit(0, 4) and not emu.lit(0, 8)
    # Only 32 COMs driven: COM0..31, the bottom half of this module (C8 scans
    # them from COM31, so RAM row 0 is at y=32).
    emu.write(0x3C, bytes([0x00, 0xD3, 0, 0xA8, 31]))
    assert emu.mux == 32 and emu.lit(0, 40) and not emu.lit(0, 8)
    disp.fill(1)
    disp.show()
    assert [y for y in range(64) if emu.lit(5, y)] == list(range(32, 64))


def test_entire_display_on_and_charge_pump():
    disp, emu, _ = make()
    emu.write(0x3C, bytes([0x80, 0xA5]))
    assert all(all(row) for row in emu.pixels)
    emu.write(0x3C, bytes([0x80, 0xA4]))
    assert not any(any(row) for row in emu.pixels)
    disp.fill(1)
    disp.show()
    emu.write(0x3C, bytes([0x00, 0x8D, 0x10]))  # pump off, no external supply: dark
    assert not emu.powered and not emu.lit(0, 0) and render.brightness(emu) == 0
    ext = Ssd1306Emulator(external_vcc=True)
    ext.write(0x3C, bytes([0x00, 0x8D, 0x10, 0xAF, 0xA5]))
    assert ext.powered and ext.lit(3, 3)


def test_garbage_and_unknown_commands_never_crash():
    disp, emu, _ = make()
    disp.text("ok", 0, 0, 1)
    disp.show()
    emu.write(0x3C, bytes([0x80, 0xFF]))
    assert emu.unknown_count == 1 and emu.unknown[-1][1] == 0xFF
    emu.write(0x3C, bytes([0x3F, 0xAE]))  # reserved bits in the control byte
    assert emu.problem_count == 1 and "reserved" in emu.problems[0]
    emu.write(0x3C, bytes([0x00, 0x20, 0x03, 0xA8, 0x05]))  # invalid memory mode and mux
    assert emu.mode == HORIZONTAL and emu.mux == 64 and emu.problem_count == 3
    emu.write(0x3C, b"")  # an address probe
    emu.write(0x3C, bytes([0x80]))  # a control byte and nothing else
    rng = random.Random(7)
    for _ in range(3000):
        emu.write(0x3C, bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40))))
    assert emu.unknown_count > 1 and len(emu.unknown) <= 100 and len(emu.problems) <= 100
    render.to_text(emu)
    render.png_bytes(emu, 1)
    # The driver recovers the panel from whatever state the garbage left.
    disp.init_display()
    disp.invalidate()
    disp.text("back", 10, 10, 1)
    disp.show()
    assert emu.vlsb() == frame(disp)


def test_other_addresses_are_ignored_and_missing_device_is_reported():
    emu = Ssd1306Emulator()
    assert emu.write(0x3D, bytes([0x80, 0xAF])) is False
    assert not emu.display_on and emu.transactions == 0 and emu.ignored_transactions == 1
    assert emu.read(0x3D, 1) is None
    with pytest.raises(ValueError, match="No I2C device at address: 0x3d"):
        Oled(BusioI2C(VirtualI2C(emu)), addr=0x3D)


def test_emulator_rejects_bad_geometry_and_pixels():
    with pytest.raises(ValueError, match="width"):
        Ssd1306Emulator(width=129)
    with pytest.raises(ValueError, match="height"):
        Ssd1306Emulator(height=12)
    with pytest.raises(ValueError, match="7-bit"):
        Ssd1306Emulator(addr=0x80)
    with pytest.raises(IndexError, match="outside the 128x64 panel"):
        Ssd1306Emulator().lit(128, 0)
    with pytest.raises(ValueError, match="not an SSD1306 panel size"):
        Oled(BusioI2C(VirtualI2C(Ssd1306Emulator())), 128, 60)


def test_bus_bits_count_ack_and_transaction_overhead():
    emu = Ssd1306Emulator()
    emu.write(0x3C, bytes([0x80, 0xAF]))
    emu.write(0x3C, bytes([0x40, 1, 2, 3]))
    assert emu.bus_bits() == 9 * 6 + 11 * 2
    assert emu.counters()["bytes"] == 6


# -- the adapter ---------------------------------------------------------------------------
def test_adapter_locking_slices_and_errors():
    emu = Ssd1306Emulator()
    bus = VirtualI2C(emu)
    i2c = BusioI2C(bus)
    with pytest.raises(RuntimeError, match="try_lock"):
        i2c.writeto(0x3C, b"\x80\xaf")
    assert i2c.try_lock() and not i2c.try_lock()
    assert i2c.scan() == [0x3C]
    i2c.writeto(0x3C, b"\xff\x80\xaf\xff", start=1, end=3)
    assert emu.display_on and emu.bytes == 2
    with pytest.raises(ValueError, match="outside a 4-byte buffer"):
        i2c.writeto(0x3C, b"1234", start=2, end=5)
    status = bytearray(3)
    i2c.readfrom_into(0x3C, status, start=1)
    assert status == b"\x00\x00\x00"
    i2c.writeto_then_readfrom(0x3C, b"\x80\xae", status, in_end=1)
    assert status[0] == 0x40 and bus.stops[-1] is False
    with pytest.raises(OSError):
        i2c.writeto(0x11, b"\x00")
    i2c.unlock()
    assert i2c.try_lock()
    i2c.unlock()
    with pytest.raises(TypeError, match="writeto"):
        BusioI2C(object())


# -- renderers ----------------------------------------------------------------------------------
def test_half_block_text():
    disp, emu, _ = make()
    disp.pixel(0, 0, 1)  # top half of cell (0, 0)
    disp.pixel(1, 1, 1)  # bottom half of cell (1, 0)
    disp.pixel(2, 0, 1)
    disp.pixel(2, 1, 1)  # both halves
    disp.pixel(127, 63, 1)
    disp.show()
    lines = render.to_text(emu).split("\n")
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][:4] == "\u2580\u2584\u2588 "
    assert lines[31][127] == "\u2584"
    assert set("".join(lines)) == {" ", "\u2580", "\u2584", "\u2588"}
    disp.invert(True)
    inverted = render.to_text(emu).split("\n")
    assert inverted[0][:4] == "\u2584\u2580 \u2588" and inverted[5] == "\u2588" * 128
    ansi = render.to_text(emu, ansi=True).split("\n")
    assert ansi[5].startswith("\x1b[38;2;255;255;255m") and ansi[5].endswith("\x1b[0m")
    disp.contrast(0)
    assert render.to_text(emu, ansi=True).startswith("\x1b[38;2;64;64;64m")


def read_png(data):
    """Minimal decoder for the greyscale, unfiltered PNGs render writes."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos = 8
    chunks = {}
    idat = b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        payload = data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + payload) & 0xFFFFFFFF
        chunks[kind] = payload
        if kind == b"IDAT":
            idat += payload
        pos += 12 + length
    assert b"IEND" in chunks
    width, height, depth, colour, _, _, _ = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert (depth, colour) == (8, 0)
    raw = zlib.decompress(idat)
    rows = []
    for y in range(height):
        line = raw[y * (width + 1) : (y + 1) * (width + 1)]
        assert line[0] == 0
        rows.append(line[1:])
    return width, height, rows


@pytest.mark.parametrize("scale", [1, 3])
def test_png_matches_the_panel(tmp_path, scale):
    disp, emu, _ = make()
    countdown_screen(disp, 42)
    disp.show()
    disp.contrast(0x80)
    path = render.to_png(emu, tmp_path / "panel.png", scale=scale)
    width, height, rows = read_png(Path(path).read_bytes())
    assert (width, height) == (128 * scale, 64 * scale)
    level = render.brightness(emu)
    assert 64 < level < 255
    pixels = emu.pixels
    for y in range(height):
        for x in range(width):
            assert rows[y][x] == (level if pixels[y // scale][x // scale] else 0)
    disp.poweroff()
    _, _, dark = read_png(render.png_bytes(emu, 1))
    assert all(not any(row) for row in dark)


def test_png_rejects_a_bad_scale():
    with pytest.raises(ValueError, match="scale"):
        render.png_bytes(Ssd1306Emulator(), 0)
    with pytest.raises(ValueError, match="scale"):
        render.png_bytes(Ssd1306Emulator(), 2.5)
