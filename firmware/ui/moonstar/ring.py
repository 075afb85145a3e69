"""Moonstar's board drawn on the 128x64 panel: the ring of 12 stars on the
left half, each planet a disc with its value, the moons as dots stacked
inwards from their star; the right half is left for words (the situation
screen's dice, the best-possible screen's plan step).

Why a drawing: players read a ring of stars at a glance, where lines like
"value@star: 5@3" had to be decoded. Star 0 is at the top (marked by a
tick outside the ring) and the stars count clockwise, as the set-up entry
numbers them.

Only framebuf primitives and small tables: a 12-entry sine table and a
3x5 digit font (50 bytes). This module is loaded while a drawing is shown
and unloaded with that screen (ui/moonstar/situation.py, ui/moonstar/best.py)."""

try:
    from micropython import const
except ImportError:  # CPython

    def const(__expr):  # positional-only, like the stub: see shared_rules/ticks.py
        return __expr


_CX = const(31)  # the ring's centre
_CY = const(33)
R_STAR = const(24)  # radius of the stars (and the planets' centres)
R_PLANET = const(5)  # a planet's disc
MOON_RADII = (16, 12, 8)  # the first, second and third moon on a star
PANEL_X = const(63)  # where the words on the right start

# sin(30 k degrees) * 1000 for k = 0..11; cos(30 k) is entry k + 3.
_SIN = const((0, 500, 866, 1000, 866, 500, 0, -500, -866, -1000, -866, -500))

# 3x5 digits, one byte per row, the three low bits left to right.
_TINY = const((b"\x07\x05\x05\x05\x07", b"\x02\x06\x02\x02\x07", b"\x07\x01\x07\x04\x07",
               b"\x07\x01\x03\x01\x07", b"\x05\x05\x07\x01\x01", b"\x07\x04\x07\x01\x07",
               b"\x07\x04\x07\x05\x07", b"\x07\x01\x02\x02\x02", b"\x07\x05\x07\x05\x07",
               b"\x07\x05\x07\x01\x07"))


def _scaled(r, s):
    """r * s / 1000 rounded to the nearest pixel (either sign)."""
    v = r * s
    return (v + 500) // 1000 if v >= 0 else -((-v + 500) // 1000)


def at(star, r):
    """Pixel (x, y) at radius r in the direction of `star`."""
    return _CX + _scaled(r, _SIN[star % 12]), _CY - _scaled(r, _SIN[(star + 3) % 12])


def tiny(d, text, x, y, c=1):
    """Digits in the 3x5 font (4 px a digit) with the top left at x, y."""
    for ch in text:
        rows = _TINY[ord(ch) - 48]
        for j in range(5):
            bits = rows[j]
            for i in range(3):
                if bits & (4 >> i):
                    d.pixel(x + i, y + j, c)
        x += 4


def planet(d, star, value, c=1):
    """A planet: a disc on its star with the value cut out of it."""
    x, y = at(star, R_STAR)
    d.ellipse(x, y, R_PLANET, R_PLANET, c, True)
    s = str(value)
    tiny(d, s, x - 2 * len(s) + 1, y - 2, 1 - c)


def moon(d, star, k, hollow=False):
    """The k-th moon (0-2) on a star: a dot, or a ring for one on the move."""
    x, y = at(star, MOON_RADII[k if k < 3 else 2])
    if hollow:
        d.ellipse(x, y, 2, 2, 1)
    else:
        d.fill_rect(x - 1, y - 1, 3, 3, 1)


def ring(d, planets, favorite=None):
    """The ring, star 0's tick, the stars and the planets on them."""
    d.ellipse(_CX, _CY, R_STAR, R_STAR, 1)
    d.vline(_CX, _CY - R_STAR - R_PLANET - 3, 3, 1)
    values = [0] * 12
    for p in planets:
        values[p[0]] = p[1]
    for s in range(12):
        if values[s]:
            planet(d, s, values[s])
        else:
            x, y = at(s, R_STAR)
            d.fill_rect(x - 2, y - 2, 5, 5, 0)  # a gap in the ring line,
            d.hline(x - 2, y, 5, 1)  # then a small cross: a star
            d.vline(x, y - 2, 5, 1)
    if favorite is not None:
        x, y = at(favorite, R_STAR)
        d.ellipse(x, y, R_PLANET + 2, R_PLANET + 2, 1)


def moons(d, stars, hollow=-1):
    """A dot per moon, stacked inwards from its star (`stars`: each moon's
    star); moon number `hollow` is drawn as a ring."""
    count = [0] * 12
    for i in range(len(stars)):
        s = stars[i]
        moon(d, s, count[s], i == hollow)
        count[s] += 1


def dice(d, values, y, used=None, current=-1):
    """The dice as small boxed numbers, five to a line, from y on the
    right half. Dice whose index is in `used` are left out (placed); die
    number `current` is drawn inverted. The y below the last line."""
    x = PANEL_X
    n = 0
    for i in range(len(values)):
        if used is not None and i in used:
            continue
        if n and n % 5 == 0:
            x = PANEL_X
            y += 12
        if i == current:
            d.fill_rect(x, y, 11, 11, 1)
        else:
            d.rect(x, y, 11, 11, 1)
        d.text(str(values[i]), x + 2, y + 2, 0 if i == current else 1)
        x += 13
        n += 1
    return y + 12
