"""The panel in a terminal: braille cells (64x16) when the terminal is small,
half blocks (128x32) when it is big enough, and nothing the simulator
prints is wider or taller than the terminal.

Pictures come from the real adafruit_ssd1306 driver over a virtual I2C bus
into the SSD1306 emulator, or from the simulated board itself; every
picture is decoded back to pixels and compared with the emulator's."""

import fcntl
import io
import os
import pty
import random
import re
import struct
import subprocess
import sys
import termios
import threading
import unicodedata

import pytest

import simtools as st
from moontable.sim import render
from moontable.sim.board_link import ROOT, SimBoard, deploy
from moontable.sim.run import HELP, Live, port_lines, render_from_env, status_variants
from moontable.sim.ssd1306_emu import Ssd1306Emulator

sys.path.append(str(ROOT / "firmware"))  # appended: never shadow another module

import adafruit_ssd1306  # noqa: E402
from i2c_adapter import BusioI2C  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
HALF = {" ": (0, 0), render.UPPER: (1, 0), render.LOWER: (0, 1), render.FULL: (1, 1)}


class Wires:
    """machine.I2C's methods over the emulator: the only thing mocked."""

    def __init__(self, emu):
        self.emu = emu

    def writeto(self, addr, buf, stop=True):
        if not self.emu.write(addr, bytes(buf)):
            raise OSError(19, "ENODEV")
        return len(buf)

    def readfrom_into(self, addr, buf, stop=True):
        buf[:] = self.emu.read(addr, len(buf))

    def scan(self):
        return [self.emu.addr]


def panel(width=128, height=64, seed=1):
    """An emulator showing a random picture the real driver drew."""
    emu = Ssd1306Emulator(width, height)
    disp = adafruit_ssd1306.SSD1306_I2C(width, height, BusioI2C(Wires(emu)))
    rng = random.Random(seed)
    for _ in range(40):
        disp.fill_rect(rng.randrange(width), rng.randrange(height), rng.randrange(1, 30), rng.randrange(1, 20),
                       rng.randrange(2))
    for _ in range(300):
        disp.pixel(rng.randrange(width), rng.randrange(height), 1)
    disp.show()
    return emu


def cell_width(line):
    """Terminal cells a printed line takes (escapes take none)."""
    text = ANSI.sub("", line)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def decode_braille(lines, width, height):
    px = [[0] * width for _ in range(height)]
    for row, line in enumerate(lines):
        for col, ch in enumerate(line):
            bits = ord(ch) - render.BRAILLE
            assert 0 <= bits <= 0xFF, "not a braille cell: %r" % ch
            for dy in range(4):
                for dx in range(2):
                    x, y = col * 2 + dx, row * 4 + dy
                    if bits & render.BRAILLE_DOTS[dy][dx]:
                        assert x < width and y < height, "a dot outside the panel"
                        px[y][x] = 1
    return px


def decode_half(lines, width, height):
    px = [[0] * width for _ in range(height)]
    for row, line in enumerate(lines):
        for x, ch in enumerate(line):
            top, bottom = HALF[ch]
            px[row * 2][x] = top
            px[row * 2 + 1][x] = bottom
    return px


@pytest.mark.parametrize("size", [(128, 64), (128, 32), (96, 16), (64, 48)])
def test_braille_decodes_to_the_emulators_pixels(size):
    w, h = size
    emu = panel(w, h, seed=w + h)
    lines = render.to_braille(emu).split("\n")
    assert len(lines) == (h + 3) // 4 and all(len(line) == (w + 1) // 2 for line in lines)
    assert decode_braille(lines, w, h) == [list(r) for r in emu.pixels]
    assert any(ch != chr(render.BRAILLE) for line in lines for ch in line)


def test_braille_dots_and_brightness():
    emu = Ssd1306Emulator()
    disp = adafruit_ssd1306.SSD1306_I2C(128, 64, BusioI2C(Wires(emu)))
    for x, y in ((0, 0), (1, 1), (0, 3), (1, 3), (127, 63)):
        disp.pixel(x, y, 1)
    disp.show()
    lines = render.to_braille(emu).split("\n")
    assert lines[0][0] == chr(0x2800 | 0x01 | 0x10 | 0x40 | 0x80)  # dots 1, 5, 7, 8
    assert lines[15][63] == chr(0x2800 | 0x80) and lines[1][0] == chr(0x2800)
    assert render.to_braille(emu, ansi=True).startswith(render.grey(emu))
    assert render.panel_lines(emu, "half") == render.to_text(emu).split("\n")
    with pytest.raises(ValueError, match="unknown render mode 'ascii'"):
        render.panel_lines(emu, "ascii")


def test_the_mode_follows_the_terminal_size():
    assert render.choose_mode(80, 24, 2) == "braille"
    assert render.choose_mode(127, 60, 2) == "braille"
    assert render.choose_mode(128, 33, 2) == "braille"
    assert render.choose_mode(128, 34, 2) == "half"
    assert render.choose_mode(128, 32) == "half"
    assert render.choose_mode(250, 70, 2) == "half"


def test_fitting_text_counts_terminal_cells():
    assert render.fit("abcdef", 6) == "abcdef"
    assert render.fit("abcdef", 4) == "abc\u2026"
    assert render.fit("abcdef", 1) == "a" and render.fit("abc", 0) == ""
    assert render.cells("\u4e2d\u6587") == 4 and render.fit("\u4e2d\u6587x", 4) == "\u4e2d\u2026"
    assert render.crop("\u4e2dabc", 3) == "\u4e2da"
    assert render.first_fit(("long text", "short"), 6) == "short"
    assert render.first_fit(("long text", "shorter"), 5) == "shor\u2026"


SIZES = [(80, 24), (64, 18), (100, 20), (40, 12), (20, 6), (128, 34), (128, 33), (300, 100), (1, 1)]


@pytest.mark.parametrize("size", SIZES)
def test_the_live_frame_fits_every_terminal(size):
    columns, lines = size
    emu = panel()
    port = "/dev/pts/17"
    for buzzer in (None, 2700):
        mode, frame = render.terminal_frame(emu, columns, lines, (status_variants(buzzer, port), HELP), ansi=True)
        assert mode == render.choose_mode(columns, lines, 2)
        assert len(frame) <= lines
        assert all(cell_width(line) <= columns for line in frame), [cell_width(x) for x in frame]
        text = [ANSI.sub("", line) for line in frame]
        if columns >= len(port) + 2 and lines >= 2:
            assert port in text[-2]  # the serial port is never cut off
            assert text[-1].startswith(("keys", "arrows", "u/d", "u d"))
        if columns >= 64 and lines >= 18:
            # the whole panel is there, and it is the emulator's picture
            panel_rows = text[:-2]
            decode = decode_half if mode == "half" else decode_braille
            assert decode(panel_rows, 128, 64) == [list(r) for r in emu.pixels]
    for line in port_lines("/home/someone/.local/share/moontable/sim-flash", port, columns):
        assert cell_width(line) <= columns or line == "USB serial port: %s" % port


def test_a_forced_mode_is_cropped_never_wrapped():
    emu = panel()
    mode, frame = render.terminal_frame(emu, 80, 24, (("status",), HELP), mode="half")
    assert mode == "half" and len(frame) == 24
    assert all(cell_width(line) <= 80 for line in frame)
    assert frame[:22] == [line[:80] for line in render.to_text(emu).split("\n")[:22]]


def test_render_mode_from_the_environment():
    assert render_from_env({}) is None
    assert render_from_env({"MOONTABLE_RENDER": "braille"}) == "braille"
    assert render_from_env({"MOONTABLE_RENDER": "auto"}) is None
    # `make sim RENDER=half`: make exports it and lists it in MAKEFLAGS
    assert render_from_env({"RENDER": "half", "MAKEFLAGS": " -- RENDER=half"}) == "half"
    assert render_from_env({"RENDER": "whatever"}) is None  # someone else's variable
    with pytest.raises(ValueError, match="MOONTABLE_RENDER=ascii: the panel is drawn as auto, braille, half"):
        render_from_env({"MOONTABLE_RENDER": "ascii"})
    with pytest.raises(ValueError, match="RENDER=big"):
        render_from_env({"RENDER": "big", "MAKEFLAGS": "-- RENDER=big"})


def test_the_live_view_fits_an_80x24_terminal(tmp_path):
    flash = tmp_path / "flash"
    deploy(flash)
    kr, kw = os.pipe()
    out = io.StringIO()
    live = Live(flash, seed=3, out=out, keyboard=os.fdopen(kr, "rb", buffering=0), size=lambda: (80, 24))
    live.boot()
    t = threading.Thread(target=live.loop, daemon=True)
    t.start()
    try:
        assert st.wait_for(lambda: "New game" in st.screen(live.board), timeout=300)
        os.write(kw, b"q")
        t.join(300)
        assert not t.is_alive()
        live.last_writes = -1
        live.draw()  # the board may have drawn since the loop's last frame: one more, of what it shows now
    finally:
        live.close()
    last = out.getvalue().split("\x1b[H")[-1]
    lines = last.split("\r\n")
    assert len(lines) == 18  # 16 braille lines, the status line, the key help
    assert all(cell_width(line) <= 80 for line in lines)
    assert "serial: %s" % live.port in ANSI.sub("", lines[16])
    assert decode_braille([ANSI.sub("", l) for l in lines[:16]], 128, 64) == [list(r) for r in live.board.emu.pixels]


def snapshot_cli(flash, env_size=None, tty_size=None, extra=()):
    """`moontable sim --snapshot down` as a real process: its size from
    $COLUMNS/$LINES, or from the terminal (a pty of `tty_size`)."""
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    env.pop("MOONTABLE_RENDER", None)
    cmd = [sys.executable, "-m", "moontable.cli", "sim", "--flash", str(flash), "--seed", "1", *extra, "--snapshot", "down"]
    if env_size:
        env["COLUMNS"], env["LINES"] = str(env_size[0]), str(env_size[1])
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.decode("utf-8")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", tty_size[1], tty_size[0], 0, 0))
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.OPOST  # no \n -> \r\n, to read the output as printed
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert proc.wait(300) == 0, proc.stderr.read()
    os.close(master)
    return b"".join(chunks).decode("utf-8")


def reference_pixels(tmp_path):
    """The same boot and press on a board of our own: the expected picture."""
    b = SimBoard(tmp_path / "reference", seed=1).start()
    try:
        b.advance(200)
        b.press("down")
        return [list(r) for r in b.emu.pixels]
    finally:
        b.kill()


def test_snapshot_fits_columns_and_lines_and_shows_the_panel(tmp_path):
    expected = reference_pixels(tmp_path)
    assert any(any(r) for r in expected)

    small = snapshot_cli(tmp_path / "a", env_size=(80, 24)).split("\n")
    assert small[-1] == "" and len(small) - 1 <= 24
    small = small[:-1]
    assert all(cell_width(line) <= 80 for line in small) and len(small) == 16
    assert decode_braille(small, 128, 64) == expected

    big = snapshot_cli(tmp_path / "b", env_size=(200, 60)).split("\n")[:-1]
    assert len(big) == 32 and all(cell_width(line) <= 200 for line in big)
    assert decode_half(big, 128, 64) == expected

    # no $COLUMNS/$LINES: the terminal's own size (a 140x40 one fits half blocks)
    from_tty = snapshot_cli(tmp_path / "c", tty_size=(140, 40)).split("\n")[:-1]
    assert len(from_tty) == 32 and decode_half(from_tty, 128, 64) == expected
    # --render half in 80x24: the picture's right part and bottom are cut, never wrapped
    forced = snapshot_cli(tmp_path / "d", env_size=(80, 24), extra=("--render", "half")).split("\n")[:-1]
    assert len(forced) == 24 and all(cell_width(line) == 80 for line in forced)
    assert [row[:80] for row in decode_half(forced, 80, 48)] == [row[:80] for row in expected[:48]]


def test_a_bad_render_mode_is_refused_with_its_source(tmp_path):
    env = dict(os.environ, MOONTABLE_RENDER="ascii")
    done = subprocess.run([sys.executable, "-m", "moontable.cli", "sim", "--flash", str(tmp_path / "f"), "--snapshot"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == "moontable sim: MOONTABLE_RENDER=ascii: the panel is drawn as auto, braille, half"
    assert done.stdout == "" and not (tmp_path / "f").exists()
