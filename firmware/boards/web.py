"""The board in a web page (web/page/device.mjs): MicroPython's WebAssembly
port in a browser, with the panel, the buttons and the buzzer on the page.

- The panel: the firmware's own driver (adafruit_ssd1306 through oled.py)
  writes to an I2C bus whose only device is the simulator's SSD1306
  emulator (host/sim/ssd1306_emu.py, shipped with the page), so the page
  and the terminal simulator decode the same command stream with the same
  code. The page reads the emulated panel (`panel()`), never the driver's
  frame buffer, and draws it on a canvas.
- The panel's text: every string drawn with text() since the last clear is
  kept, so the page can mirror the screen into an aria-live region for a
  screen reader (and the tests can read it). Text drawn dark on a lit band
  is the selected menu row; it is marked with "> ".
- Buttons, buzzer: the page's `webhost` module (buttons() -> mask,
  tone(freq), off()). The page feeds the mask with real press and release
  times; the firmware's buttons.py does the long press and repeat timing.
- The clock is time.ticks_ms(), the port's own monotonic clock: the page
  calls one loop pass per timer tick (hand_over), and the countdowns are the
  firmware's deadline arithmetic against this clock, so a late tick never
  makes them drift.
- The wall clock: the page hands over the browser's time at boot
  (webhost.local_epoch(), local time counted as if UTC, the convention a
  PC's sync sets), as a sync would, so every game is dated.
- Records out: each finished game's journal, and its BG Stats link built
  by host/bgstats.py (shipped with the page) from a replay of the journal.
- Flash: the data folder is in the port's in-memory filesystem; the page
  mirrors every change to the browser's storage as it happens and puts it
  back before the next boot, like a board's flash across a power cut.
"""

import os
import time

import webhost  # pyright: ignore[reportMissingImports]  (registered by the page: web/page/app.mjs)
from uctypes import addressof

from i2c_adapter import BusioI2C
from oled import Oled


class EmulatedBus:
    """machine.I2C's surface (writeto, readfrom_into, scan) with one
    device on it: the SSD1306 emulator."""

    def __init__(self, emu):
        self.emu = emu

    def writeto(self, addr, buf, stop=True):
        if not self.emu.write(addr, buf):
            raise OSError(19, "no I2C device at 0x%02x" % addr)
        return len(buf)

    def writevto(self, addr, bufs, stop=True):
        return self.writeto(addr, b"".join(bytes(b) for b in bufs), stop)

    def readfrom_into(self, addr, buf, stop=True):
        data = self.emu.read(addr, len(buf))
        if data is None:
            raise OSError(19, "no I2C device at 0x%02x" % addr)
        buf[:] = data

    def readfrom(self, addr, n, stop=True):
        buf = bytearray(n)
        self.readfrom_into(addr, buf)
        return bytes(buf)

    def scan(self):
        return [self.emu.addr]


def _big_text(draw):
    """bigdigits.draw that also keeps its text on the display's list, so
    the countdown and the big numbers reach the screen reader too."""

    def big(fb, text, x, y, h=32, c=1):
        keep = getattr(fb, "keep", None)
        if keep is not None:
            keep(y, x, text, False)
        return draw(fb, text, x, y, h, c)

    big.web_text = True
    return big


class TextOled(Oled):
    """The firmware's Oled, also keeping the strings drawn since the last
    full clear, as (y, x, text, selected)."""

    def __init__(self, *args, **kw):
        self.drawn = []
        super().__init__(*args, **kw)

    def fill(self, c):
        self.drawn = []
        # the app loads and unloads ui.bigdigits as screens need it: wrap
        # whichever copy is loaded (checked here, where every frame starts)
        import sys

        big = sys.modules.get("ui.bigdigits")
        if big is not None and not hasattr(big.draw, "web_text"):
            setattr(big, "draw", _big_text(big.draw))
        super().fill(c)

    def keep(self, y, x, s, selected):
        """Note a string drawn at (x, y); one drawn over it replaces it (a
        screen may redraw a part of the panel without a clear)."""
        drawn = self.drawn
        for i in range(len(drawn)):
            if drawn[i][0] == y and drawn[i][1] == x:
                drawn[i] = (y, x, s, selected)
                return
        drawn.append((y, x, s, selected))

    def text(self, s, x, y, c=1, *rest):
        self.keep(y, x, s, c == 0 and y >= 9)  # dark text below the title bar: the selected row
        super().text(s, x, y, c, *rest)

    def lines(self):
        """The text on the panel, top to bottom, one line per text row."""
        rows = []
        for y, x, s, sel in sorted(self.drawn):
            s = s.strip()
            if not s:
                continue
            if rows and abs(rows[-1][0] - y) < 4:
                rows[-1][1].append(s)
                rows[-1][2] = rows[-1][2] or sel
            else:
                rows.append([y, [s], sel])
        return [("> " if sel else "") + " ".join(parts) for _y, parts, sel in rows]


class PageButtons:
    def read(self):
        return webhost.buttons()


class PageBuzzer:
    def __init__(self, cfg):
        self.freq = cfg.get("buzzer", {}).get("freq", 2700)

    def tone(self, freq=None):
        webhost.tone(freq or self.freq)

    def off(self):
        webhost.off()


class WebBoard:
    """The Board surface (boards/__init__.py) in a web page."""

    def __init__(self, cfg):
        import ssd1306_emu  # pyright: ignore[reportMissingImports]  (host/sim's, shipped with the page by web/build.py)

        d = cfg.get("display", {})
        w, h = d.get("width", 128), d.get("height", 64)
        addr = cfg["i2c"].get("addr", 0x3C)
        self.emu = ssd1306_emu.Ssd1306Emulator(w, h, addr)
        self.display = TextOled(BusioI2C(EmulatedBus(self.emu)), w, h, addr)
        self.buttons = PageButtons()
        self.buzzer = PageBuzzer(cfg)
        self.cfg = cfg
        self.info = {"board": "web", "id": webhost.device_id()}
        self.storage_root = os.getcwd() + "/data"
        self._seen = -1  # emulator transactions when the panel was last read
        self._frame = None
        self._seg = None  # panel column -> RAM segment, from the emulator

    def ticks_ms(self):
        return time.ticks_ms()

    def idle(self, ms):
        # the page's timer is the pause between passes
        pass

    def read_byte(self):
        return None  # no USB serial in a page: records leave as downloads

    def write(self, data):
        pass

    def random32(self):
        return int.from_bytes(os.urandom(4), "big")

    def panel(self):
        """The emulated panel packed as MONO_VLSB (bit 0 at the top of each
        8-row page), as the address of bytes in this interpreter's memory,
        or 0 when nothing reached the panel since the last call. Kept
        referenced here until the next change, so the page can read it."""
        emu = self.emu
        if emu.transactions == self._seen:
            return 0
        self._seen = emu.transactions
        self._frame = self._packed()
        return addressof(self._frame)

    def _packed(self):
        """emu.vlsb(), faster: it goes pixel by pixel (~80 ms a frame in
        a browser), while in the usual state (lit, every panel row y shown
        from RAM row y) a panel byte is one RAM byte, taken from the
        segment the emulator's own _segment() maps its column to. Any
        other state (dark, all on, scrolled rows) is left to vlsb(). The
        tests check the two agree (panel_is_exact)."""
        emu = self.emu
        if not emu.powered or emu.entire_on or emu.width != 128 or emu.height != 64:
            return emu.vlsb()
        row = emu._ram_row
        for y in range(64):
            if row(y) != y:
                return emu.vlsb()
        seg = self._seg
        if seg is None:
            seg = self._seg = bytes(emu._segment(x) for x in range(128))
        ram = emu.ram
        out = bytearray(1024)
        flip = 0xFF if emu.inverted else 0
        for base in range(0, 1024, 128):
            for x in range(128):
                out[base + x] = ram[base + seg[x]] ^ flip
        return out

    def panel_is_exact(self):
        """True if the fast packing gives what the emulator's vlsb() does
        for the panel as it is now."""
        return bytes(self._packed()) == self.emu.vlsb()

    def text(self):
        """The panel's text for the screen reader (the page's aria-live
        region): what the app drew, or that the panel is dark."""
        if not self.emu.powered:
            return "Screen off: press a button to wake it."
        return "\n".join(self.display.lines())

    def hand_over(self, app):
        """Boot the app, then let the page call one loop pass at a time
        (main.py calls this instead of app.run): the port collects garbage
        only when a call from the page returns."""
        from loader import Moment

        with Moment():
            from link.hooks import Hooks

            Hooks(app).set_clock(webhost.local_epoch())  # before boot: a resumed game's next events are dated
        app.boot()
        self.app = app
        self._links = {}  # journal name -> (size, BG Stats link or None)

        def step():
            if not app.running:
                return False
            app.step()
            if not app.running:
                app.shutdown()
            return app.running

        webhost.drive(step)

    def bgstats_link(self, path, name):
        """The BG Stats createPlay link of the game in this journal, or None
        (not finished, or a journal the rules reject: the download still
        lets the PC name the fault). Kept per journal until its size
        changes: a replay is the costly part of the list."""
        import bgstats  # pyright: ignore[reportMissingImports]  (host/bgstats.py, shipped by web/build.py)

        try:
            size = os.stat(path)[6]
        except OSError:
            return None
        known = self._links.get(name)
        if known is not None and known[0] == size:
            return known[1]
        url = None
        try:
            with open(path, "rb") as f:
                g = bgstats.journal_summary(f, self.info["id"], "moontable", name[:-6], _utc_offset())
            if g is not None:
                url = bgstats.link(bgstats.play(g))
        except Exception as e:
            print("moontable: no BG Stats link for %s: %s" % (name, e))
        self._links[name] = (size, url)
        return url

    def records(self):
        """The finished games on flash, as JSON text for the page's
        download list: [{"id", "file", "title", "bgstats"}], newest first,
        "bgstats" being the game's BG Stats link or null. The game in
        progress (the journal's current one) is not finished."""
        import json

        from shared_rules import display_name
        from shared_rules.wire_read import decode

        root = self.storage_root
        cur = self.app.journal.current()
        out = []
        try:
            names = sorted(os.listdir(root + "/games"))
        except OSError:
            names = []
        for name in names:
            if not name.endswith(".jsonl") or name[:-6] == cur:
                continue
            path = root + "/games/" + name
            title = name[:-6]
            try:
                with open(path, "rb") as f:
                    head = decode(f.readline())
                title = "%s: %s" % (display_name(head.get("game", "")), ", ".join(head.get("players", ())))
            except Exception:
                pass  # a damaged header still downloads: the PC names the fault
            out.append({"id": name[:-6], "file": path, "title": title, "bgstats": self.bgstats_link(path, name)})
        out.reverse()
        if self.app.protocol is None:
            # The line reader and the replay came in for this list: they go
            # with it (a game's session leaves the reader to whoever loaded
            # it), unless the serial protocol, which holds the reader, is on.
            from loader import drop

            drop(("shared_rules.log", "shared_rules.wire_read"))
        return json.dumps(out)


def setup(cfg):
    return WebBoard(cfg)


def _utc_offset():
    """The browser's UTC offset in seconds east (the page's webhost), for a
    BG Stats playDate in UTC; None from a page without it."""
    try:
        return int(webhost.utc_offset())
    except Exception:  # an older page: playDate stays local time
        return None
