"""A link as a QR code drawn in inline SVG, for the report's game pages
(each finished game's "Send to BG Stats" link, scanned off the screen by
the phone that has BG Stats).

The symbol comes from zxing-cpp (its encoder is zint's, in C): about
0.5 ms of CPU for a 1 KB link with the data mask fixed, where segno
(pure Python) took 8 to 12 ms even with a fixed mask and the report makes
one per game: 10,000 games were minutes of QR codes alone. A fixed mask
skips scoring all eight, which is most of zint's time too; any of the
eight is a valid symbol a reader decodes.

Error correction is level L (7%): a link of a six-player game still fits,
and a screen is not a scuffed label. The drawing is one <path>, each row's
dark runs as horizontal strokes, with the four-module light border a
phone camera needs, three pixels a module.
"""

import re

MASK = 0          # the data mask every code uses (0-7: all valid)
BORDER = 4        # modules of light quiet zone around the symbol
SCALE = 3         # pixels a module on the page


class TooLong(ValueError):
    """The text is more than the largest QR code holds at level L."""


def matrix(text, mask=MASK):
    """The QR symbol of text as (size, rows): rows are bytes, one per
    module, 0 for dark and 255 for light, without the quiet zone.
    TooLong when no QR code holds it."""
    import zxingcpp

    try:
        code = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.QRCode, ec_level="L", data_mask=mask)
    except ValueError as e:
        if "too long" in str(e).lower():
            raise TooLong(str(e)) from None
        raise
    image = code.to_image(scale=1, add_quiet_zones=False)
    height, width = image.shape
    data = bytes(memoryview(image))
    return width, [data[y * width:(y + 1) * width] for y in range(height)]


class _Pieces(dict):
    """Path text for a piece of the symbol (PIECE bytes of its rows joined
    by newlines, 0 dark, 255 light), made on first use and kept: a dark
    run is a stroke ("h3"), a light run a move ("m2 0"), a row's end a
    move back to the start of the next ("m-89 1"). Drawing a code is then
    two C-level passes (cut the pieces, look each up) with no Python work
    for each run; a run across two pieces is two strokes end to end."""

    def __init__(self, size):
        super().__init__()
        self.newline = "m-%d 1" % size
        rows = size * (size + 1) - 1
        self.cuts = [slice(i, i + PIECE) for i in range(0, rows, PIECE)]

    def __missing__(self, piece):
        text = "".join(self.newline if run == b"\n" else ("h%d" if run[0] == 0 else "m%d 0") % len(run)
                       for run in _RUN.findall(piece))
        self[piece] = text
        return text


PIECE = 8
_RUN = re.compile(rb"\x00+|\xff+|\n")
_PIECES = {}  # symbol size -> _Pieces


def svg(text, mask=MASK):
    """An inline <svg> of text's QR code: dark on light, the quiet zone
    included, SCALE pixels a module. TooLong when no QR code holds it."""
    size, rows = matrix(text, mask)
    pieces = _PIECES.get(size)
    if pieces is None:
        pieces = _PIECES[size] = _Pieces(size)
    symbol = b"\n".join(rows)
    path = "M%d %d.5" % (BORDER, BORDER) + "".join(map(pieces.__getitem__, map(symbol.__getitem__, pieces.cuts)))
    side = size + 2 * BORDER
    return ('<svg xmlns="http://www.w3.org/2000/svg" class="qr" width="%d" height="%d" viewBox="0 0 %d %d" '
            'shape-rendering="crispEdges"><rect width="%d" height="%d" fill="#fff"/>'
            '<path stroke="#000" d="%s"/></svg>' % (side * SCALE, side * SCALE, side, side, side, side, path))
