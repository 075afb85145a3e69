"""Big digits: each digit lights exactly its seven-segment pattern at the
asked height (>= 24 px for the countdown), inside its advertised width."""

from ui import bigdigits


class Canvas:
    def __init__(self, w=64, h=48):
        self.w = w
        self.h = h
        self.px = bytearray(w * h)

    def fill_rect(self, x, y, w, h, c):
        for yy in range(max(0, y), min(self.h, y + h)):
            for xx in range(max(0, x), min(self.w, x + w)):
                self.px[yy * self.w + xx] = c

    def get(self, x, y):
        return self.px[y * self.w + x]

    def bbox(self):
        x0 = y0 = 9999
        x1 = y1 = -1
        for y in range(self.h):
            for x in range(self.w):
                if self.px[y * self.w + x]:
                    x0 = min(x0, x)
                    y0 = min(y0, y)
                    x1 = max(x1, x)
                    y1 = max(y1, y)
        return x0, y0, x1, y1


PATTERNS = ["abcdef", "bc", "abdeg", "abcdg", "bcfg", "acdfg", "acdefg", "abc", "abcdefg", "abcdfg"]


def read_segments(cv, x, y, h):
    """Which segments are lit, sampled at each segment's centre."""
    t = bigdigits.stroke(h)
    w = h // 2
    c = t // 2
    probes = {
        "a": (x + w // 2, y + c), "b": (x + w - 1 - c, y + h // 4), "c": (x + w - 1 - c, y + (3 * h) // 4),
        "d": (x + w // 2, y + h - 1 - c), "e": (x + c, y + (3 * h) // 4), "f": (x + c, y + h // 4),
        "g": (x + w // 2, y + (h - t) // 2 + c),
    }
    return "".join(s for s in "abcdefg" if cv.get(probes[s][0], probes[s][1]))


def test_each_digit_lights_its_segments():
    cv = Canvas()
    for h in (24, 32, 40):
        for d in range(10):
            cv.px = bytearray(cv.w * cv.h)
            bigdigits.draw(cv, str(d), 3, 2, h)
            assert read_segments(cv, 3, 2, h) == PATTERNS[d], (h, d)


def test_digit_height_and_width():
    cv = Canvas()
    end = bigdigits.draw(cv, "88", 0, 0, 32)
    x0, y0, x1, y1 = cv.bbox()
    assert (y0, y1) == (0, 31)  # exactly 32 px tall
    assert end == bigdigits.text_width("88", 32)
    assert x1 < end


def test_countdown_fits_the_panel_beside_a_side_column():
    # "60" at 32 px must leave room for the standing bid column
    assert bigdigits.text_width("60", 32) <= 64


def test_colon_and_minus():
    cv = Canvas()
    bigdigits.draw(cv, "-", 0, 0, 32)
    assert read_segments(cv, 0, 0, 32) == "g"
    cv = Canvas()
    bigdigits.draw(cv, "1:", 0, 0, 32)
    x = bigdigits.char_width("1", 32)
    assert cv.get(x + 2, 32 // 3) == 1
