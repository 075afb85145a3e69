"""Pictures of the emulated panel: Unicode half-block text and PNG.

Text packs two pixel rows into one character cell (upper half block, lower
half block, full block or space), so a 128x64 panel is 128 columns by 32
lines and fits an ordinary terminal. Plain text carries no brightness; with
`ansi=True` the lit pixels are drawn in a grey that follows the contrast
setting, for the simulator's live view.

The PNG writer is a few lines of stdlib (zlib for the deflate stream and the
CRC): the picture is 8-bit greyscale with no filtering, which is all a
monochrome panel needs. Pillow would add a large binary dependency to the
host tools only to write such files, so it is not used.

What the panel shows comes from the emulator (`lit`/`pixels`), so display
off, a dead charge pump, invert, entire-display-on, remaps and offsets all
appear here exactly as the emulator decodes them.
"""

import struct
import zlib

UPPER = "\u2580"  # ▀
LOWER = "\u2584"  # ▄
FULL = "\u2588"  # █
_CELLS = (" ", UPPER, LOWER, FULL)  # index: top bit | bottom bit << 1

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def brightness(emu):
    """Grey level (0..255) of a lit pixel: contrast 0 is dim but still
    visible on a real OLED, 255 is full white; 0 when the panel is dark."""
    if not emu.powered:
        return 0
    return 64 + (191 * emu.contrast + 127) // 255


def to_text(emu, ansi=False):
    """The panel as half-block text: `height // 2` lines of `width`
    characters joined by newlines (no trailing newline)."""
    rows = emu.pixels
    lines = []
    for y in range(0, emu.height, 2):
        top = rows[y]
        bottom = rows[y + 1]
        lines.append("".join([_CELLS[top[x] | (bottom[x] << 1)] for x in range(emu.width)]))
    if ansi:
        level = brightness(emu)
        colour = "\x1b[38;2;%d;%d;%dm" % (level, level, level)
        lines = [colour + line + "\x1b[0m" for line in lines]
    return "\n".join(lines)


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
