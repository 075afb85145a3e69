"""Where a module load's time goes on the stock Pico firmware (emulated
RP2040, tests/board/harness.py): the image `moontable flash --board pico`
leaves, with main.py replaced by a probe that times, in emulated time on
the chip (time.ticks_us):

- `import X` of modules the app loads after an event or at a game start
  (each fresh, then dropped and imported again);
- the path search: os.stat() of a missing and of an existing name at each
  folder depth (MicroPython's import stats X, X.py then X.mpy in each
  sys.path entry, or in the package's folder);
- reading the file: open() and read() of the .mpy;
- building the code objects: the same .mpy imported from a folder mounted
  from RAM (a VFS object whose files are bytes already read), so neither
  the path search nor the flash is in it.

    .venv/bin/python bench/import_cost.py [--json]

Measured (issue 25, MicroPython v1.24.1 RPI_PICO, the image as `moontable
flash` lays it out; sys.path ['', '.frozen', '/lib']):
- one littlefs path lookup (os.stat of a missing name) costs 0.8 ms at the
  root, 2.3 ms one folder down (shared_rules/), 3.4 ms two down
  (shared_rules/moonstar/); open() of a file two down 3.9 ms, reading a
  1.4-3.3 KB .mpy after it 0.3-0.9 ms more;
- importing a module whose imports are loaded: 17-20 ms for the rules'
  modules two folders down (1.4-2.3 KB), 8-14 ms at the root or one down.
  MicroPython stats X, X.py and X.mpy in the package's folder (sys.path
  is only searched for top-level names, whose .mpy the first entry, the
  flash root, holds), then opens X.mpy: four lookups, about 13-14 ms of a
  rules module's 17-20, the rest reading (under 1 ms) and building the
  code objects (3-4 ms; more for bigger modules at the root: 8 ms for
  session.mpy's 2.9 KB). The "from RAM" column (a VFS object in Python
  serving bytes already read) is not the build alone: that VFS's own
  Python calls cost as much.
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "board")]

import harness  # noqa: E402

MODULES = (
    "shared_rules.moonstar.bid",
    "shared_rules.moonstar.allowed",
    "shared_rules.moonstar.check",
    "shared_rules.moonstar.opts",
    "shared_rules.moonstar.plan",
    "shared_rules.moonstar.result",
    "ui.moonstar.game",
    "ui.moonstar.situation",
    "ui.play",
    "ui.base",
    "session",
    "start",
)

PROBE = """\
import gc, os, sys, time
us = time.ticks_us
d = time.ticks_diff
def T(f, n=5):
    gc.collect()
    a = us()
    for _ in range(n):
        f()
    return d(us(), a) / n
def st(p):
    try:
        os.stat(p)
    except OSError:
        pass
def rd(p):
    with open(p, 'rb') as f:
        f.read()
def rd_small(p):
    with open(p, 'rb') as f:
        while f.read(32):
            pass
def op(p):
    open(p, 'rb').close()
class RamFS:
    def __init__(self):
        self.files = {}
    def mount(self, ro, mkfs):
        pass
    def umount(self):
        pass
    def stat(self, p):
        p = p.lstrip('/')
        if p in self.files:
            return (0x8000, 0, 0, 0, 0, 0, len(self.files[p]), 0, 0, 0)
        for k in self.files:
            if k.startswith(p + '/'):
                return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        raise OSError(2)
    def open(self, p, mode):
        import io
        return io.BytesIO(self.files[p.lstrip('/')])
    def ilistdir(self, p):
        return iter(())
    def chdir(self, p):
        pass
    def getcwd(self):
        return '/'
ram = RamFS()
os.mount(ram, '/ram')
print('PATH', sys.path)
for depth, base in ((0, ''), (1, 'shared_rules/'), (2, 'shared_rules/moonstar/')):
    print('STAT_MISS', depth, T(lambda: st(base + 'nope')))
    print('STAT_MISS_PY', depth, T(lambda: st(base + 'nope.py')))
print('STAT_HIT', 0, T(lambda: st('session.mpy')))
print('STAT_HIT', 2, T(lambda: st('shared_rules/moonstar/bid.mpy')))
print('STAT_DIR', 2, T(lambda: st('shared_rules/moonstar')))
import shared_rules, shared_rules.moonstar, ui, ui.moonstar
for name in %r:
    path = name.replace('.', '/') + '.mpy'
    size = os.stat(path)[6]
    gc.collect()
    a = us()
    __import__(name)
    t1 = d(us(), a)
    del sys.modules[name]
    gc.collect()
    a = us()
    __import__(name)
    t2 = d(us(), a)
    del sys.modules[name]
    o = T(lambda: op(path))
    r = T(lambda: rd(path))
    r32 = T(lambda: rd_small(path), 2)
    with open(path, 'rb') as f:
        ram.files[path] = f.read()
    sys.path.insert(0, '/ram')
    # a top-level name in RAM, so the search is one hit
    flat = 'r_' + name.replace('.', '_')
    ram.files[flat + '.mpy'] = ram.files[path]
    gc.collect()
    a = us()
    __import__(flat)
    tram = d(us(), a)
    del sys.modules[flat]
    sys.path.pop(0)
    ram.files.clear()
    print('MOD', name, size, t1, t2, o, r, r32, tram)
print('DONE')
"""


def run(log=print):
    files = harness.flash_files()
    files["main.py"] = (PROBE % (MODULES,)).encode()
    p = harness.Pico(harness.build_image(files))
    ok = p.run_until(lambda: "DONE" in p.serial_text() or "Traceback" in p.serial_text(), 60000, step_ms=20)
    text = p.serial_text()
    p.stop()
    if not ok or "Traceback" in text:
        raise SystemExit(text)
    out = {"stat": [], "modules": []}
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0].startswith("STAT"):
            out["stat"].append({"what": f[0].lower(), "depth": int(f[1]), "us": round(float(f[2]))})
        elif f[0] == "MOD":
            out["modules"].append(dict(zip(("module", "bytes", "import_us", "again_us", "open_us", "read_us",
                                             "read32_us", "from_ram_us"), [f[1]] + [round(float(x)) for x in f[2:]])))
        elif f[0] == "PATH":
            out["sys_path"] = line[5:]
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    out = run()
    if "--json" in argv:
        print(json.dumps(out, indent=1))
        return 0
    print("sys.path on the chip:", out.get("sys_path"))
    for s in out["stat"]:
        print("%-13s depth %d: %6d us" % (s["what"], s["depth"], s["us"]))
    print("%-28s %6s %8s %8s %7s %7s %8s %8s" % ("module", "bytes", "import", "again", "open", "read", "read32", "from RAM"))
    for m in out["modules"]:
        print("%-28s %6d %8d %8d %7d %7d %8d %8d" % (m["module"], m["bytes"], m["import_us"], m["again_us"], m["open_us"],
                                                   m["read_us"], m["read32_us"], m["from_ram_us"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
