"""The evening on the stock Pico firmware (emulated RP2040, tests/board/
harness.py): tests/wasm/sessions.py's evening(), the four games' full
scripted sessions one after another on one board that is never restarted,
then the Settings menu and a sync to a PC database over the board's serial
link, played on the chip rather than on the 32-bit WebAssembly port (bench/
memory.py --bits 32). The budget (docs/device.md): every session and the
evening within 128 KB of live heap on the chip, no loop pass over 100 ms.

    .venv/bin/python bench/chip_evening.py [--json] [--seed N]

It takes about an hour of wall time (the emulator runs at a few percent of
a Pico's speed).

How:

- The scripts run unchanged: simtools.SimBoard is replaced by Chip, the
  board calls those scripts and sessions.SerialPort make, on harness.Pico;
  simtools.journal_events and simtools.replay, which read a flash folder,
  get the chip's flash read back into that folder first.
- The image is what `moontable flash --board pico` leaves, built from this
  checkout (its firmware/, shared_rules/ and host/, whatever checkout pip
  installed), plus harness.PROBE as /boot.py with one line more: while GP6
  is held low its peak starts again from 0. At each part's start (a
  game's, once its script has the board at Home; the Settings menu's, as
  the last game's script ends; the sync's) the host holds GP6 low until
  the probe prints a PEAK, so the PEAK lines within a part are that part's
  own peaks.
- Each part: its peak live heap (gc.mem_alloc() after a collection at a
  loop pass boundary, 1 KB = 1024 bytes), its longest loop pass (harness.
  Probe, emulated ms), emulated time and wall time. A press is a tap at
  the scripts' hold, then the chip runs until its loop idles (Pico.press);
  an advance runs the chip that long, then until it idles. During the
  sync the Link's timeouts run on the chip's clock (ChipTime), and it
  reads the app's output without the probe's PEAK lines.
- The boot (power-on to Home) is a part of its own; its one pass, the
  app's start, begins before the probe's pin is an output, so harness.
  Probe does not see it.
- The scripts' seed (7) seeds the unix port's random numbers; the chip's
  come from its ring oscillator, seeded with --seed (default 2: its
  setter roll gives P2 the set-up, as the Moonstar script expects).

The exit status is 1 when a scripted assertion or the sync failed (the
part, the error and the panel are printed), 2 without the firmware file.
"""

import argparse
import importlib.util
import json
import re
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "sim"), str(ROOT / "tests" / "board"), str(ROOT / "tests" / "wasm")]

# `moontable` from this checkout's host/: an editable install maps the name
# to the checkout it was made from, whose firmware/ would be flashed instead.
_spec = importlib.util.spec_from_file_location("moontable", ROOT / "host" / "__init__.py",
                                               submodule_search_locations=[str(ROOT / "host")])
sys.modules["moontable"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sys.modules["moontable"])

import harness  # noqa: E402
import moontable.serial_link  # noqa: E402
import moontable.sync  # noqa: E402
import sessions  # noqa: E402
import simtools  # noqa: E402
from moontable import places  # noqa: E402

from budgets import HEAP_KB as BUDGET_KB  # noqa: E402
GAMES = ("moonstar", "shoot-the-moon", "moon", "moons")
RESET_PIN = 6  # free on the pin map; held low, the probe's peak starts again
PROBE = harness.PROBE.replace(
    "    peak = [0]\n", "    peak = [0]\n    r = Pin(%d, Pin.IN)\n" % RESET_PIN).replace(
    "        a = gc.mem_alloc()\n", "        a = gc.mem_alloc()\n        if not r():\n            peak[0] = 0\n")
assert PROBE.count("r()") == 1 and "Pin(%d" % RESET_PIN in PROBE, "harness.PROBE changed: cannot add the reset"
SEED = 2  # the ring oscillator's: seed 7 rolls P1 as Moonstar's setter, 2 rolls P2
PEAK = re.compile(rb"PEAK (\d+)\r?\n")
HELD = re.compile(rb"P(E(A(K( \d*\r?)?)?)?)?\Z")  # what may yet be the start of a PEAK line


class Chip:
    """An emulated Pico with the app and the probe, answering what the
    simulator's board answers to (host/sim/board_link.SimBoard) for the
    scripts, simtools and sessions.SerialPort. The scripts' seed is the
    unix port's; the chip's ring oscillator gets `rosc_seed`."""

    rosc_seed = SEED

    def __init__(self, flash, seed=None, **_):
        self.flash = Path(flash)
        files = harness.flash_files()
        files["boot.py"] = PROBE.encode()
        self.pico = harness.Pico(harness.build_image(files), seed=self.rosc_seed)
        self.pico.mcu.gpio[RESET_PIN].set_input_value(True)
        self.probe = harness.Probe(self.pico)
        self.emu = self.pico.emu
        # the app's own output, as the scripts' board has it: the probe's
        # PEAK lines are kept in pico.serial_out only
        self.serial_out = bytearray()
        self._held = b""
        self.pico.cdc.on_serial_data = self._serial

    def _serial(self, data):
        self.pico.serial_out.extend(data)
        text = PEAK.sub(b"", self._held + bytes(data))
        m = HELD.search(text)
        cut = m.start() if m else len(text)
        self.serial_out.extend(text[:cut])
        self._held = text[cut:]

    def start(self):
        assert self.pico.wait_panel(lambda t: "New game" in t, 5000), self.pico.screen()
        self.pico.settle()
        return self

    def press(self, name, hold=80, after=100):
        self.pico.press(name, hold, after)

    def long_press(self, name, hold=1000):
        self.press(name, hold)

    def hold(self, name, ms):
        self.press(name, ms)

    def advance(self, ms, step=None):
        self.pico.run(ms)
        self.pico.settle()

    def tick(self, ms=20):
        self.pico.run(ms)

    def send_serial(self, data):
        self.pico.send(data)

    def serial_text(self):
        return self.serial_out.decode("utf-8", "replace")

    def kill(self):
        self.pico.stop()

    def save_flash(self):
        """The flash folder made what the chip's flash holds now."""
        shutil.rmtree(self.flash, ignore_errors=True)
        for path, data in harness.read_image(self.pico.flash_image()).items():
            (self.flash / path).parent.mkdir(parents=True, exist_ok=True)
            (self.flash / path).write_bytes(data)

    def reset_peak(self):
        """GP6 low until the probe has printed its peak again."""
        out = self.pico.serial_out
        at = len(out)
        self.pico.mcu.gpio[RESET_PIN].set_input_value(False)
        try:
            assert self.pico.run_until(lambda: PEAK.search(out, at), 3000), "the probe did not start its peak again"
        finally:
            self.pico.mcu.gpio[RESET_PIN].set_input_value(True)


class ChipTime:
    """`time` for moontable.serial_link during the sync: monotonic() is the
    chip's emulated time, so a reply's timeout runs on the chip's clock, as
    a PC's runs beside a real board's (in wall time, with the emulator some
    20x slower than a Pico, the protocol's load outlasts a hello's patience)."""

    def __init__(self, pico):
        self.pico = pico

    def monotonic(self):
        return self.pico.ms / 1000

    def __getattr__(self, name):
        return getattr(time, name)


class Evening:
    """The parts' marks: (name, emulated ms, serial offset, wall s)."""

    def __init__(self, log):
        self.log = log
        self.chip = None
        self.marks = []
        self.sync = None

    def split(self, name):
        p = self.chip.pico
        if not self.marks:
            self.marks.append(("boot", 0.0, 0, self.t0))
        self.marks.append((name, p.ms, len(p.serial_out), time.monotonic()))
        self.chip.reset_peak()
        self.log("%-15s %s" % (self.marks[-2][0], self.row(len(self.marks) - 2)))

    def row(self, i):
        """Figures of part i (to now if it is the last)."""
        p, probe = self.chip.pico, self.chip.probe
        _, ms, off, wall = self.marks[i]
        ms2, off2, wall2 = (p.ms, len(p.serial_out), time.monotonic()) if i + 1 == len(self.marks) else self.marks[i + 1][1:]
        peaks = [int(m.group(1)) for m in PEAK.finditer(p.serial_out) if off <= m.start() < off2]
        passes = [b - a for a, b, _ in probe.passes if ms <= a < ms2]
        return {"peak_heap_kb": round(max(peaks) / 1024, 1) if peaks else None,
                "longest_pass_ms": round(max(passes), 1) if passes else None,
                "emulated_s": round((ms2 - ms) / 1000, 1), "wall_s": round(wall2 - wall)}

    def game(self, name, script):
        """The game's script, its part begun once its board is at Home."""
        def run(folder):
            inner = simtools.new_board  # sessions.evening's: the same board, BACK to Home

            def new_board(tmp_path, seed=7):
                self.chip = inner(tmp_path, seed)
                self.split(name)
                return self.chip

            simtools.new_board = new_board
            try:
                script(folder)
            finally:
                simtools.new_board = inner
            if name == GAMES[-1]:
                self.split("settings")  # sessions.evening's next presses
        return run

    def synced(self, real):
        def sync(link, db, **kw):
            self.split("sync")
            with sessions._Patch([(moontable.serial_link, "time", ChipTime(self.chip.pico))]):
                self.sync = real(link, db, **kw)
            return self.sync
        return sync

    def read_flash(self, real):
        def read(flash):
            assert Path(flash) == self.chip.flash, flash
            self.chip.save_flash()
            return real(flash)
        return read

    def play(self, folder):
        """sessions.evening on the chip. Returns the error's text or None."""
        self.t0 = time.monotonic()
        scripts = dict(sessions.SESSIONS, **{n: self.game(n, sessions.SESSIONS[n]) for n in GAMES})
        patches = [(simtools, "SimBoard", Chip), (simtools, "snap", lambda board, name: None),
                   (simtools, "journal_events", self.read_flash(simtools.journal_events)),
                   (simtools, "replay", self.read_flash(simtools.replay)),
                   (moontable.sync, "sync", self.synced(moontable.sync.sync)), (sessions, "SESSIONS", scripts)]
        try:
            with sessions._Patch(patches):
                sessions.evening(folder)
            return None
        except Exception:  # noqa: BLE001 - reported with the figures so far
            return traceback.format_exc()

    def figures(self):
        parts = {m[0]: self.row(i) for i, m in enumerate(self.marks)}
        peaks = [r["peak_heap_kb"] for r in parts.values() if r["peak_heap_kb"] is not None]
        passes = [r["longest_pass_ms"] for r in parts.values() if r["longest_pass_ms"] is not None]
        whole = {"peak_heap_kb": max(peaks) if peaks else None, "longest_pass_ms": max(passes) if passes else None,
                 "emulated_s": round(self.chip.pico.ms / 1000, 1), "wall_s": round(time.monotonic() - self.t0)}
        return parts, whole


def measure(log=print):
    fw, rules = places.firmware_dir().resolve(), places.shared_rules_dir().resolve()
    assert (fw, rules) == (ROOT / "firmware", ROOT / "shared_rules"), "flashing another checkout: %s, %s" % (fw, rules)
    ev = Evening(log)
    with tempfile.TemporaryDirectory() as tmp:
        error = ev.play(Path(tmp))
    out = {"error": error, "parts": {}, "evening": None, "sync": None}
    if ev.chip is None:
        return out
    if error:
        out["failed_in"] = ev.marks[-1][0] if ev.marks else "boot"
        out["screen"] = ev.chip.pico.screen()
    out["parts"], out["evening"] = ev.figures()
    if ev.sync is not None:
        out["sync"] = {"stored": len(ev.sync.stored), "quarantined": len(ev.sync.quarantined)}
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--seed", type=int, default=SEED, help="seed of the emulated ring oscillator (default %d)" % SEED)
    args = ap.parse_args(argv)
    Chip.rosc_seed = args.seed
    if harness.find_uf2() is None:
        print("no stock Pico firmware: get %s" % harness.UF2_URL, file=sys.stderr)
        return 2
    out = measure(log=(lambda *a: print(*a, file=sys.stderr)) if args.json else print)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print("\npart            peak heap (chip)  longest pass    emulated      wall")
        for name, r in list(out["parts"].items()) + ([("evening", out["evening"])] if out["evening"] else []):
            print("%-15s %10s KB %11s ms %9s s %7s s" % (name, r["peak_heap_kb"], r["longest_pass_ms"], r["emulated_s"], r["wall_s"]))
        over = [n for n, r in out["parts"].items() if (r["peak_heap_kb"] or 0) > BUDGET_KB]
        if out["evening"]:
            print("budget %d KB: %s" % (BUDGET_KB, "over in " + ", ".join(over) if over else "every part within it"))
        if out["sync"]:
            print("sync: %(stored)d games stored, %(quarantined)d quarantined" % out["sync"])
        if out["error"]:
            print("FAILED in %s:\n%s\npanel:\n%s" % (out.get("failed_in"), out["error"], out.get("screen")))
    return 1 if out["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
