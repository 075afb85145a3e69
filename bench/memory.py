"""Smallest MicroPython heap that runs a full scripted session of each game
on the simulated board (the same button-driven games as tests/sim), found by
bisection. The unix port has 8-byte words, so a figure here is stricter than
what a Pico (4-byte words, ~190 KB free) needs. The issue's goal is 64K;
the simulator tests run every board with tests/sim/simtools.TEST_HEAP,
which must stay above the largest figure printed here.

It then measures the floor under any session: the board's own layers,
loaded one on top of the other with no app, no screen and no rules (the
simulated board, whose hardware layer is the same size as a Pico's:
the pinned adafruit_ssd1306 over the busio adapter), each with its live
heap, its interned strings and the smallest heap it starts in.

    .venv/bin/python bench/memory.py [--lo 32] [--hi 512] [--floor]

32-bit figures (--bits 32): the board's own word size, under MicroPython's
WebAssembly port (web/run.mjs, tests/wasm/wasmkit.py). The heap there grows
instead of failing, so the figure is the peak *live* heap: gc.mem_alloc()
right after a collection at every loop-pass boundary, for each scripted
session, in two layouts: (a) "flash", the .mpy files on the filesystem as
`moontable flash` deploys them (a board loads their bytecode into RAM);
(b) "romfs", the same .mpy files in a ROMFS image as `moontable flash
--romfs` deploys them (the bytecode stays in the image). 1 KB = 1024 bytes.

    .venv/bin/python bench/memory.py --bits 32 [--json] [--games moon,moons]
    .venv/bin/python bench/memory.py --bits 32 --savings
    .venv/bin/python bench/memory.py --bits 32 --names flash

--json prints one object {game: {"flash": KB, "romfs": KB}}; without it a
table, with the 64-bit unix-port figures beside (smallest heap, bisected).
--savings measures each of the firmware's memory savings switched off at
run time (the firmware is not edited), against the budgets.
--names prints the interned names (qstrs) of the evening after each game
and after the sync, against the qstr pools, and the names each module
alone brings (qstr_info(1) on the 32-bit port).
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "sim"), str(ROOT / "tests" / "wasm")]

import simtools  # noqa: E402
from budgets import HEAP_KB  # noqa: E402
import test_sim_games  # noqa: E402
import test_sim_moonstar  # noqa: E402

SESSIONS = {
    "moonstar": test_sim_moonstar.test_moonstar_full_game,
    "shoot-the-moon": test_sim_games.test_shoot_the_moon_full_game,
    "moon": test_sim_games.test_moon_dominoes_full_game,
    "moons": test_sim_games.test_moons_full_game,
    # not a whole game: one Game 7 round, whose best-possible screen runs
    # the solver's branch and bound (the largest solve)
    "moonstar-g7": test_sim_moonstar.test_best_possible_after_a_squares_round,
}


def works(session, kb):
    os.environ["MOONSIM_HEAP"] = "%dK" % kb
    with tempfile.TemporaryDirectory() as tmp:
        try:
            session(Path(tmp))
            return True
        except Exception:
            return False


def smallest(session, lo, hi, step=4):
    """Bisection over KB in multiples of `step`; assumes more heap never hurts."""
    if not works(session, hi):
        return None
    lo -= lo % step
    while hi - lo > step:
        mid = (lo + hi) // 2
        mid -= mid % step
        if works(session, mid):
            hi = mid
        else:
            lo = mid
    return hi


# The board's layers, each loaded on top of the ones before it. The probe
# replaces main.py in the deployed flash folder; it draws a frame, lets
# three loop passes run, then prints the live heap and the qstr pool.
LAYERS = (
    ("display (board, I2C adapter, adafruit_ssd1306)", ""),
    ("+ buttons, sound, sand timer", """
from buttons import Buttons
from sound import Sound
from shared_rules.timer import SandTimer
keep = [Buttons(b.ticks_ms()), Sound(b.buzzer, True), SandTimer(b.ticks_ms, 60000)]
"""),
    ("+ storage and journal", """
from store.files import Store
from store.journal import Journal
st = Store(b.storage_root)
keep.append(Journal(st))
"""),
    ("the app booted to its Home menu", None),
)

_PROBE = """
import gc, micropython
import boards
b = boards.setup()
%s
b.display.fill(0)
b.display.text("probe", 0, 0, 1)
b.display.show()
for i in range(3):
    b.idle(20)
gc.collect()
print("LIVE", gc.mem_alloc())
micropython.qstr_info()
"""

_APP_PROBE = """
import gc, micropython
import boards
import app
b = boards.setup()
a = app.App(b)
a.boot()
for i in range(3):
    a.step()
gc.collect()
print("LIVE", gc.mem_alloc())
micropython.qstr_info()
"""


def probe_layer(code, kb):
    """(live bytes, qstr pool bytes) with a heap of `kb`, or None if it fails."""
    from moontable.sim.board_link import BoardExited, SimBoard, deploy

    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash"
        deploy(flash)
        (flash / "main.py").write_text(_APP_PROBE if code is None else _PROBE % code)
        board = SimBoard(flash, heap="%dK" % kb, do_deploy=False)
        try:
            board.start()
            board.advance(200)
        except (BoardExited, TimeoutError, OSError):
            pass
        finally:
            board.stop(5)
        out = board.serial_text()
    live = qstr = None
    for line in out.splitlines():
        if line.startswith("LIVE "):
            live = int(line.split()[1])
        elif line.startswith("qstr pool:"):
            qstr = int(line.rsplit("n_total_bytes=", 1)[1])
    if live is None or "Traceback" in out:
        return None
    return live, qstr


def floor():
    print()
    print("the floor: the board's layers alone (no session), one on top of the other")
    code = ""
    for name, extra in LAYERS:
        if extra is not None:
            code += extra
        layer = None if extra is None else code
        seen = probe_layer(layer, 1024)
        lo, hi = 16, 256
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if probe_layer(layer, mid):
                hi = mid
            else:
                lo = mid
        print("%-48s live %5.1f KB (qstr pool %4.1f KB)  smallest heap %d KB"
              % (name, seen[0] / 1024, seen[1] / 1024, hi))


# --- 32-bit ---------------------------------------------------------------------
LAYOUTS = ("flash", "romfs")

# The firmware's memory savings, each switched off at run time by code put
# before main.py's own (so the firmware itself stays as it is): the name,
# what it does, and the prelude that undoes it.
_NO_DROP = """
import loader
loader.drop = lambda names: None
"""
SAVINGS = (
    ("drop", "every module let go (loader.drop: screens, moments, protocol)", _NO_DROP),
    ("protocol", "serial protocol loaded only when a byte arrives",
     "from link import protocol as _protocol_kept\n"),
)


FAILED = []  # (session, layout, why) of scripted sessions that did not play through


def peak32(game, layout, prelude=None):
    """Peak live heap in KB (32-bit) of one session in one layout, or None
    when its script fails (the reason goes to FAILED and stderr): a figure
    from half a session would understate it."""
    from sessions import run_session

    with tempfile.TemporaryDirectory() as tmp:
        try:
            r = run_session(game, tmp, wasm=True, romfs=True if layout == "romfs" else None, prelude=prelude)
        except Exception as e:  # noqa: BLE001 - reported, and the exit status says so
            why = (str(e).strip().splitlines() or [type(e).__name__])[0]
            FAILED.append((game, layout, why))
            print("%s (%s): the scripted session failed: %s" % (game, layout, why), file=sys.stderr)
            return None
    return round(r["heap"]["peak"] / 1024, 1)


def _kb(v, budget=None):
    if v is None:
        return "failed"
    return "%.1f%s" % (v, " OVER" if budget is not None and v > budget else "")


def figures32(games):
    """{game: {"flash": KB, "romfs": KB}}."""
    return {g: {lay: peak32(g, lay) for lay in LAYOUTS} for g in games}


def table32(games, with64=True):
    import sessions

    print("peak live heap at loop-pass boundaries, 32-bit (MicroPython %s WebAssembly port), KB"
          % "1.29")
    print("budget: %d KB for each session (tests/budgets.py; ROMFS, with the code out of the heap, is always lower)"
          % HEAP_KB)
    print("%-16s %-11s %-11s %s" % ("session", "flash", "romfs", "unix 64-bit smallest heap" if with64 else ""))
    for g in games:
        f = {lay: peak32(g, lay) for lay in LAYOUTS}
        kb64 = ""
        if with64:
            got = smallest(lambda tmp, g=g: sessions.SESSIONS[g](tmp), 32, 512)
            kb64 = "%s KB" % got if got else "> 512 KB (or the script fails)"
        print("%-16s %-11s %-11s %s" % (g, _kb(f["flash"], HEAP_KB), _kb(f["romfs"], HEAP_KB), kb64),
              flush=True)


def savings32(games):
    """Each saving switched off, per game and layout: the peak and what
    the saving is worth (off minus on)."""
    print("what each memory saving is worth, 32-bit peak live heap, KB (on -> off = cost of removing it)")
    base = {g: {lay: peak32(g, lay) for lay in LAYOUTS} for g in games}
    for name, what, prelude in SAVINGS:
        print("%s: %s" % (name, what))
        for g in games:
            cells = []
            for lay in LAYOUTS:
                off = peak32(g, lay, prelude)
                on = base[g][lay]
                delta = "(%+.1f)" % (off - on) if off is not None and on is not None else ""
                cells.append("%s %s -> %s %s" % (lay, _kb(on), _kb(off), delta))
            print("  %-16s %s" % (g, "   ".join(cells)), flush=True)


# --- the interned names (--names) -----------------------------------------------
# Run before main.py's own code: a loop pass with all four buttons held (a
# chord no scripted session presses) prints the interned names instead of
# stepping the app.
_NAMES_PRELUDE = """
import app as _names_app
_names_step = _names_app.App.step
def _names_or_step(self):
    if self.board.buttons.read() != 15:
        return _names_step(self)
    import gc, micropython, sys
    gc.collect()
    print("NAMES-AT", gc.mem_alloc())
    micropython.qstr_info(1)
    print("NAMES-END")
    self.board.idle(20)
_names_app.App.step = _names_or_step
del _names_app
"""


def _names_now(board):
    """The board's interned names now: (qstr_info's summary line, [names])."""
    board.serial_text()
    start = len(board.serial_out)
    held = board.mask
    board.mask = 15
    for _ in range(50):
        board.tick(20)
        board.serial_text()
        if b"NAMES-END" in board.serial_out[start:]:
            break
    board.mask = held
    board.tick(20)
    text = bytes(board.serial_out[start:]).decode("utf-8", "replace")
    del board.serial_out[start:]  # not for the PC side of a sync
    body = text[text.index("NAMES-AT"):text.index("NAMES-END")].splitlines()
    summary = [x for x in body if x.startswith("qstr pool")][0]
    return summary, [x[2:-1] for x in body if x.startswith("Q(") and x.endswith(")")]


def _mpy_names(data):
    """The names an .mpy file's qstr table interns when it loads (those
    the firmware has built in are marked static in the file: left out)."""
    def uint(i):
        n = 0
        while True:
            c = data[i]
            i += 1
            n = (n << 7) | (c & 0x7F)
            if not c & 0x80:
                return n, i

    if data[:1] != b"M":
        raise ValueError("not an .mpy file")
    n, i = uint(4)
    _, i = uint(i)
    out = []
    for _ in range(n):
        size, i = uint(i)
        if not size & 1:
            out.append(data[i:i + (size >> 1)].decode())
            i += (size >> 1) + 1
    return out


def names32(layout="flash"):
    """The evening (tests/wasm/sessions.py) with the interned names read
    after each game and after the sync; prints how many there are against
    the qstr pools, and where the last reading's come from."""
    import simtools
    from sessions import run_session

    from moontable.sim.board_link import deploy

    seen = []
    real = simtools.no_faults

    def read_names(board):  # every game's script ends with it, and so does the evening
        seen.append(_names_now(board))
        return real(board)

    simtools.no_faults = read_names
    try:
        with tempfile.TemporaryDirectory() as tmp:
            run_session("evening", tmp, wasm=True, romfs=True if layout == "romfs" else None, prelude=_NAMES_PRELUDE)
    finally:
        simtools.no_faults = real
    tables = {}
    with tempfile.TemporaryDirectory() as tmp:
        deploy(Path(tmp))
        for f in sorted(Path(tmp).rglob("*.mpy")):
            tables[str(f.relative_to(tmp))[:-4].replace("/", ".")] = set(_mpy_names(f.read_bytes()))
    print("interned names (qstrs) in the evening, 32-bit, %s layout (each reading counts its own 5 names);"
          " six pools hold %d names, the seventh"
          " takes %d more (about 10 KB at once)" % (layout, QSTR_POOLS_6, 2 * 640))
    for what, (summary, names) in zip(("after Moonstar", "after Shoot the Moon", "after Moon", "after Moons",
                                       "after the sync"), seen):
        print("  %-22s %s" % (what, summary))
    names = [n for n in seen[-1][1] if not n.startswith("_names_") and n not in ("NAMES-AT", "NAMES-END")]
    files = [n for n in names if n.endswith(".mpy") or n.endswith(".py")]
    from_mpy = {}
    for n in names:
        mods = [m for m, t in tables.items() if n in t]
        if mods:
            from_mpy[n] = mods
    print("the last reading: %d names: %d modules' file names (__file__), %d from the .mpy files' tables,"
          " %d others (module names' last parts, names made at run time)"
          % (len(names), len(files), len(from_mpy), len(names) - len(files) - len(from_mpy)))
    only = {}
    for n, mods in from_mpy.items():
        if len(mods) == 1:
            only.setdefault(mods[0], []).append(n)
    print("names only one module brings, by module (most first):")
    for m, ns in sorted(only.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print("  %3d %-38s %s" % (len(ns), m, " ".join(sorted(repr(x) if not x.isidentifier() else x for x in ns))))


QSTR_POOLS_6 = 20 + 40 + 80 + 160 + 320 + 640  # qstr pools double from 20 entries


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lo", type=int, default=32, help="KB known (or assumed) to fail")
    ap.add_argument("--hi", type=int, default=512, help="KB expected to work")
    ap.add_argument("--floor", action="store_true", help="measure only the floor (the board's layers)")
    ap.add_argument("--bits", type=int, choices=(32, 64), default=64,
                    help="32: the board's word size, under the WebAssembly port (peak live heap per layout)")
    ap.add_argument("--json", action="store_true", help="with --bits 32: one JSON object {game: {flash, romfs}}")
    ap.add_argument("--games", help="with --bits 32: comma-separated sessions (default: all)")
    ap.add_argument("--savings", action="store_true", help="with --bits 32: each memory saving switched off")
    ap.add_argument("--no-64", action="store_true", help="with --bits 32: leave out the 64-bit column")
    ap.add_argument("--names", choices=LAYOUTS, help="with --bits 32: the interned names the evening leaves, "
                    "read after each game and the sync, and the modules they come from")
    args = ap.parse_args()
    if args.bits == 32:
        import sessions

        games = args.games.split(",") if args.games else list(sessions.SESSIONS)
        if args.names:
            names32(args.names)
        elif args.json:
            print(json.dumps(figures32(games)))
        elif args.savings:
            savings32(games)
        else:
            table32(games, with64=not args.no_64)
        if FAILED:
            sys.exit(1)
        return
    if args.floor:
        floor()
        return
    print("full scripted session per game, MicroPython unix port (8-byte words), firmware deployed as .mpy")
    print("64K works: %s" % ", ".join("%s=%s" % (g, "yes" if works(s, 64) else "no") for g, s in SESSIONS.items()))
    worst = 0
    for game, session in SESSIONS.items():
        kb = smallest(session, args.lo, args.hi)
        worst = max(worst, kb or 10 ** 6)
        print("%-15s smallest heap: %s" % (game, ("%d KB" % kb) if kb else "> %d KB" % args.hi))
    test_kb = int(simtools.TEST_HEAP.rstrip("K"))
    print("simulator tests run with %s: %s" % (simtools.TEST_HEAP, "fits" if worst <= test_kb else "TOO SMALL"))
    floor()


if __name__ == "__main__":
    main()
