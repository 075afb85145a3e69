"""Pictures of the emulated panel: Unicode text (half blocks or braille)
and PNG, and fitting text to a terminal without wrapping.

Half-block text packs two pixel rows into one character cell (upper half
block, lower half block, full block or space): a 128x64 panel is 128
columns by 32 lines. Braille packs 2x4 pixels into one cell (the U+2800
block has a dot for each), so the panel is 64 columns by 16 lines and fits
an 80x24 terminal with room for a status line; `choose_mode` picks the
half blocks only when the terminal is big enough for them. Plain text
carries no brightness; with `ansi=True` the lit pixels are drawn in a grey
that follows the contrast setting, for the simulator's live view.

The PNG writer is a few lines of stdlib (zlib for the deflate stream and the
CRC): the picture is 8-bit greyscale with no filtering, which is all a
monochrome panel needs. Pillow would add a large binary dependency to the
host tools only to write such files, so it is not used.

What the panel shows comes from the emulator (`lit`/`pixels`), so display
off, a dead charge pump, invert, entire-display-on, remaps and offsets all
appear here exactly as the emulator decodes them.
"""

import struct
import unicodedata
import zlib

UPPER = "\u2580"  # ▀
LOWER = "\u2584"  # ▄
FULL = "\u2588"  # █
_CELLS = (" ", UPPER, LOWER, FULL)  # index: top bit | bottom bit << 1

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

BRAILLE = 0x2800  # the blank braille cell; a dot's bit is added for each lit pixel
# Bit of the dot for the pixel at (dx, dy) inside a 2x4 cell: Unicode
# numbers the dots 1-2-3-7 down the left column and 4-5-6-8 down the right.
BRAILLE_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [dy][dx]

MODES = ("braille", "half")
# Columns and lines of the panel in each mode, for a width x height panel.
PANEL_CELLS = {"braille": lambda w, h: ((w + 1) // 2, (h + 3) // 4), "half": lambda w, h: (w, (h + 1) // 2)}


def brightness(emu):
    """Grey level (0..255) of a lit pixel: contrast 0 is dim but still
    visible on a real OLED, 255 is full white; 0 when the panel is dark."""
    if not emu.powered:
        return 0
    return 64 + (191 * emu.contrast + 127) // 255


def to_text(emu, ansi=False):
    """The panel as half-block text: `height // 2` lines of `width`
    characters joined by newlines (no trailing newline)."""
    return _joined(emu, _half_lines(emu), ansi)


def to_braille(emu, ansi=False):
    """The panel as braille text: `height / 4` lines of `width / 2`
    characters joined by newlines (no trailing newline). Every character is
    a braille cell, blank (U+2800) where nothing is lit, so the picture
    keeps its width in any font."""
    return _joined(emu, _braille_lines(emu), ansi)


def panel_lines(emu, mode):
    """The panel in `mode` ("braille" or "half") as a list of plain lines."""
    if mode == "braille":
        return _braille_lines(emu)
    if mode == "half":
        return _half_lines(emu)
    raise ValueError("unknown render mode %r (use %s)" % (mode, " or ".join(MODES)))


def grey(emu):
    """The ANSI escape that draws text in the grey of a lit pixel."""
    level = brightness(emu)
    return "\x1b[38;2;%d;%d;%dm" % (level, level, level)


def _half_lines(emu):
    rows = emu.pixels
    lines = []
    for y in range(0, emu.height, 2):
        top = rows[y]
        bottom = rows[y + 1]
        lines.append("".join([_CELLS[top[x] | (bottom[x] << 1)] for x in range(emu.width)]))
    return lines


def _braille_lines(emu):
    rows = emu.pixels
    width, height = emu.width, emu.height
    lines = []
    for y in range(0, height, 4):
        cells = [0] * ((width + 1) // 2)
        for dy in range(min(4, height - y)):
            row = rows[y + dy]
            left, right = BRAILLE_DOTS[dy]
            for x in range(width):
                if row[x]:
                    cells[x >> 1] |= right if x & 1 else left
        lines.append("".join([chr(BRAILLE + c) for c in cells]))
    return lines


def _joined(emu, lines, ansi):
    if ansi:
        colour = grey(emu)
        lines = [colour + line + "\x1b[0m" for line in lines]
    return "\n".join(lines)


def choose_mode(columns, lines, extra_lines=0, width=128, height=64):
    """The render mode for a terminal of `columns` x `lines` that must also
    show `extra_lines` of other text: half blocks when they fit (a finer
    picture: a pixel is a whole cell wide), else braille."""
    cols, rows = PANEL_CELLS["half"](width, height)
    if columns >= cols and lines >= rows + extra_lines:
        return "half"
    return "braille"


def cells(text):
    """Width of `text` in terminal cells: wide (East Asian W/F) characters
    take two, combining marks none, everything else one."""
    return sum(_cell_width(ch) for ch in text)


def fit(text, columns):
    """`text` cut to at most `columns` terminal cells (no wrapping); a cut
    line ends in an ellipsis when there is room for one."""
    if cells(text) <= columns:
        return text
    if columns <= 1:
        return crop(text, columns)
    return crop(text, columns - 1) + "\u2026"


def crop(text, columns):
    """`text` cut to at most `columns` terminal cells, with no ellipsis (for
    a picture, whose right edge is simply not shown)."""
    out = []
    used = 0
    for ch in text:
        w = _cell_width(ch)
        if used + w > columns:
            break
        out.append(ch)
        used += w
    return "".join(out)


def first_fit(variants, columns):
    """The first of `variants` (longest first) that fits `columns` cells,
    else the last one cut to fit."""
    for text in variants:
        if cells(text) <= columns:
            return text
    return fit(variants[-1], columns) if variants else ""


def terminal_frame(emu, columns, lines, below=(), mode=None, ansi=False):
    """What a terminal of `columns` x `lines` shows: the panel, then one
    line for each entry of `below` (a tuple of variants, longest first; the
    first that fits is shown). Returns (mode, lines): `mode` is the given
    one or choose_mode's pick, and every line fits `columns` cells and
    there are at most `lines` of them, so nothing wraps or scrolls. A
    terminal too small even for braille shows the panel's top left part;
    the text lines are kept, as they name the serial port."""
    mode = mode or choose_mode(columns, lines, len(below), emu.width, emu.height)
    panel = [crop(line, columns) for line in panel_lines(emu, mode)]
    room = max(0, lines - len(below))
    panel = panel[:room]
    if ansi:
        colour = grey(emu)
        panel = [colour + line + "\x1b[0m" for line in panel]
    text = [first_fit(variants, columns) for variants in below]
    return mode, (panel + text)[:max(0, lines)]


def _cell_width(ch):
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def png_bytes(emu, scale=4):
    """The panel as PNG file contents: 8-bit greyscale, each pixel a
    scale x scale square; unlit pixels black, lit ones at brightness(emu)."""
    if not isinstance(scale, int) or isinstance(scale, bool) or not (1 <= scale <= 64):
        raise ValueError("to_png: scale must be an integer 1..64, got %r" % (scale,))
    level = brightness(emu)
    width = emu.width * scale
    height = emu.height * scale
    raw = bytearray()
    for line in emu.pixels:
        row = bytearray(width)
        for x in range(emu.width):
            if line[x]:
                row[x * scale : (x + 1) * scale] = bytes([level]) * scale
        scanline = b"\x00" + bytes(row)  # filter type 0 (none)
        raw += scanline * scale
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (
        _PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + _chunk(b"IEND", b"")
    )


def to_png(emu, path, scale=4):
    """Write the panel to `path` as a PNG (see png_bytes); returns the path."""
    data = png_bytes(emu, scale)
    with open(path, "wb") as handle:
        handle.write(data)
    return path


def _chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)
