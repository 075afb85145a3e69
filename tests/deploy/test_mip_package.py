"""package.json (for `mpremote mip install`): current, complete, and
installable. The install test runs the real `mpremote mip install` against
a MicroPython (unix port) REPL on a pty, with the four pinned driver URLs
served from the installed packages of the same versions (no network here),
then boots the simulated board from what mip wrote."""

import io
import json
import os
import pty
import subprocess
import sys
import tty
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from moontable import deploy as dp  # noqa: E402
from moontable.sim.board_link import SimBoard, micropython_path  # noqa: E402

PACKAGE = ROOT / "package.json"


def load():
    return json.loads(PACKAGE.read_text())


def test_package_json_is_current():
    assert PACKAGE.read_text() == dp.mip_package_text(), \
        "package.json is stale: run `python -m moontable.deploy --package-json`"


def test_every_listed_local_file_exists_and_urls_are_mip_forms():
    pkg = load()
    assert pkg["version"] and isinstance(pkg["deps"], list)
    dests = [d for d, _ in pkg["urls"]]
    assert len(dests) == len(set(dests))
    for dest, src in pkg["urls"]:
        assert not dest.startswith("/") and ".." not in dest
        if src.startswith("https://"):
            assert "/adafruit/" in src and src.endswith(dest)
        else:
            assert (ROOT / src).is_file(), src


def test_covers_every_firmware_and_shared_rules_module_and_the_drivers():
    dests = {d: s for d, s in load()["urls"]}
    for p in (ROOT / "firmware").rglob("*.py"):
        rel = p.relative_to(ROOT / "firmware").as_posix()
        assert dests.get(rel) == "firmware/" + rel, rel
    for p in (ROOT / "shared_rules").rglob("*.py"):
        rel = p.relative_to(ROOT).as_posix()
        assert dests.get(rel) == rel, rel
    for name in ("adafruit_ssd1306.py", "adafruit_bus_device/__init__.py", "adafruit_bus_device/i2c_device.py",
                 "adafruit_bus_device/spi_device.py", "board.json"):
        assert name in dests, name
    # the same files as a `moontable flash` deploy, in source form
    flashed = {p[:-4] + ".py" if p.endswith(".mpy") else p for p in dp.build("pico")}
    assert set(dests) == flashed


def test_driver_urls_are_pinned_to_the_installed_versions():
    from importlib.metadata import version

    urls = [s for _, s in load()["urls"] if s.startswith("https://")]
    assert any("/%s/" % version("adafruit-circuitpython-ssd1306") in u for u in urls if "SSD1306" in u)
    assert all("/%s/" % version("adafruit-circuitpython-busdevice") in u for u in urls if "BusDevice" in u)


class _Served(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


def test_mpremote_mip_install_of_package_json_gives_a_board_that_boots(tmp_path, monkeypatch):
    import importlib.util

    def fake_urlopen(url, *a, **k):
        url = getattr(url, "full_url", url)
        for _dist, repo, paths in dp.MIP_DRIVERS:
            for p in paths:
                if url.endswith("/" + p) and repo in url:
                    top = p.split("/")[0].removesuffix(".py")
                    spec = importlib.util.find_spec(top)
                    base = Path(spec.origin).parent
                    src = base / p if "/" not in p else base.parent / p
                    return _Served(src.read_bytes())
        raise AssertionError("unexpected download %s" % url)

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    flash = tmp_path / "flash"
    flash.mkdir()
    master, slave = pty.openpty()
    tty.setraw(slave)
    proc = subprocess.Popen([micropython_path(), "-i"], cwd=flash, stdin=master, stdout=master, stderr=master,
                            start_new_session=True)
    try:
        from mpremote.main import main as mpremote_main

        monkeypatch.setattr(sys, "argv", ["mpremote", "connect", os.ttyname(slave), "resume",
                                          "mip", "install", "--target", str(flash), str(PACKAGE)])
        try:
            mpremote_main()
        except SystemExit as e:
            assert not e.code, e.code
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
        os.close(slave)
    installed = sorted(p.relative_to(flash).as_posix() for p in flash.rglob("*") if p.is_file())
    assert installed == sorted(d for d, _ in load()["urls"])
    # a pico pin map was installed; this board is the simulator
    (flash / "board.json").write_bytes((ROOT / "hardware/boards/sim.json").read_bytes())
    sim = SimBoard(flash, do_deploy=False)
    try:
        sim.start()
        sim.advance(300)
        assert sim.text().strip()
        assert "Traceback" not in sim.serial_text()
    finally:
        sim.kill()
