"""What the chip's peak live heap is made of: bench/board.py's Game 7 round
on the stock firmware (emulated Pico, tests/board/harness.py), with the
bench's own probe, its SRAM read from the emulator at the pass boundary
where the collector left the most blocks in use, and that heap walked by
the collector's own rules. The question it answers: is any of the peak
held only by words that are not references (stale words on the stack,
bytes of data that happen to look like an address), which a conservative
collector keeps but a program never asked for?

    .venv/bin/python bench/chip_heap.py [--json] [--seed N] [--save FILE]

How:
- The facts of the firmware are read from the chip first, not written
  here: the pool's address and size (micropython.mem_info(1)), and the
  type word of each kind of object the walk tells apart.
- The probe's own heap: a board set up (boards.setup) with and without
  the probe as /boot.py, the live heap after each.
- The session: at every probe sleep (a pass boundary, the probe's
  collection just done) the allocation table's blocks in use are counted;
  at each new high the SRAM and the stack pointer are kept.
- The walk (MicroPython's gc.c, v1.24): a word is a reference when it is
  the address of a block that heads an allocation; a marked block's every
  word is scanned. Roots: the RAM below the heap (the interpreter's state,
  a superset of its root pointers) and the stack from the stack pointer
  up. The walk must reach exactly the blocks in use, or the figures stop.
- It prints what the RAM below the heap reaches; what the stack adds, as
  the main loop's own objects (the largest set one stack word holds: the
  app) and the rest; what a kilobyte of dead stack below the pointer
  would add; and what is held only through words inside raw data
  (strings, bytes, bytearray buffers, bytecode, big-int digits), which no
  object's field points at; the pools of interned names on the heap; and
  the blocks in use by the kind of object they head.
- --save FILE keeps the snapshot (pickle: sram, sp, pool, total, atb) for
  a walk of one's own.
"""

import argparse
import json
import re
import struct
import sys
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests" / "sim"), str(ROOT / "tests" / "board")]

import harness  # noqa: E402

RAM = 0x20000000
STACK_TOP = 0x20042000  # the end of SCRATCH_Y: the core's stack grows down from here
BLOCK = 16  # bytes a block (4 words)

# Printed on the chip: the kinds the walk tells apart, by their type word.
FACTS = b"""\
import gc, micropython, sys, time
time.sleep_ms(300)  # the USB console up first
def f():
    pass
def g():
    x = 1
    def h():
        return x
    return h
class C:
    def m(self):
        pass
o = C()
for k, v in (("str", "a string too long for a qstr " * 2), ("bytes", b"abcdefgh" * 4),
             ("bytearray", bytearray(40)), ("list", [1, 2]), ("tuple", (1, 2, 3)),
             ("dict", {1: 2}), ("function", f), ("closure", g()), ("bound method", o.m),
             ("module", sys), ("big int", 1 << 70), ("class", C)):
    print("KIND", k, id(v), hex(__import__("machine").mem32[id(v)] & 0xffffffff))
micropython.mem_info(1)
"""

# With and without the probe: a board set up as the app sets it up.
SETUP = b"""\
import gc, time
time.sleep_ms(300)
import boards
b = boards.setup()
gc.collect()
print("SETUP", gc.mem_alloc())
"""


def chip_facts():
    p = harness.Pico(harness.build_image({"main.py": FACTS}))
    try:
        p.run(1500)
        text = p.serial_text()
    finally:
        p.stop()
    kinds = {}
    for m in re.finditer(r"KIND (.+?) (\d+) 0x([0-9a-f]+)", text):
        kinds[int(m.group(3), 16)] = m.group(1)
    start = int(re.search(r"GC memory layout; from ([0-9a-f]+)", text).group(1), 16)
    total = int(re.search(r"GC: total: (\d+)", text).group(1))
    return {"pool": start, "total": total, "kinds": kinds}


def probe_share():
    """Bytes the probe holds once the board is set up."""
    got = []
    for boot in (None, harness.PROBE.encode()):
        files = harness.flash_files()
        files["main.py"] = SETUP
        if boot is not None:
            files["boot.py"] = boot
        p = harness.Pico(harness.build_image(files))
        try:
            p.run(2000)
            got.append(int(re.search(r"SETUP (\d+)", p.serial_text()).group(1)))
        finally:
            p.stop()
    return got[1] - got[0]


class Heap:
    """One SRAM snapshot's heap: its allocations, and walks over them."""

    def __init__(self, sram, sp, pool, total, atb):
        self.sram, self.sp, self.pool, self.end = sram, sp, pool, pool + total
        self.atb = atb
        n = total // BLOCK
        table = sram[atb - RAM:atb - RAM + n // 4]
        self.length = {}
        b = 0
        while b < n:
            if (table[b >> 2] >> ((b & 3) * 2)) & 3 == 1:  # a head; tails (2) follow it
                k = 1
                while b + k < n and (table[(b + k) >> 2] >> (((b + k) & 3) * 2)) & 3 == 2:
                    k += 1
                self.length[b] = k
                b += k
            else:
                b += 1

    def words(self, lo, hi):
        return struct.unpack_from("<%dI" % ((hi - lo) // 4), self.sram, lo - RAM)

    def word(self, addr):
        return struct.unpack_from("<I", self.sram, addr - RAM)[0]

    def head(self, w):
        if self.pool <= w < self.end and not w & (BLOCK - 1):
            b = (w - self.pool) // BLOCK
            if b in self.length:
                return b
        return None

    def used(self):
        return BLOCK * sum(self.length.values())

    def size(self, blocks):
        return BLOCK * sum(self.length[b] for b in blocks)

    def reach(self, roots, seen=None, opaque=()):
        """The blocks reached from `roots` (block numbers) not in `seen`
        (which grows); the words of an `opaque` block are not scanned."""
        seen = set() if seen is None else seen
        new = set()
        todo = deque()
        for r in roots:
            if r not in seen:
                seen.add(r)
                new.add(r)
                todo.append(r)
        while todo:
            b = todo.popleft()
            if b in opaque:
                continue
            a = self.pool + BLOCK * b
            for w in self.words(a, a + BLOCK * self.length[b]):
                h = self.head(w)
                if h is not None and h not in seen:
                    seen.add(h)
                    new.add(h)
                    todo.append(h)
        return new

    def heads_in(self, lo, hi):
        return [h for h in map(self.head, self.words(lo, hi)) if h is not None]


def _qstr_pool(heap, b):
    """Whether block b heads a pool of interned names (py/qstr.c: the
    previous pool, the names before it, its room, its names, then its
    hashes and lengths after the room's pointers, all in one block)."""
    a = heap.pool + BLOCK * b
    if heap.length[b] < 2:
        return False
    prev, _before, room, n, hashes = heap.words(a, a + 20)
    return (0x10000000 <= prev < 0x10200000 or heap.head(prev) is not None) and 0 < n <= room \
        and hashes == a + 24 + 4 * room and 24 + 4 * room <= BLOCK * heap.length[b]


def find_atb(sram, pool, total, used):
    """The allocation table's address: it ends a few bytes before the pool,
    after the finaliser table (gc.c's gc_setup_area). Of the places where
    it counts `used` bytes in use, the one whose blocks most often begin
    with a type word the chip printed."""
    n = total // BLOCK
    end = pool - n // 4 - (n + 7) // 8
    best = None
    for atb in range((end - 64) & ~3, end + 4, 4):
        heap = Heap(sram, 0, pool, total, atb)
        if heap.used() != used:
            continue
        typed = sum(1 for b in heap.length if 0x10000000 <= heap.word(pool + BLOCK * b) < 0x10200000)
        if best is None or typed > best[0]:
            best = (typed, atb)
    if best is None:
        raise SystemExit("no allocation table counts the probe's peak of %d bytes" % used)
    return best[1]


def session(seed, pool, total):
    """bench/board.py's Game 7 round with the bench's probe; (probe's
    peak, SRAM, stack pointer, emulated ms) at the highest pass boundary."""
    import board as bench

    files = harness.flash_files()
    files["boot.py"] = harness.PROBE.encode()
    p, _probe = bench.booted(harness.build_image(files), seed)
    n = total // BLOCK
    guess = pool - n // 4 - (n + 7) // 8  # any nearby start counts the same blocks
    count = bytes(sum(1 for k in range(4) if (v >> (2 * k)) & 3) for v in range(256))
    high = {"used": 0}

    def at_sleep(value, old):
        if value and not old:
            sram = p.mcu.sram
            used = sum(bytes(sram[guess - RAM:guess - RAM + n // 4]).translate(count))
            if used > high["used"]:
                high.update(used=used, sram=bytes(sram), sp=p.mcu.core.sp, ms=p.ms)

    p.mcu.gpio[harness.IDLE_PIN].add_listener(at_sleep)
    try:
        bench.game7_round(p)
        p.settle()
        p.set_button("ok", True)
        p.run(80)
        p.set_button("ok", False)
        p.wait_panel(lambda t: re.search(r"best possible:? *\d+", t), 60000)
        p.run(500)
        p.settle()
        peak = bench.peak_heap(p)
    finally:
        p.stop()
    return peak, high["sram"], high["sp"], high["ms"]


def measure(seed=1, log=print, save=None):
    facts = chip_facts()
    pool, total, kinds = facts["pool"], facts["total"], facts["kinds"]
    log("heap: %d bytes from 0x%08x" % (total, pool))
    out = {"probe_bytes": probe_share()}
    log("the probe's own heap, the board set up: %d bytes" % out["probe_bytes"])
    peak, sram, sp, ms = session(seed, pool, total)
    heap = Heap(sram, sp, pool, total, find_atb(sram, pool, total, peak))
    if save:
        import pickle

        with open(save, "wb") as f:
            pickle.dump({"sram": sram, "sp": sp, "pool": pool, "total": total, "atb": heap.atb}, f)
    out.update(peak_bytes=peak, at_ms=round(ms, 1), used_bytes=heap.used())
    static = heap.heads_in(RAM, heap.atb & ~3)
    stack = [(a, heap.head(w)) for a, w in zip(range(sp, STACK_TOP, 4), heap.words(sp, STACK_TOP))]
    stack = [(a, h) for a, h in stack if h is not None]
    seen = set()
    by_static = heap.reach(static, seen)
    held = {h: heap.reach([h], set(seen)) for _, h in stack}
    app = max(held, key=lambda h: heap.size(held[h])) if held else None
    by_app = heap.reach([app], seen) if app is not None else set()
    by_rest = heap.reach([h for _, h in stack], seen)
    dead = heap.reach(heap.heads_in(sp - 1024, sp), set(seen))
    if len(seen) != len(heap.length):
        raise SystemExit("the walk reached %d of %d blocks in use: its roots are wrong" % (len(seen), len(heap.length)))
    # raw data: what a string, bytes, bytearray, function or big int points
    # at from its data field (the fourth word): bytes, never references
    raw = set()
    kind = {}
    for b in heap.length:
        a = pool + BLOCK * b
        k = kinds.get(heap.word(a))
        kind[b] = k
        if k in ("str", "bytes", "bytearray", "function", "big int"):
            h = heap.head(heap.word(a + 12))
            if h is not None:
                raw.add(h)
                kind[h] = k + " data"
    precise = heap.reach(static + [h for _, h in stack], opaque=raw)
    pools = [b for b in heap.length if _qstr_pool(heap, b)]
    out["qstr_pools"] = {"pools": len(pools), "names": sum(heap.word(pool + BLOCK * b + 12) for b in pools),
                         "bytes": heap.size(pools)}
    out.update(
        static_bytes=heap.size(by_static),
        app_bytes=heap.size(by_app),
        stack_rest_bytes=heap.size(by_rest),
        dead_stack_kb_adds_bytes=heap.size(dead),
        raw_data_only_bytes=heap.size(set(heap.length) - precise),
        by_kind={k or "other": heap.size([b for b in heap.length if kind.get(b) == k])
                 for k in sorted(set(kind.values()), key=str)},
    )
    log("peak live heap (the probe's figure): %d bytes at %.1f ms; blocks in use then: %d bytes"
        % (peak, ms, out["used_bytes"]))
    log("reached from the RAM below the heap (the interpreter's state): %d bytes" % out["static_bytes"])
    log("added by the stack: %d bytes the app (the main loop's), %d bytes the rest"
        % (out["app_bytes"], out["stack_rest_bytes"]))
    log("a kilobyte of dead stack below the pointer would add: %d bytes" % out["dead_stack_kb_adds_bytes"])
    log("held only through words inside raw data: %d bytes" % out["raw_data_only_bytes"])
    log("interned names: %(names)d in %(pools)d pools on the heap, %(bytes)d bytes (their text aside)" % out["qstr_pools"])
    log("by kind: %s" % ", ".join("%s %d" % kv for kv in out["by_kind"].items()))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--seed", type=int, default=1, help="seed of the emulated ring oscillator")
    ap.add_argument("--save", metavar="FILE", help="keep the peak's snapshot there (pickle)")
    args = ap.parse_args(argv)
    if harness.find_uf2() is None:
        print("no stock Pico firmware: get %s" % harness.UF2_URL, file=sys.stderr)
        return 2
    out = measure(args.seed, log=(lambda *a: print(*a, file=sys.stderr)) if args.json else print, save=args.save)
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
