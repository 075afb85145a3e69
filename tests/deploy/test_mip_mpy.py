"""The app compiled for mip (`python -m moontable.deploy --mip-mpy DIR`):
DIR/package.json names every file a `moontable flash` sends, the .mpy
files byte for byte; served over HTTP, the real `mpremote mip install`
puts exactly those on a MicroPython (unix port) REPL on a pty; and the
tree mip installed boots on the 32-bit port (the board's word size) and
plays a whole game within the 32-bit heap budget for .mpy on flash."""

import functools
import http.server
import json
import os
import pty
import subprocess
import sys
import threading
import tty
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
for p in (ROOT, ROOT / "tests", ROOT / "tests" / "sim", ROOT / "tests" / "wasm"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from moontable import deploy as dp  # noqa: E402
from moontable.sim.board_link import micropython_path  # noqa: E402

from budgets import HEAP_KB as BUDGET_KB  # noqa: E402  (peak live heap, 32-bit, .mpy files on the flash)


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    out = tmp_path_factory.mktemp("mip") / "moontable-mpy"
    r = subprocess.run([sys.executable, "-m", "moontable.deploy", "--mip-mpy", str(out), "pico"], cwd=ROOT,
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr
    return out


def test_the_package_names_every_file_of_a_flash_compiled(package):
    pkg = json.loads((package / "package.json").read_text())
    built = dp.build("pico")
    assert sorted(d for d, _ in pkg["urls"]) == sorted(built)
    for dest, src in pkg["urls"]:
        assert not src.startswith(("http", "/")) and ".." not in src
        assert (package / src).read_bytes() == built[dest], dest
    assert [d for d, _ in pkg["urls"] if d.endswith(".py")] == ["main.py"]  # main.py must stay source
    assert all(built[d][:2] == b"M\x06" for d, _ in pkg["urls"] if d.endswith(".mpy"))


def test_bad_arguments_say_what_to_do(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "moontable.deploy", "--mip-mpy", str(tmp_path / "x"), "arduino"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 1 and "unknown board 'arduino'" in r.stderr and not (tmp_path / "x").exists()
    r = subprocess.run([sys.executable, "-m", "moontable.deploy", "--mip"], capture_output=True, text=True, env=env)
    assert r.returncode == 1 and "--mip-mpy DIR [BOARD]" in r.stderr


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass


def mip_install(url, flash):
    """The real `mpremote mip install --target FLASH URL` against the unix
    port's REPL on a pty (its filesystem is this machine's, so FLASH is
    where the files land)."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    proc = subprocess.Popen([micropython_path(), "-i"], cwd=flash, stdin=master, stdout=master, stderr=master,
                            start_new_session=True)
    try:
        r = subprocess.run([sys.executable, "-m", "mpremote", "connect", os.ttyname(slave), "resume",
                            "mip", "install", "--target", str(flash), url],
                           capture_output=True, text=True, timeout=600)
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
        os.close(slave)
    return r


def test_mip_installs_the_compiled_app_over_http_and_it_plays_a_game_on_the_32_bit_port(package, tmp_path,
                                                                                         monkeypatch):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(package)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    flash = tmp_path / "flash"
    flash.mkdir()
    try:
        r = mip_install("http://127.0.0.1:%d/package.json" % server.server_address[1], flash)
    finally:
        server.shutdown()
    assert r.returncode == 0, r.stdout + r.stderr
    built = dp.build("pico")
    installed = {p.relative_to(flash).as_posix(): p.read_bytes() for p in flash.rglob("*") if p.is_file()}
    assert installed == built  # every file, byte for byte: bytecode, no source but main.py

    # This board is the simulator: the sim pin map in place of the Pico's.
    (flash / "board.json").write_bytes(dp.pin_map("sim"))
    import simtools
    import test_sim_games
    from wasmkit import WasmBoard

    made = []

    def installed_board(tmp, seed=7):
        b = WasmBoard(flash, seed=seed, do_deploy=False, heap="%dK" % BUDGET_KB)
        made.append(b)
        return b.start()

    monkeypatch.setattr(simtools, "new_board", installed_board)
    monkeypatch.setattr(simtools, "snap", lambda board, name: None)
    test_sim_games.test_moon_dominoes_full_game(tmp_path)
    m = simtools.replay(flash)
    assert m.winner() == 0 and m.state["scores"] == [5, 1, 1]
    peak = made[0].peak_heap()
    assert peak <= BUDGET_KB * 1024, "peak live heap %.1f KB over the %d KB budget" % (peak / 1024, BUDGET_KB)
    assert not [p for p in flash.rglob("*.py") if p.name != "main.py"]
