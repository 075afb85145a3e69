"""The 32-bit interpreter for the tests and the benches: MicroPython's
WebAssembly port run by our Node runner (web/run.mjs), which takes the
same command line and environment as the `micropython` binary.

WasmBoard is the simulated board (host/sim/board_link.SimBoard: the same
hardware link, the same emulator, the same button presses) with its
firmware run by the 32-bit interpreter instead of the unix port. It also
keeps the live heap the runner measured at every loop pass (peak_heap()).

A missing Node or a missing package is an error, never a skip: `make test`
installs both (web/package-lock.json).
"""

import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

from moontable.sim import board_link
from moontable.sim.board_link import SimBoard

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
RUNNER = WEB / "run.mjs"
PACKAGE = WEB / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


@functools.lru_cache(maxsize=None)
def node_path():
    """The node binary (18 or newer: the system's, else the one the venv's
    pyright[nodejs] brings; web/node-bin.sh decides, as for `make test`);
    AssertionError saying what to install otherwise."""
    venv = Path(sys.executable).parent.parent
    proc = subprocess.run(["sh", str(WEB / "node-bin.sh"), str(venv)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr.strip()
    node = str(Path(proc.stdout.strip()) / "node")
    assert (PACKAGE / "micropython.mjs").is_file(), \
        "the WebAssembly MicroPython is not installed: run `make test` (npm ci in web/)"
    return node


def runner_command():
    """argv prefix that runs the 32-bit interpreter like `micropython`."""
    return [node_path(), str(RUNNER)]


def run(args, **kw):
    """Run the runner with these arguments (like subprocess.run)."""
    kw.setdefault("capture_output", True)
    kw.setdefault("text", True)
    kw.setdefault("timeout", 300)
    return subprocess.run(runner_command() + list(args), **kw)


class _Wrapper:
    """A one-file executable that SimBoard can start in place of the
    `micropython` binary: node and the runner, with the stats file."""

    def __init__(self, folder, stats):
        self.path = Path(folder) / "micropython-wasm32"
        cmd = " ".join("'%s'" % c for c in runner_command())
        self.path.write_text("#!/bin/sh\nexec %s --stats '%s' \"$@\"\n" % (cmd, stats))
        self.path.chmod(0o755)


_ROMFS = {}


def romfs_layout():
    """(image path, {flash path: bytes}): the app as `moontable flash
    --romfs` lays it out on a board with the sim pin map (host/deploy.py
    builds both; the image with mpremote's `romfs build`). Built once per
    process, into build/wasm-romfs/."""
    if not _ROMFS:
        from moontable import deploy as dp

        files = dp.build_app()
        files["board.json"] = dp.pin_map("sim")
        image_files, flash_files = dp.romfs_split(files)
        out = ROOT / "build" / "wasm-romfs"
        out.mkdir(parents=True, exist_ok=True)
        path = out / ("app-%d.romfs" % os.getpid())
        path.write_bytes(dp.build_romfs_image(image_files))
        _ROMFS["layout"] = (path, flash_files)
    return _ROMFS["layout"]


class WasmBoard(SimBoard):
    """SimBoard whose firmware runs under the 32-bit WebAssembly port.

    With `romfs=True` the board is laid out as `moontable flash --romfs`
    does it (romfs_layout()): the compiled app in a ROMFS image mounted at
    /rom, and only main.py, board.json and the data on the flash folder.
    (`romfs` may also name another image file.)"""

    def __init__(self, flash, *args, romfs=None, prelude=None, **kw):
        deploy = kw.pop("do_deploy", True)
        if romfs is True:
            romfs, flash_files = romfs_layout()
            if deploy:
                Path(flash).mkdir(parents=True, exist_ok=True)
                for rel, data in flash_files.items():
                    (Path(flash) / rel).write_bytes(data)
            deploy = False
        self.romfs = romfs
        super().__init__(flash, *args, do_deploy=deploy, **kw)
        if prelude:
            # code run before the boot (bench/memory.py switches a memory
            # saving off at run time this way, leaving the firmware as it is)
            main = self.flash / "main.py"
            main.write_text(prelude + "\n" + main.read_text())
        self.stats_file = self.flash.parent / (self.flash.name + ".wasm-heap.json")
        self._wrapper = _Wrapper(self.flash.parent, self.stats_file)

    def start(self, *args, **kw):
        self.extra_env.setdefault("MICROPYPATH", "")  # the unix port's rom folder (machine.py) is not for this port
        if self.romfs is not None:
            self.extra_env["MOONWASM_ROMFS"] = str(self.romfs)
        if self.stats_file.exists():
            self.stats_file.unlink()
        with mock.patch.object(board_link, "micropython_path", lambda: str(self._wrapper.path)):
            return super().start(*args, **kw)

    def heap_stats(self):
        """The runner's figures so far: {"peak", "live", "steps", "grown"}."""
        return json.loads(self.stats_file.read_text())

    def peak_heap(self):
        """Peak live heap (bytes) at the loop-pass boundaries so far."""
        return self.heap_stats()["peak"]


def use_wasm_boards(monkeypatch, **kw):
    """Make the simulator tests' new_board() start WasmBoards (so their
    scripted games run unchanged under the 32-bit interpreter). Returns the
    list the boards are appended to."""
    import simtools

    made = []

    def make(flash, *a, **k):
        k.update(kw)
        b = WasmBoard(flash, *a, **k)
        made.append(b)
        return b

    monkeypatch.setattr(simtools, "SimBoard", make)
    return made
