"""An SSD1306 OLED controller emulated from its I2C byte stream.

The simulator's display is not a copy of the firmware's frame buffer: the
firmware's real driver (adafruit_ssd1306 through firmware/oled.py) writes to
a virtual I2C bus, and this class decodes those write transactions the way
the chip does. So a wrong window, a lost command argument or a partial update
that forgets a page shows up on the simulated panel exactly as it would on a
real one.

What is modelled (SSD1306 datasheet, section 8.1.5 and chapter 10):

* Control bytes. Each transaction starts with a control byte: Co=0 means
  every following byte is a command (D/C#=0, 0x00) or display data (D/C#=1,
  0x40); Co=1 (0x80 command, 0xC0 data) means one byte follows, then another
  control byte.
* Command decoding with argument counts, so an argument byte is never taken
  for a command. A multi-byte command may be split over several transactions
  (adafruit_ssd1306 sends every byte, arguments included, as its own
  0x80-prefixed transaction); the pending command survives between them.
* Addressing modes (0x20): horizontal, vertical and page; column window
  (0x21) and page window (0x22) for the first two; page (0xB0-0xB7) and
  column nibbles (0x00-0x0F, 0x10-0x1F) for page mode; the RAM pointer
  persists across transactions and wraps as the chip wraps it.
* Display on/off (0xAE/0xAF), contrast (0x81), invert (0xA6/0xA7), entire
  display on (0xA4/0xA5), segment remap (0xA0/0xA1: applies to data written
  afterwards, as on the chip), COM scan direction (0xC0/0xC8: applies at
  once), multiplex ratio (0xA8: only that many COMs are driven, the other
  rows stay dark), display offset (0xD3), start line (0x40-0x7F), charge
  pump (0x8D: with the internal supply and the pump off, the panel stays
  dark).
* Recorded but without visual effect: clock divide (0xD5), pre-charge
  (0xD9), COM pins configuration (0xDA; assumed to match the panel), VCOMH
  (0xDB), IREF (0xAD), scrolling (0x26/0x27/0x29/0x2A/0xA3/0x2E/0x2F),
  fade/blink (0x23), zoom (0xD6), NOP (0xE3).
* Anything else is counted and recorded in `unknown`, never raised: the
  emulator must survive whatever a buggy firmware sends.

Panel geometry: a module is mounted so that the configuration every driver
sends (0xA1 segment remap, 0xC8 COM scan) shows an upright image, with column
address c at x = c - (128 - width) // 2. With 0xA0/0xC0 the picture appears
mirrored/upside down, as on the real module.

Bus accounting: every write or read transaction addressed to this device is
counted, with its bytes (control bytes included, the address byte not);
`bus_bits()` turns that into bit times on the wire.
"""

from collections import deque

HORIZONTAL = "horizontal"
VERTICAL = "vertical"
PAGE = "page"
_MODES = (HORIZONTAL, VERTICAL, PAGE)

# Bit times per I2C transaction besides its data bytes: START, the address
# byte with its ACK (9), STOP.
TRANSACTION_OVERHEAD_BITS = 11
BITS_PER_BYTE = 9  # eight data bits and the ACK

_RECORD_LIMIT = 100  # entries kept in `unknown` / `problems`

# Commands with a fixed opcode: opcode -> (name, number of argument bytes).
_COMMANDS = {
    0x20: ("memory_mode", 1),
    0x21: ("column_window", 2),
    0x22: ("page_window", 2),
    0x23: ("fade_blink", 1),
    0x26: ("scroll_right", 6),
    0x27: ("scroll_left", 6),
    0x29: ("scroll_vertical_right", 5),
    0x2A: ("scroll_vertical_left", 5),
    0x2E: ("scroll_stop", 0),
    0x2F: ("scroll_start", 0),
    0x81: ("contrast", 1),
    0x8D: ("charge_pump", 1),
    0xA0: ("segment_remap", 0),
    0xA1: ("segment_remap", 0),
    0xA3: ("vertical_scroll_area", 2),
    0xA4: ("entire_display", 0),
    0xA5: ("entire_display", 0),
    0xA6: ("invert", 0),
    0xA7: ("invert", 0),
    0xA8: ("multiplex", 1),
    0xAD: ("iref", 1),
    0xAE: ("display", 0),
    0xAF: ("display", 0),
    0xC0: ("com_scan", 0),
    0xC8: ("com_scan", 0),
    0xD3: ("display_offset", 1),
    0xD5: ("clock_divide", 1),
    0xD6: ("zoom", 1),
    0xD9: ("precharge", 1),
    0xDA: ("com_pins", 1),
    0xDB: ("vcomh", 1),
    0xE3: ("nop", 0),
}


class Ssd1306Emulator:
    """One SSD1306 on a virtual I2C bus.

    Feed it with write(addr, data) per I2C write transaction (and read() for
    status reads). Read the panel with lit(x, y), `pixels` or vlsb(); the
    chip state is in plain attributes (display_on, contrast, inverted, ...).
    """

    def __init__(self, width=128, height=64, addr=0x3C, external_vcc=False):
        if not (1 <= width <= 128):
            raise ValueError("Ssd1306Emulator: width %r is outside 1..128" % (width,))
        if not (8 <= height <= 64) or height % 8:
            raise ValueError("Ssd1306Emulator: height %r is not 8..64 in steps of 8" % (height,))
        if not (0 <= addr <= 0x7F):
            raise ValueError("Ssd1306Emulator: I2C address %r is not 7-bit" % (addr,))
        self.width = width
        self.height = height
        self.addr = addr
        self.external_vcc = external_vcc
        self.reset()

    # -- state ----------------------------------------------------------------
    def reset(self):
        """Power-on reset values (datasheet chapter 10), counters cleared.

        The RAM of a real chip holds noise after power-up; zeros here keep
        the emulator deterministic."""
        self.ram = bytearray(8 * 128)  # page-major, indexed by segment
        self.display_on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.seg_remap = False
        self.com_remap = False
        self.mux = 64  # multiplex ratio, in rows
        self.display_offset = 0
        self.start_line = 0
        self.mode = PAGE
        self.col_start, self.col_end = 0, 127
        self.page_start, self.page_end = 0, 7
        self.col = 0
        self.page = 0
        self.charge_pump = False
        self.clock_divide = 0x80
        self.precharge = 0x22
        self.com_pins = 0x12
        self.vcomh = 0x20
        self.iref = None
        self.scrolling = False
        self.scroll_setup = None
        self.fade = 0
        self.zoom = False
        self._pending = None  # opcode waiting for arguments
        self._args = []
        self.log = deque((), 512)  # recent decoded commands: (name, opcode, args); positional, as MicroPython's deque takes it
        self.reset_counters()

    def reset_counters(self):
        """Zero the bandwidth counters and the unknown/problem records."""
        self.transactions = 0
        self.bytes = 0
        self.control_bytes = 0
        self.command_bytes = 0  # opcodes and their argument bytes
        self.data_bytes = 0  # bytes written to display RAM
        self.read_bytes = 0
        self.ignored_transactions = 0  # addressed to another device
        self.unknown_count = 0
        self.unknown = []  # (transaction number, opcode) of unknown commands
        self.problem_count = 0
        self.problems = []  # descriptions of malformed input (bad control bytes, invalid arguments)

    def counters(self):
        """The bandwidth counters as a dict (for benchmarks and logs)."""
        return {
            "transactions": self.transactions,
            "bytes": self.bytes,
            "control_bytes": self.control_bytes,
            "command_bytes": self.command_bytes,
            "data_bytes": self.data_bytes,
            "read_bytes": self.read_bytes,
            "unknown_commands": self.unknown_count,
            "problems": self.problem_count,
            "bus_bits": self.bus_bits(),
        }

    def bus_bits(self):
        """Bit times these transactions took on the wire: 9 per byte (with
        ACK) plus START, address byte and STOP for each transaction."""
        return BITS_PER_BYTE * (self.bytes + self.read_bytes) + TRANSACTION_OVERHEAD_BITS * self.transactions

    # -- the bus side ---------------------------------------------------------
    def write(self, addr, data):
        """One I2C write transaction. Returns True if this device ACKed its
        address (False: another device's address, nothing happens)."""
        if addr != self.addr:
            self.ignored_transactions += 1
            return False
        data = bytes(data)
        self.transactions += 1
        self.bytes += len(data)
        i = 0
        n = len(data)
        while i < n:
            control = data[i]
            i += 1
            self.control_bytes += 1
            if control & 0x3F:
                self._problem("control byte 0x%02X has reserved bits set" % control)
            is_data = bool(control & 0x40)
            if control & 0x80:  # Co=1: exactly one byte, then a new control byte
                if i < n:
                    self._byte(data[i], is_data)
                    i += 1
            else:  # Co=0: the rest of the transaction
                while i < n:
                    self._byte(data[i], is_data)
                    i += 1
        return True

    def read(self, addr, count):
        """One I2C read transaction: the status byte (bit 6 set while the
        display is off), repeated. None if the address is not ours."""
        if addr != self.addr:
            self.ignored_transactions += 1
            return None
        self.transactions += 1
        self.read_bytes += count
        return bytes([0x40 if not self.display_on else 0x00]) * count

    def _byte(self, value, is_data):
        if is_data:
            self.data_bytes += 1
            self._ram_write(value)
        else:
            self.command_bytes += 1
            self._command_byte(value)

    def _problem(self, text):
        self.problem_count += 1
        if len(self.problems) < _RECORD_LIMIT:
            self.problems.append(text)

    # -- commands -------------------------------------------------------------
    def _command_byte(self, value):
        if self._pending is not None:
            self._args.append(value)
            if len(self._args) == _COMMANDS[self._pending][1]:
                opcode, args = self._pending, self._args
                self._pending, self._args = None, []
                self._execute(opcode, args)
            return
        if value in _COMMANDS:
            if _COMMANDS[value][1]:
                self._pending = value
                self._args = []
            else:
                self._execute(value, [])
        elif value <= 0x0F:
            self._record("column_low", value, [])
            if self.mode == PAGE:
                self.col = (self.col & 0xF0) | (value & 0x0F)
        elif value <= 0x1F:
            self._record("column_high", value, [])
            if self.mode == PAGE:
                self.col = ((value & 0x07) << 4) | (self.col & 0x0F)
        elif 0x40 <= value <= 0x7F:
            self._record("start_line", value, [])
            self.start_line = value & 0x3F
        elif 0xB0 <= value <= 0xB7:
            self._record("page", value, [])
            if self.mode == PAGE:
                self.page = value & 0x07
        else:
            self.unknown_count += 1
            if len(self.unknown) < _RECORD_LIMIT:
                self.unknown.append((self.transactions, value))
            self._record("unknown", value, [])

    def _record(self, name, opcode, args):
        self.log.append((name, opcode, tuple(args)))

    def _execute(self, opcode, args):
        name = _COMMANDS[opcode][0]
        self._record(name, opcode, args)
        if opcode == 0x20:
            mode = args[0] & 0x03
            if mode == 3:
                self._problem("memory mode 0x%02X is invalid" % args[0])
            else:
                self.mode = _MODES[mode]
        elif opcode == 0x21:
            self.col_start, self.col_end = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col_start
        elif opcode == 0x22:
            self.page_start, self.page_end = args[0] & 0x07, args[1] & 0x07
            self.page = self.page_start
        elif opcode == 0x81:
            self.contrast = args[0]
        elif opcode == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif opcode in (0xA0, 0xA1):
            self.seg_remap = opcode == 0xA1
        elif opcode in (0xA4, 0xA5):
            self.entire_on = opcode == 0xA5
        elif opcode in (0xA6, 0xA7):
            self.inverted = opcode == 0xA7
        elif opcode == 0xA8:
            rows = (args[0] & 0x3F) + 1
            if rows < 16:
                self._problem("multiplex ratio %d rows is invalid (16..64)" % rows)
            else:
                self.mux = rows
        elif opcode in (0xAE, 0xAF):
            self.display_on = opcode == 0xAF
        elif opcode in (0xC0, 0xC8):
            self.com_remap = opcode == 0xC8
        elif opcode == 0xD3:
            self.display_offset = args[0] & 0x3F
        elif opcode == 0xD5:
            self.clock_divide = args[0]
        elif opcode == 0xD9:
            self.precharge = args[0]
        elif opcode == 0xDA:
            self.com_pins = args[0]
        elif opcode == 0xDB:
            self.vcomh = args[0]
        elif opcode == 0xAD:
            self.iref = args[0]
        elif opcode == 0x23:
            self.fade = args[0]
        elif opcode == 0xD6:
            self.zoom = bool(args[0] & 0x01)
        elif opcode in (0x26, 0x27, 0x29, 0x2A, 0xA3):
            self.scroll_setup = (opcode, tuple(args))
        elif opcode == 0x2E:
            self.scrolling = False
        elif opcode == 0x2F:
            self.scrolling = True

    # -- display RAM ------------------------------------------------------------
    def _ram_write(self, value):
        seg = 127 - self.col if self.seg_remap else self.col
        self.ram[self.page * 128 + seg] = value
        if self.mode == HORIZONTAL:
            if self.col >= self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.col += 1
        elif self.mode == VERTICAL:
            if self.page >= self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col >= self.col_end else self.col + 1
            else:
                self.page += 1
        else:  # page mode: the column wraps, the page stays
            self.col = (self.col + 1) & 0x7F

    # -- the panel ----------------------------------------------------------------
    @property
    def powered(self):
        """True if the panel is lit at all: display on and a supply (charge
        pump on, or an external VCC)."""
        return self.display_on and (self.charge_pump or self.external_vcc)

    def _ram_row(self, y):
        """RAM row shown on panel row y, or None if no row is driven there."""
        com = self.height - 1 - y
        scan = self.mux - 1 - com if self.com_remap else com
        if scan < 0 or scan >= self.mux:
            return None
        return (scan + self.start_line + self.display_offset) & 0x3F

    def _segment(self, x):
        return 127 - (128 - self.width) // 2 - x

    def lit(self, x, y):
        """True if the panel pixel at (x, y) is lit (0, 0 is top left)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("pixel (%r, %r) is outside the %dx%d panel" % (x, y, self.width, self.height))
        if not self.powered:
            return False
        row = self._ram_row(y)
        if row is None:
            return False
        if self.entire_on:
            return True
        bit = (self.ram[(row >> 3) * 128 + self._segment(x)] >> (row & 7)) & 1
        return bool(bit ^ self.inverted)

    @property
    def pixels(self):
        """The visible panel: `height` rows of `width` values, 1 = lit."""
        rows = []
        segs = [self._segment(x) for x in range(self.width)]
        ram = self.ram
        flip = 1 if self.inverted else 0
        for y in range(self.height):
            line = bytearray(self.width)
            if self.powered:
                row = self._ram_row(y)
                if row is not None:
                    if self.entire_on:
                        line[:] = b"\x01" * self.width
                    else:
                        base = (row >> 3) * 128
                        shift = row & 7
                        line = bytearray(((ram[base + s] >> shift) & 1) ^ flip for s in segs)
            rows.append(line)
        return rows

    def vlsb(self):
        """The visible panel packed like the driver's frame buffer (MONO_VLSB:
        one byte per column per 8-row page, bit 0 at the top), for comparing
        with it directly."""
        out = bytearray((self.height // 8) * self.width)
        for y, line in enumerate(self.pixels):
            base = (y >> 3) * self.width
            bit = 1 << (y & 7)
            for x in range(self.width):
                if line[x]:
                    out[base + x] |= bit
        return bytes(out)
