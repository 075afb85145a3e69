"""The OLED: adafruit_ssd1306's I2C driver with a show() that sends only what
changed.

Why: the stock show() sends the whole 1 KB frame every time. The app redraws
every loop iteration, and during the bidding minute only the big countdown
digits change, once a second. Sending full frames at 10 loop iterations per
second would take about a quarter of a 400 kHz bus for nothing.

How: a shadow copy of what the panel's RAM holds is kept. show() compares the
frame buffer with it page by page (a page is an 8-pixel row, `width` bytes),
groups consecutive changed pages into runs, narrows each run to the columns
that changed, and for each run sends one command transaction that sets the
column window (0x21) and page window (0x22) of horizontal addressing mode,
then the data. Nothing changed means nothing is sent at all.

Allocation: comparisons use memoryviews of each page made once at start-up,
so an unchanged show() allocates nothing. Narrowing a changed run to its
columns bisects with slice comparisons (a few small memoryview objects,
about 0.5 KB per changed page on MicroPython) and finishes with a scan of at
most 8 bytes, so there is no per-byte loop over a page. Data for a window
narrower than the panel is sent straight from the frame buffer: the byte
just before the slice is borrowed for the 0x40 control byte and put back
afterwards, so no copy is made.

If a transfer fails (OSError from the bus), the shadow no longer matches the
panel, so the next show() resends the whole frame.
"""

import sys

# adafruit_ssd1306 also imports adafruit_bus_device.spi_device, for its SPI
# class, which this device never builds (every board's panel is on I2C).
# An entry standing in for it keeps that module's code out of RAM (1.1 KB
# on a 32-bit board with ROMFS, 1.6 KB without). Only when nothing loaded
# it first: a program that did wants the real one.
if "adafruit_bus_device.spi_device" not in sys.modules:
    sys.modules["adafruit_bus_device.spi_device"] = None  # pyright: ignore[reportArgumentType]  (a stand-in, not a module)

from adafruit_ssd1306 import SSD1306_I2C  # noqa: E402  (after the entry above)

try:
    from micropython import const
except ImportError:  # CPython

    # The same shim as shared_rules/ticks.py (which explains the leading
    # double underscore: positional-only, like the stub's const(expr, /)).
    def const(__expr):
        return __expr


_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_CTRL_COMMANDS = const(0x00)  # Co=0, D/C#=0: the rest of the transaction is commands
_CTRL_DATA = const(0x40)  # Co=0, D/C#=1: the rest of the transaction is display data


class Oled(SSD1306_I2C):
    """SSD1306 over I2C whose show() sends only the changed pages and columns.

    Draw with the framebuf methods the driver exposes (fill, pixel, text,
    fill_rect, rect, hline, vline, line, blit, scroll), then call show().
    contrast(), invert(), poweroff() and poweron() come from the driver.
    """

    def __init__(self, i2c, width=128, height=64, addr=0x3C, external_vcc=False, reset=None):
        if width < 1 or width > 128 or height < 8 or height > 64 or height % 8:
            raise ValueError("Oled: %dx%d is not an SSD1306 panel size (width 1..128, height 8..64 in steps of 8)" % (width, height))
        # The driver's constructor initialises the panel and calls show(),
        # so everything show() needs must exist before super().__init__.
        self._shadow = bytearray((height // 8) * width)
        self._full = True  # panel RAM unknown: the first show() sends everything
        self._win = bytearray(7)
        self._win[0] = _CTRL_COMMANDS
        self._win[1] = _SET_COL_ADDR
        self._win[4] = _SET_PAGE_ADDR
        self._col_offset = (128 - width) // 2  # narrow panels sit in the middle columns
        self._cur_pages = []  # per-page views of the frame and the shadow, made at the first show()
        self._old_pages = []
        self.sent_bytes = 0  # every byte this object put on the bus in show(), control bytes included
        self.sent_transactions = 0
        super().__init__(width, height, i2c, addr=addr, external_vcc=external_vcc, reset=reset)

    def invalidate(self):
        """Forget what the panel holds; the next show() sends the whole frame.

        Call after anything that loses or scrambles the panel's RAM
        (a power cycle of the module, a bus error the caller swallowed).
        """
        self._full = True

    def rotate(self, rotate):
        """Rotate 0/180 degrees. Segment remap applies to RAM written after the
        command, so the whole frame must be sent again."""
        super().rotate(rotate)
        self._full = True

    def show(self):
        """Send the pages and columns that changed since the last show()."""
        if not self._cur_pages:
            self._make_views()
        try:
            if self._full:
                self._send_all()
            else:
                self._send_changes()
        except Exception:
            self._full = True
            raise

    # -- internals ---------------------------------------------------------
    def _make_views(self):
        width = self.width
        frame = memoryview(self.buffer)
        shadow = memoryview(self._shadow)
        cur = []
        old = []
        for page in range(self.pages):
            start = page * width
            cur.append(frame[1 + start : 1 + start + width])
            old.append(shadow[start : start + width])
        self._cur_pages = cur
        self._old_pages = old

    def _send_all(self):
        self._window(0, self.width - 1, 0, self.pages - 1)
        self._write(self.buffer, 0, len(self.buffer))  # buffer[0] is the 0x40 control byte
        self._shadow[:] = memoryview(self.buffer)[1:]
        self._full = False

    def _send_changes(self):
        cur = self._cur_pages
        old = self._old_pages
        pages = self.pages
        width = self.width
        page = 0
        while page < pages:
            if cur[page] == old[page]:
                page += 1
                continue
            last = page
            while last + 1 < pages and cur[last + 1] != old[last + 1]:
                last += 1
            # Narrow the run to the union of its changed columns.
            first_col = width
            last_col = -1
            for p in range(page, last + 1):
                a = cur[p]
                b = old[p]
                if first_col > 0 and a[:first_col] != b[:first_col]:
                    first_col = _first_diff(a, b, 0, first_col)
                if last_col < width - 1 and a[last_col + 1 :] != b[last_col + 1 :]:
                    last_col = _last_diff(a, b, last_col + 1, width)
            self._window(first_col, last_col, page, last)
            if first_col == 0 and last_col == width - 1:
                # Whole rows: the run is contiguous in the frame buffer.
                self._send_data(1 + page * width, (last - page + 1) * width)
            else:
                # Horizontal mode wraps to first_col on the next page by itself,
                # so each page's slice simply follows the previous one.
                count = last_col - first_col + 1
                for p in range(page, last + 1):
                    self._send_data(1 + p * width + first_col, count)
            for p in range(page, last + 1):
                old[p][:] = cur[p]
            page = last + 1

    def _window(self, first_col, last_col, first_page, last_page):
        win = self._win
        win[2] = first_col + self._col_offset
        win[3] = last_col + self._col_offset
        win[5] = first_page
        win[6] = last_page
        self._write(win, 0, 7)

    def _send_data(self, index, count):
        """Send buffer[index:index+count] as display data, borrowing the byte
        before it for the control byte so nothing is copied."""
        buf = self.buffer
        saved = buf[index - 1]
        buf[index - 1] = _CTRL_DATA
        try:
            self._write(buf, index - 1, index + count)
        finally:
            buf[index - 1] = saved

    def _write(self, buf, start, end):
        with self.i2c_device:
            self.i2c_device.write(buf, start=start, end=end)
        self.sent_bytes += end - start
        self.sent_transactions += 1


def _first_diff(a, b, lo, hi):
    """Index of the first differing byte of a and b in [lo, hi), which must
    hold one. Bisection on slice comparisons (each makes two small memoryview
    objects) down to 8 bytes, then a short scan of at most 8 indexings, which
    allocate nothing."""
    while hi - lo > 8:
        mid = (lo + hi) >> 1
        if a[lo:mid] != b[lo:mid]:
            hi = mid
        else:
            lo = mid
    while a[lo] == b[lo]:
        lo += 1
    return lo


def _last_diff(a, b, lo, hi):
    """Index of the last differing byte of a and b in [lo, hi), which must hold one."""
    while hi - lo > 8:
        mid = (lo + hi) >> 1
        if a[mid:hi] != b[mid:hi]:
            lo = mid
        else:
            hi = mid
    hi -= 1
    while a[hi] == b[hi]:
        hi -= 1
    return hi
