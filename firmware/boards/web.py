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
  makes them drift. A page opened with ?clock=test hands over its own
  clock instead (webhost.test_ms()), which the tests move on.
- The wall clock: the page hands over the browser's time at boot
  (webhost.local_epoch(), local time counted as if UTC, the convention a
  PC's sync sets), as a sync would, so every game is dated.
- Records out: each finished game's journal, and its BG Stats link built
  by host/bgstats.py (shipped with the page) from a replay of the journal.
- Flash: the data folder is in the port's in-memory filesystem; the page
  mirrors every change to the browser's storage as it happens and puts it
  back before the next boot, like a board's flash across a power cut.
"""

import json
import os
import sys
import time

import ssd1306_emu  # pyright: ignore[reportMissingImports]  (host/sim's, shipped with the page by web/build.py)
import webhost  # pyright: ignore[reportMissingImports]  (registered by the page: web/page/app.mjs)
from uctypes import addressof

from i2c_adapter import BusioI2C
from loader import Moment, drop
from oled import Oled
from shared_rules import display_name


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


def _big_text(big):
    """ui.bigdigits' draw that also keeps its text on the display's list,
    with the box it covers, so the countdown and the big numbers reach the
    screen reader too."""
    draw = big.draw
    width = big.text_width

    def drawn(fb, text, x, y, h=32, c=1):
        keep = getattr(fb, "keep", None)
        if keep is not None:
            keep(y, x, text, False, width(text, h), h)
        return draw(fb, text, x, y, h, c)

    return drawn


def _wrap_bigdigits():
    """Wrap the loaded ui.bigdigits' draw once. The mark is set on the
    module, not on the function: MicroPython drops an attribute set on a
    closure without a word, and a mark that never sticks wrapped draw once
    more on every frame, until a held button's frames made a chain of
    calls deep enough to exhaust the interpreter's stack (issue 21). The
    app loads and lets go ui.bigdigits as screens need it; a fresh copy
    has no mark, so it is wrapped in its turn."""
    big = sys.modules.get("ui.bigdigits")
    if big is not None and not getattr(big, "_web_text", False):
        setattr(big, "draw", _big_text(big))
        setattr(big, "_web_text", True)
        return True
    return False


# A vertical line at least this tall splits the panel into two columns
# (the bidding and playing minutes: the clock on the left, the bid on the
# right), read one after the other.
_COLUMN_LINE = 24


class TextOled(Oled):
    """The firmware's Oled, also keeping the strings drawn since the last
    full clear, as (y, x, text, selected, width, height), and what the
    panel shows of them: a string a later filled rectangle covers (a
    toast's box, the small clock over the title's end) is gone from the
    panel, so it is gone from the text too, and a tall vertical line
    splits the panel into columns read one at a time."""

    def __init__(self, *args, **kw):
        self.drawn = []
        self.column = None  # (x, top, bottom) of the line between two columns
        self.retell = False  # big digits were drawn unseen: draw the frame again
        self.told = []  # the strings of the last frame shown
        self.told_seq = 0  # counts the frames whose strings changed
        super().__init__(*args, **kw)

    def fill(self, c):
        self.drawn = []
        self.column = None
        _wrap_bigdigits()  # checked here, where every frame starts
        super().fill(c)

    def show(self):
        # a screen that imports ui.bigdigits in its draw() drew this
        # frame's big digits before they could be noted: the board asks
        # the app for the same frame again (board.hand_over)
        if _wrap_bigdigits():
            self.retell = True
        if self.drawn != self.told:
            # the same pixels may carry new text (that frame drawn again):
            # the page reads the text when this count moves too
            self.told = list(self.drawn)
            self.told_seq += 1
        super().show()

    def keep(self, y, x, s, selected, w=None, h=8):
        """Note a string drawn at (x, y), `w` x `h` pixels (8 x 8 a
        character by default); one drawn at the same place replaces it
        (a screen may redraw a part of the panel without a clear)."""
        drawn = self.drawn
        for i in range(len(drawn)):
            if drawn[i][0] == y and drawn[i][1] == x:
                del drawn[i]
                break
        drawn.append((y, x, s, selected, 8 * len(s) if w is None else w, h))

    def text(self, s, x, y, c=1, *rest):
        self.keep(y, x, s, c == 0 and y >= 9)  # dark text below the title bar: the selected row
        super().text(s, x, y, c, *rest)

    def fill_rect(self, x, y, w, h, c):
        self.cover(x, y, w, h)
        super().fill_rect(x, y, w, h, c)

    def vline(self, x, y, h, c):
        if h >= _COLUMN_LINE:
            self.column = (x, y, y + h)
        super().vline(x, y, h, c)

    def cover(self, x, y, w, h):
        """A filled rectangle hides what was drawn under it: the strings
        whose rows it covers lose the characters wholly inside it (big
        digits only when wholly covered)."""
        drawn = self.drawn
        if not drawn:
            return  # the usual case: a box drawn before its text
        keep = []
        for item in drawn:
            iy, ix, s, sel, iw, ih = item
            if iy < y or iy + ih > y + h or ix + iw <= x or ix >= x + w:
                keep.append(item)  # not covered top to bottom, or beside it
                continue
            if ih > 8 or len(s) * 8 != iw:
                if ix < x or ix + iw > x + w:
                    keep.append(item)
                continue
            left = ""
            right = ""
            for i in range(len(s)):
                cx = ix + 8 * i
                if cx >= x and cx + 8 <= x + w:
                    continue  # wholly covered (a character partly covered is still seen)
                if cx < x:
                    left += s[i]
                else:
                    right += s[i]
            if left:
                keep.append((iy, ix, left, sel, 8 * len(left), ih))
            if right:
                rx = ix + 8 * (len(s) - len(right))
                keep.append((iy, rx, right, sel, 8 * len(right), ih))
        self.drawn = keep

    def lines(self):
        """The text on the panel, top to bottom, one line per text row; in
        two columns (a tall line between them) the left column's rows make
        one line and the right column's the next, so a screen reader says
        "58 PAUSED" and then "BID 35 P1", not "BID 58"."""
        col = self.column
        if col is None:
            return self._rows(self.drawn)
        cx, top, bottom = col
        above, left, right, below = [], [], [], []
        for item in self.drawn:
            y, x, ih = item[0], item[1], item[5]
            if y + ih <= top:
                above.append(item)
            elif y >= bottom:
                below.append(item)
            elif x < cx:
                left.append(item)
            else:
                right.append(item)
        out = self._rows(above)
        for part in (left, right):
            rows = self._rows(part)
            if rows:
                out.append(" ".join(rows))
        return out + self._rows(below)

    @staticmethod
    def _rows(items):
        rows = []
        for y, x, s, sel, _w, _h in sorted(items):
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
        self._told = -1  # the display's told_seq then
        self._frame = None
        self._seg = None  # panel column -> RAM segment, from the emulator
        # the page's test clock, asked for once: None on a page that runs on
        # its own clock, so a pass makes no call to the page for the time
        self._test_ms = webhost.test_ms if webhost.test_ms() is not None else None

    def ticks_ms(self):
        return time.ticks_ms() if self._test_ms is None else self._test_ms()

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
        referenced here until the next change, so the page can read it.
        A frame whose text changed on the same pixels counts as a change:
        the page reads the text when it reads the panel."""
        emu = self.emu
        told = self.display.told_seq
        if emu.transactions == self._seen and told == self._told:
            return 0
        self._seen = emu.transactions
        self._told = told
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
        with Moment():
            from link.hooks import Hooks

            Hooks(app).set_clock(webhost.local_epoch())  # before boot: a resumed game's next events are dated
        app.boot()
        self.app = app
        self._links = {}  # journal name -> (size, described())

        d = self.display

        def step():
            if not app.running:
                return False
            app.step()
            if d.retell:
                d.retell = False
                app.dirty = True
            if not app.running:
                app.shutdown()
            return app.running

        webhost.drive(step)

    def described(self, path, name):
        """What the page says of the game in this journal: {"title": the
        game as a player knows it (the game, its players, who won or the
        round it stopped in, when), "finished": bool, "bgstats": its BG
        Stats link or None}. One replay by the rules gives it all (a
        journal the rules reject is named from its header, and its
        download lets the PC name the fault). Kept per journal until its
        size changes: the replay is the costly part of the list."""
        import bgstats  # pyright: ignore[reportMissingImports]  (host/bgstats.py, shipped by web/build.py)

        try:
            size = os.stat(path)[6]
        except OSError:
            size = -1
        known = self._links.get(name)
        if known is not None and known[0] == size:
            return known[1]
        about = {"title": name[:-6], "finished": False, "bgstats": None}
        try:
            with open(path, "rb") as f:
                done = bgstats.replay_journal(f)
            if done is not None:
                about["title"] = game_title(done, bgstats.date_text)
                about["finished"] = bool(done["match"].winners())
                g = bgstats.replayed_summary(done, self.info["id"], "moontable", name[:-6], _utc_offset())
                if g is not None:
                    about["bgstats"] = bgstats.link(bgstats.play(g))
        except Exception as e:
            print("moontable: could not replay %s: %s" % (name, e))
            about["title"] = header_title(path, name, e)
        self._links[name] = (size, about)
        return about

    def records(self):
        """The games on flash but the one in progress, as JSON text for
        the page's download list: [{"id", "file", "title", "finished",
        "bgstats"}], newest first (see described())."""
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
            about = self.described(path, name)
            out.append({"id": name[:-6], "file": path, "title": about["title"], "finished": about["finished"],
                        "bgstats": about["bgstats"]})
        out.reverse()
        if self.app.protocol is None:
            # The line reader and the replay came in for this list: they go
            # with it (a game's session leaves the reader to whoever loaded
            # it), unless the serial protocol, which holds the reader, is on.
            drop(("shared_rules.log", "shared_rules.wire_read"))
        return json.dumps(out)


def game_title(done, date_text):
    """A replayed game (bgstats.replay_journal) as a player knows it, its
    end written by `date_text` (bgstats'):
    "Moonstar with Ann, Bob, Cy: Bob won after 6 rounds; 2026-11-24
    09:40", or "...: not finished, stopped in round 3; ...". Who won is
    the rules' (Match.winners: a partnership names both partners)."""
    match = done["match"]
    header = match.header
    players = list(header["players"])
    n = match.state.get("round", 0)
    won = match.winners()
    if won:
        names = " & ".join(players[p] for p in won)
        result = "%s won after %d round%s" % (names, n, "" if n == 1 else "s")
    else:
        result = "not finished, stopped in round %d" % (n + 1)
    title = "%s with %s: %s" % (display_name(header["game"]), ", ".join(players), result)
    from moontable.times import game_times  # pyright: ignore[reportMissingImports]  (shipped by web/build.py)

    end = game_times(done["times"])["end"]
    if end is not None:
        title += "; " + date_text(end)[:16]
    return title


def header_title(path, name, err):
    """A journal the rules could not replay, named from its header line
    where it can be read, and the reason."""
    from shared_rules.wire_read import decode

    title = name[:-6]
    try:
        with open(path, "rb") as f:
            head = decode(f.readline())
        title = "%s with %s" % (display_name(head.get("game", "")), ", ".join(head.get("players", ())))
    except Exception:
        pass  # a damaged header still downloads: the PC names the fault
    return "%s: cannot be replayed here (%s); import it on a PC to see where" % (title, err)


def setup(cfg):
    return WebBoard(cfg)


def _utc_offset():
    """The browser's UTC offset in seconds east (the page's webhost), for a
    BG Stats playDate in UTC; None from a page without it."""
    try:
        return int(webhost.utc_offset())
    except Exception:  # an older page: playDate stays local time
        return None
