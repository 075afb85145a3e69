"""Big seven-segment digits drawn with fill_rect: readable across a table
(the countdown is 32 px tall on a 64 px panel) with no font file in flash
and no RAM beyond a ten-byte segment table."""

from shared_rules.ticks import const

# Segment bits: a=1 top, b=2 top right, c=4 bottom right, d=8 bottom,
# e=16 bottom left, f=32 top left, g=64 middle.
_SEGS = const(b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f")


def stroke(h):
    return h // 8 if h >= 16 else 2


def char_width(ch, h):
    if ch == ":" or ch == ".":
        return stroke(h) * 2 + 1
    return h // 2 + stroke(h) + 1  # glyph plus gap


def text_width(text, h):
    w = 0
    for ch in text:
        w += char_width(ch, h)
    return w


def draw_digit(fb, d, x, y, h, c=1):
    """One digit 0-9 (or -1 for a minus sign) with its top-left at x, y."""
    t = stroke(h)
    w = h // 2
    s = 64 if d < 0 else _SEGS[d]
    half = (h + t) // 2
    mid = y + (h - t) // 2
    if s & 1:
        fb.fill_rect(x, y, w, t, c)
    if s & 2:
        fb.fill_rect(x + w - t, y, t, half, c)
    if s & 4:
        fb.fill_rect(x + w - t, mid, t, y + h - mid, c)
    if s & 8:
        fb.fill_rect(x, y + h - t, w, t, c)
    if s & 16:
        fb.fill_rect(x, mid, t, y + h - mid, c)
    if s & 32:
        fb.fill_rect(x, y, t, half, c)
    if s & 64:
        fb.fill_rect(x, mid, w, t, c)


def draw(fb, text, x, y, h=32, c=1):
    """Draw digits, '-', ':' and ' ' in a row; returns the x after the text."""
    t = stroke(h)
    for ch in text:
        if "0" <= ch <= "9":
            draw_digit(fb, ord(ch) - 48, x, y, h, c)
        elif ch == "-":
            draw_digit(fb, -1, x, y, h, c)
        elif ch == ":":
            fb.fill_rect(x + 1, y + h // 3 - t // 2, t, t, c)
            fb.fill_rect(x + 1, y + (2 * h) // 3 - t // 2, t, t, c)
        elif ch == ".":
            fb.fill_rect(x + 1, y + h - t, t, t, c)
        x += char_width(ch, h)
    return x
