"""A Raspberry Pi Pico on the desk, emulated: the stock MicroPython firmware
running instruction by instruction on rp2040py, wired as hardware/boards/
pico.json wires a real one.

- The SSD1306 answers at its address on the hardware I2C peripheral the pin
  map names, and its byte stream is decoded by the simulator's own SSD1306
  emulator (host/sim/ssd1306_emu.py), so a frame here is comparable pixel
  for pixel with a frame of the unix-port simulator.
- The four buttons are driven on their pins (pressed = low, as wired to GND
  with the pull-ups); the buzzer is read back from the PWM slice of its pin.
- The flash filesystem is a littlefs image holding exactly what
  `moontable flash --board pico` copies: host/deploy.py's build() and its
  manifest, so the layout is never written down twice.
- USB CDC is the console: bytes in and out are readable from a test, and
  `pty()` bridges it to a pseudo-terminal so the PC tools (`moontable sync
  --port`) talk to the chip as to a real board.
- Time is the chip's: `run(ms)` steps the emulator by emulated time (125 MHz
  cycle cost per instruction, idle time skipped), so timings measured here
  are what a Pico would show, independent of this machine's load.

Where rp2040py 0.3.6 is wrong about the hardware the fix is here, small, and
listed in tests/board/README.md.
"""

import os
import random
from pathlib import Path

from moontable.sim.ssd1306_emu import Ssd1306Emulator

ROOT = Path(__file__).resolve().parents[2]
UF2_NAME = "RPI_PICO-20241129-v1.24.1.uf2"
UF2_URL = "https://micropython.org/download/RPI_PICO/ (v1.24.1, %s)" % UF2_NAME
PIN_MAP = ROOT / "hardware" / "boards" / "pico.json"
BUTTONS = ("up", "down", "ok", "back")

# The SDK's 400 kHz setting gives about 376 kHz on the wire (measured on a
# Pico: SCL's low and high counts round up), so one bit takes this long.
I2C_BIT_NS = 1e9 / 376_000
# MicroPython's RP2 flash filesystem (ports/rp2: 1.4 MB at 0x100a0000 on
# the 2 MB Pico): where the image goes, its block size and count.
FS_START = 0xA0000
FS_BLOCK = 4096
FS_BLOCKS = 352
ROSC_RANDOMBIT = 0x1C
IC_RAW_INTR_STAT = 0x34


def find_uf2():
    """Path of the stock firmware, or None: $MOONTABLE_PICO_UF2, else
    ../shared/firmware/ beside the checkout."""
    env = os.environ.get("MOONTABLE_PICO_UF2")
    if env:
        return Path(env) if Path(env).is_file() else None
    p = ROOT.parent / "shared" / "firmware" / UF2_NAME
    return p if p.is_file() else None


def flash_files(board="pico"):
    """dest path -> bytes: what `moontable flash --board pico` leaves on
    the board's filesystem, the manifest included (host/deploy.py)."""
    from moontable import deploy

    files = deploy.build(board)
    files[deploy.MANIFEST] = deploy.manifest_bytes(deploy.make_manifest(board, files))
    return files


_APP_IMAGE = []


def app_image():
    """build_image(flash_files()), made once a process: every chip that
    boots the app as flashed starts from these bytes."""
    if not _APP_IMAGE:
        _APP_IMAGE.append(build_image(flash_files()))
    return _APP_IMAGE[0]


def build_image(files):
    """A littlefs image (bytes) for MicroPython's RP2 filesystem holding
    `files` (dest path -> bytes), folders made as needed."""
    from littlefs import LittleFS

    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=256)
    for path in sorted(files):
        parts = path.split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            try:
                fs.mkdir(d)
            except FileExistsError:
                pass
        with fs.open(path, "wb") as f:
            f.write(files[path])
    fs.unmount()
    return bytes(fs.context.buffer)


def read_image(image):
    """dest path -> bytes of every file in a littlefs image (the chip's
    flash read back)."""
    from littlefs import LittleFS

    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=256, mount=False)
    fs.context.buffer[:] = image
    fs.mount()
    out = {}
    for top, _dirs, names in fs.walk("/"):
        for n in names:
            p = (top.rstrip("/") + "/" + n).lstrip("/")
            with fs.open(p, "rb") as f:
                out[p] = f.read()
    return out


def _rosc(mcu, seed):
    """ROSC peripheral whose RANDOMBIT reads a seeded random bit (rp2040py
    leaves the ring oscillator unimplemented: it read all ones, so
    os.urandom was constant). Everything else reads 0, as before."""
    from rp2040py.peripherals.peripheral import BasePeripheral

    rng = random.Random(seed)

    class Rosc(BasePeripheral):
        def read_uint32(self, offset):
            if offset == ROSC_RANDOMBIT:
                return rng.getrandbits(1)
            return 0

        def write_uint32(self, offset, value):
            pass

    return Rosc(mcu, "ROSC")


class Pico:
    """One emulated Pico running the stock firmware with `image` (bytes of
    its littlefs filesystem) in flash. `seed` seeds the ring oscillator.

    `spin=False` lets the core wait out the SDK's polls of the I2C status
    instead of executing them: the same instruction read twice while a bus
    step is under way means the SDK spins there until that step's alarm,
    so the core sleeps until it, and the wait counts as busy. Frames and
    busy time come out as with spinning but for a poll's few cycles (a
    boot to Home: the same busy ms, frames within 2 us), and an emulated
    second of frame writes costs a quarter less of this machine's CPU.
    The tests use it; the benches spin, so their figures stay comparable
    with every earlier run."""

    def __init__(self, image, uf2=None, seed=1, spin=True):
        import json

        from rp2040py.device.bootrom import BOOTROM_B1
        from rp2040py.device.load_flash import load_uf2
        from rp2040py.rp2040 import FLASH_START_ADDRESS, RP2040
        from rp2040py.simulator import Simulator
        from rp2040py.usb.cdc import USBCDC
        from rp2040py.utils.logging import ConsoleLogger, LogLevel

        uf2 = uf2 or find_uf2()
        if uf2 is None:
            raise FileNotFoundError("no %s: get it from %s" % (UF2_NAME, UF2_URL))
        self.cfg = json.loads(PIN_MAP.read_text())
        mcu = self.mcu = RP2040()
        mcu.logger = ConsoleLogger(LogLevel.ERROR)
        mcu.load_bootrom(BOOTROM_B1)
        load_uf2(Path(uf2), mcu)
        if len(image) != FS_BLOCK * FS_BLOCKS:
            raise ValueError("filesystem image is %d bytes, expected %d" % (len(image), FS_BLOCK * FS_BLOCKS))
        mcu.flash[FS_START:FS_START + len(image)] = image
        mcu.peripherals[0x40060] = _rosc(mcu, seed)
        self.clock = mcu.clock
        self.emu = Ssd1306Emulator(self.cfg["display"]["width"], self.cfg["display"]["height"], self.cfg["i2c"]["addr"])
        self.frames = 0  # I2C write transactions to the panel that carried display data
        self.panel_at = 0.0  # emulated ns of the last transaction that wrote display data
        self.transfers = []  # (start ms, end ms, display data bytes) of the last write transactions
        self._waiting = None  # (ns, cycles) when the core began to wait on the bus
        self._polled_ns = 0.0  # ns the core waited on the bus, counted as busy
        self._wire_i2c(spin)
        self.serial_out = bytearray()
        self.connected_at = None
        self.cdc = USBCDC(mcu.usb_ctrl)
        self.cdc.on_serial_data = self.serial_out.extend
        self.cdc.on_device_connected = self._connected
        self._wire_usb_nak()
        self.pins = {name: self.cfg["buttons"][name] for name in BUTTONS}
        for name in BUTTONS:
            mcu.gpio[self.pins[name]].set_input_value(True)  # released: the pull-up holds it high
        mcu.core.pc = FLASH_START_ADDRESS
        self.sim = Simulator(rp2040=mcu)
        self.sim.stopped = False
        self._stopped_at = None

        def stop_here():
            self._stopped_at = self.clock.nanos
            self.sim.stopped = True

        self._stop_alarm = self.clock.create_alarm(stop_here)
        self._pty = None

    # -- faults of the emulator, fixed here (tests/board/README.md) ---------------
    def _wire_usb_nak(self):
        """rp2040py's host answers every OUT buffer the firmware arms with
        a zero-length packet at once, so TinyUSB re-arms it at once: ~18
        interrupts per ms and a CPU ~90% busy even idle. A real host NAKs
        until it has bytes: hold the armed buffer until some are queued."""
        usb = self.mcu.usb_ctrl
        cdc = self.cdc
        stock = usb.on_endpoint_read
        self._armed = None

        def on_read(endpoint, size):
            if endpoint == cdc._out_endpoint and endpoint >= 0 and cdc.tx_fifo.item_count == 0:
                self._armed = (endpoint, size)  # NAK: nothing to send yet
                return
            stock(endpoint, size)

        usb.on_endpoint_read = on_read

    def _feed_usb(self):
        if self._armed is not None and self.cdc.tx_fifo.item_count:
            endpoint, size = self._armed
            self._armed = None
            fifo = self.cdc.tx_fifo
            buf = bytearray(min(size, fifo.item_count))
            for i in range(len(buf)):
                buf[i] = fifo.pull()
            self.mcu.usb_ctrl.endpoint_read_done(endpoint, buf)

    def _wire_i2c(self, spin):
        """The panel on the I2C peripheral the pin map names. rp2040py
        completes every bus step at once; each is charged its bit times
        here (9 per byte with the ACK, 1 each for START and STOP) at the
        ~376 kHz a Pico's 400 kHz setting gives, so show() costs what it
        costs on the chip."""
        i2c = self.mcu.i2c[self.cfg["i2c"]["id"]]
        clock = self.clock
        emu = self.emu
        state = self._i2c = {"addr": None, "data": bytearray(), "read": False}
        pending = []

        def later(bits, fn):
            pending.append(fn)
            alarm.schedule(bits * I2C_BIT_NS)

        def fire():
            self._woken()
            fn = pending.pop(0)
            fn()

        alarm = clock.create_alarm(fire)
        stock_read = i2c.read_uint32
        core = self.mcu.core
        last = [None]  # (where, value, step awaited) of the last status read

        def read(offset):
            value = stock_read(offset)
            if offset != IC_RAW_INTR_STAT:
                return value
            self._woken()  # an interrupt woke the core from an earlier wait
            seen = (core.registers[15], value, pending[0] if pending else None)
            if pending and seen == last[0]:
                # the same status read twice by the same instruction while a
                # bus step is under way: the SDK spins there until that step
                # ends, so let the core wait for the step's alarm, the wait
                # counted as busy (_woken)
                self._waiting = (clock.nanos, core.cycles)
                core.waiting = True
            last[0] = seen
            return value

        if not spin:
            i2c.read_uint32 = read

        def on_start(repeated):
            later(1, i2c.complete_start)

        def on_connect(address, mode):
            ours = address == emu.addr
            state["addr"] = address
            state["at"] = clock.nanos
            state["read"] = int(mode) == 1
            state["data"] = bytearray()
            later(9, lambda: i2c.complete_connect(ours))

        def on_write_byte(value):
            state["data"].append(value)
            later(9, lambda: i2c.complete_write(True))

        def on_read_byte(ack):
            got = emu.read(state["addr"], 1) or b"\xff"
            later(9, lambda: i2c.complete_read(got[0]))

        def on_stop():
            if state["addr"] is not None and not state["read"] and state["data"]:
                before = emu.data_bytes
                emu.write(state["addr"], state["data"])
                if emu.data_bytes != before:
                    self.frames += 1
                    self.panel_at = clock.nanos + I2C_BIT_NS
                    self.transfers.append((state["at"] / 1e6, self.panel_at / 1e6, emu.data_bytes - before))
                    del self.transfers[:-64]
            elif state["addr"] is not None and not state["read"]:
                emu.write(state["addr"], b"")
            state["addr"] = None
            state["data"] = bytearray()
            later(1, i2c.complete_stop)

        i2c.on_start = on_start
        i2c.on_connect = on_connect
        i2c.on_write_byte = on_write_byte
        i2c.on_read_byte = on_read_byte
        i2c.on_stop = on_stop

    def _woken(self):
        """End a wait on the bus (_wire_i2c's read): its time, less what the
        core executed meanwhile (an interrupt), counts as busy."""
        if self._waiting is not None:
            self._polled_ns += self._wait_ns()
            self._waiting = None
            self.mcu.core.waiting = False

    def _wait_ns(self):
        if self._waiting is None:
            return 0.0
        t0, c0 = self._waiting
        return (self.clock.nanos - t0) - (self.mcu.core.cycles - c0) * 8.0

    def panel_writing(self):
        """Bytes of a write to the panel sent so far, while one is under
        way (0 when none is): a test can act in the middle of a frame."""
        state = self._i2c
        if state["addr"] == self.emu.addr and not state["read"]:
            return len(state["data"])
        return 0

    def _connected(self):
        if self.connected_at is None:
            self.connected_at = self.clock.nanos

    # -- time ---------------------------------------------------------------------------
    @property
    def ms(self):
        """Emulated milliseconds since power-on."""
        return self.clock.nanos / 1e6

    def run(self, ms):
        """Let the chip run for `ms` of emulated time."""
        self.run_until(None, ms, step_ms=ms)

    advance = run  # the unix-port board's name for it (tests/sim/simtools.py)

    def run_until(self, cond, timeout_ms, step_ms=1.0):
        """Run until cond() is true or `timeout_ms` of emulated time have
        passed; cond() is looked at every `step_ms` of emulated time.
        Returns whether cond() became true.

        Each step ends exactly at its emulated time (a clock alarm stops
        the emulator there), not where a batch of the emulator happens to
        end: rp2040py ends its batches after a few ms of *wall* time, so
        stopping at batch ends would make where a press lands depend on the
        machine's load. With exact steps, a script replays the same."""
        end = self.clock.nanos + timeout_ms * 1e6
        while True:
            if cond is not None and cond():
                return True
            left = end - self.clock.nanos
            if left <= 0:
                return False
            self._step(min(left, step_ms * 1e6))

    def _step(self, ns):
        sim = self.sim
        self._stop_alarm.schedule(ns)
        try:
            while True:
                self._feed_usb()
                if self._pty is not None:
                    self._pump_pty()
                sim.stopped = False
                sim._execute_batch()
                if sim.engine_room_error is not None:
                    raise sim.engine_room_error
                if self._stopped_at is not None:
                    return
        finally:
            self._stop_alarm.cancel()
            self._stopped_at = None
            sim.stopped = False

    def screen(self):
        """The panel's text (tests/sim/simtools.screen_lines), one line a row."""
        from simtools import screen_lines

        return "\n".join(screen_lines(self.emu))

    def wait_panel(self, pred, timeout_ms):
        """Run until pred(panel text) holds, looking only when a frame came
        (reading the panel costs host time). Returns whether it held."""
        seen = [-1]

        def cond():
            if self.frames == seen[0]:
                return False
            seen[0] = self.frames
            return bool(pred(self.screen()))

        return self.run_until(cond, timeout_ms)

    # -- buttons and buzzer ---------------------------------------------------------------------
    def set_button(self, name, down):
        self.mcu.gpio[self.pins[name]].set_input_value(not down)

    def busy_ms(self):
        """Emulated ms the core has spent executing since power-on (its
        cycle count at 125 MHz; time asleep in WFE/WFI is not counted)."""
        return self.mcu.core.cycles / 125e3 + (self._polled_ns + self._wait_ns()) / 1e6

    def settle(self, quiet_ms=10, max_ms=5000):
        """Run until the core has been mostly asleep (under a quarter of
        the time) for the last `quiet_ms`: the app's loop is idling between
        passes, so what the last press started is done and on the panel.
        Returns the emulated ms it took."""
        start = self.ms
        step = 2
        recent = []
        while self.ms - start < max_ms:
            b0, t0 = self.busy_ms(), self.ms
            self.run(step)
            recent.append((self.busy_ms() - b0, self.ms - t0))
            while sum(t for _, t in recent[1:]) >= quiet_ms:
                recent.pop(0)
            span = sum(t for _, t in recent)
            if span >= quiet_ms and sum(b for b, _ in recent) < 0.25 * span:
                return self.ms - start
        raise TimeoutError("the chip stayed busy for %d ms" % max_ms)

    def press(self, name, hold=80, after=100):
        """A tap: down for `hold` ms of emulated time, up for `after`, then
        until the loop idles again (settle)."""
        self.set_button(name, True)
        self.run(hold)
        self.set_button(name, False)
        self.run(after)
        self.settle()

    def long_press(self, name, hold=1000):
        self.press(name, hold)

    def buzzer(self):
        """Frequency (Hz) the buzzer's PWM slice plays, or 0 when silent."""
        pin = self.cfg["buzzer"]["pin"]
        ch = self.mcu.pwm.channels[(pin >> 1) & 7]
        cc = (ch.cc >> 16) & 0xFFFF if pin & 1 else ch.cc & 0xFFFF
        if not (ch.csr & 1) or cc == 0:
            return 0
        div = ch.div / 16 if ch.div else 256
        return round(125e6 / div / (ch.top + 1))

    # -- serial ----------------------------------------------------------------------------------
    def send(self, data):
        """Bytes from the PC to the chip's USB CDC."""
        for b in data:
            self.cdc.send_serial_byte(b)

    def serial_text(self):
        return self.serial_out.decode("utf-8", "replace")

    def pty(self):
        """A pseudo-terminal bridged to USB CDC (the chip must be kept
        running, run()/run_until(), for bytes to move). Returns the path a
        PC tool opens as the board's port."""
        import tty

        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._pty = (master, slave)
        self._pty_sent = len(self.serial_out)
        return os.ttyname(slave)

    def _pump_pty(self):
        master, _ = self._pty
        try:
            data = os.read(master, 4096)
        except (BlockingIOError, OSError):
            data = b""
        if data:
            self.send(data)
        if len(self.serial_out) > self._pty_sent:
            chunk = bytes(self.serial_out[self._pty_sent:])
            try:
                n = os.write(master, chunk)
            except BlockingIOError:
                n = 0
            self._pty_sent += n

    def wait_pty(self, timeout):
        """Block, in wall time and at most `timeout` s, until the PC writes
        to the pty (the chip does not run meanwhile). Whether it wrote."""
        import select

        r, _, _ = select.select([self._pty[0]], [], [], timeout)
        return bool(r)

    def close_pty(self):
        if self._pty is not None:
            for fd in self._pty:
                os.close(fd)
            self._pty = None

    # -- flash ----------------------------------------------------------------------------------
    def flash_image(self):
        """The filesystem region of the chip's flash as it is now (bytes):
        boot another Pico from it to model a reset, or read it back."""
        return bytes(self.mcu.flash[FS_START:FS_START + FS_BLOCK * FS_BLOCKS])

    def stop(self):
        self.sim.stopped = True
        self.close_pty()


# A probe of the loop's passes: installed as /boot.py, it wraps the board's
# idle() (bench/board.py says what it measures and how); Probe reads its pins.
PASS_PIN = 2
IDLE_PIN = 3

PROBE = """\
import boards, gc
from machine import Pin
_setup = boards.setup
def setup(cfg=None):
    b = _setup(cfg)
    idle = b.idle
    p = Pin(%d, Pin.OUT, value=1)
    s = Pin(%d, Pin.OUT, value=0)
    peak = [0]
    def probe_idle(ms):
        p(0)
        gc.collect()
        a = gc.mem_alloc()
        if a > peak[0]:
            peak[0] = a
            print("PEAK", a)
        s(1)
        idle(ms)
        s(0)
        p(1)
    b.idle = probe_idle
    return b
boards.setup = setup
""" % (PASS_PIN, IDLE_PIN)

# The same probe without the collection and the peak: for a test of the
# loop's passes alone. Collecting between every two passes costs the
# emulator more than the test's own work (the pace test took five minutes
# of CPU with it), and a pass of a board with no probe may include a
# collection of its own, which this one leaves where it falls.
PASS_PROBE = PROBE.replace("""        gc.collect()
        a = gc.mem_alloc()
        if a > peak[0]:
            peak[0] = a
            print("PEAK", a)
""", "")
assert PASS_PROBE != PROBE, "harness.PROBE changed: PASS_PROBE no longer leaves its collection out"


class Probe:
    """Edges of the probe's pins, as (emulated ms, busy ms) pairs."""

    def __init__(self, pico):
        self.pico = pico
        self.passes = []  # (start ms, end ms, busy ms)
        self.sleeps = []  # (start ms, end ms, busy ms)
        self._pass = None
        self._sleep = None
        pico.mcu.gpio[PASS_PIN].add_listener(self._on_pass)
        pico.mcu.gpio[IDLE_PIN].add_listener(self._on_idle)

    def _now(self):
        return self.pico.ms, self.pico.busy_ms()

    def _on_pass(self, value, old):
        self._edge("_pass", self.passes, value, old)

    def _on_idle(self, value, old):
        self._edge("_sleep", self.sleeps, value, old)

    def _edge(self, going, spans, value, old):
        """A pin's edge: a rise opens a span (kept in the attribute named
        `going`), a fall closes it into `spans`."""
        if bool(value) == bool(old):
            return
        now = self._now()
        if value:
            setattr(self, going, now)
            return
        began = getattr(self, going)
        if began is not None:
            spans.append((began[0], now[0], now[1] - began[1]))
            setattr(self, going, None)

    def window(self, start, end):
        """Passes begun in [start, end), and the busy share of that time:
        the passes and sleeps in it (one still going counted to now), one
        cut by an end counted for its part in it (its busy time in
        proportion), the probe's collections left out."""
        ps = [p for p in self.passes if start <= p[0] < end]
        now = self._now()
        going = [(t[0], now[0], now[1] - t[1]) for t in (self._pass, self._sleep) if t is not None]
        busy = span = 0.0
        for a, b, cpu in self.passes + self.sleeps + going:
            lo, hi = max(a, start), min(b, end)
            if hi > lo:
                part = (hi - lo) / (b - a)
                busy += cpu * part
                span += hi - lo
        return {
            "passes": len(ps),
            "busy_per_pass_ms": round(sum(p[2] for p in ps) / len(ps), 2) if ps else None,
            "duty_pct": round(100 * busy / span, 1) if span else None,
        }

    def longest(self, start):
        ps = [p[1] - p[0] for p in self.passes if p[0] >= start]
        return round(max(ps), 1) if ps else None
