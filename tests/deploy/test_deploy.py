"""`moontable flash` end to end against a simulated board on a pty, with the
real mpremote, mpy-cross and MicroPython unix port:

- a board fresh out of the box (MicroPython at the REPL, empty flash) gets
  the app; then the simulated board boots from the deployed files alone
  (.mpy everywhere, main.py the only source) and draws the same screen as
  a board booted from sources;
- a board whose app is running (the simulator, `moontable sim`, on its
  printed pty) is stopped with the protocol's return-to-REPL command, a
  second flash sends nothing, and the board's soft reset boots the app
  again, as a board does;
- --dry-run lists what would change and changes nothing; a real flash then
  fixes exactly that;
- a board with another .mpy version, or another platform, is refused before
  anything is written.

The "fresh board" is the simulator on an empty folder: with no main.py it
boots to MicroPython's REPL (raw REPL included), which is what a real
board's USB serial gives mpremote. A bare `micropython -i` on a pty (PtyRepl)
stands in for boards the simulator cannot be: a board left at its REPL, and
boards faking another .mpy version or platform.
"""

import os
import pty
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from moontable import deploy as dp  # noqa: E402
from moontable.sim.board_link import SimBoard, micropython_path  # noqa: E402
from moontable.sim.run import SOFT_REBOOT, Live  # noqa: E402

REAL_BUILD_APP = dp.build_app


# --- harness -------------------------------------------------------------------
class PtyRepl:
    """A bare MicroPython (unix port) at its REPL on a pty, folder = flash.
    `script` runs first (with -i the REPL follows, as on a board)."""

    def __init__(self, flash, script=None):
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.slave = slave
        self.port = os.ttyname(slave)
        cmd = [micropython_path(), "-i"] + ([script] if script else [])
        self.proc = subprocess.Popen(cmd, cwd=flash, stdin=self.master, stdout=self.master,
                                     stderr=self.master, start_new_session=True)

    def wait_exit(self, timeout=10):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class LiveSim:
    """The simulated board as `moontable sim --headless` runs it: the app
    (live clock) with its USB serial on the printed pty, rebooting as a
    board does; its loop runs in a thread."""

    def __init__(self, flash):
        self.live = Live(flash, headless=True)
        self.port = self.live.port
        self.live.boot()
        self.thread = threading.Thread(target=self.live.loop, daemon=True)
        self.thread.start()

    @property
    def board(self):
        return self.live.board

    def wait_drawn(self, timeout=20):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.board.writes > 5 and any(any(row) for row in self.board.emu.pixels):
                return True
            time.sleep(0.05)
        return False

    def wait_reboot(self, since, timeout=15):
        """Exit status of the run that ended once the board has booted
        the app again after boot number `since`; None if it did not."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            boots = self.live.boots[since:]
            if boots and boots[-1][1] == "app":
                return boots[0][0]
            time.sleep(0.05)
        return None

    def close(self):
        self.live.stop()
        self.thread.join(10)
        self.live.close()


def flash_files(flash):
    """{relative path: bytes} of a flash folder, data/ excluded."""
    out = {}
    for p in Path(flash).rglob("*"):
        rel = p.relative_to(flash).as_posix()
        if p.is_file() and not rel.startswith("data/"):
            out[rel] = p.read_bytes()
    return out


def boot_screen(flash):
    """Boot the simulated board (virtual clock) from a flash folder; the
    panel text and the serial output after the first loop passes."""
    sim = SimBoard(flash, do_deploy=False)
    try:
        sim.start()
        sim.advance(500)
        return sim.text(), sim.serial_text()
    finally:
        sim.kill()


@pytest.fixture(scope="module", autouse=True)
def one_build():
    """Compile once per module: every flash here deploys the same bytes,
    whatever happens to the sources meanwhile."""
    app = dp.build_app()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dp, "build_app", lambda: dict(app))
        yield app


@pytest.fixture(scope="module")
def deployed(tmp_path_factory, one_build):
    """A fresh board flashed once: (flash folder, summary, log lines, exit code)."""
    flash = tmp_path_factory.mktemp("flash")
    board = LiveSim(flash)  # no main.py: the simulated board boots to its REPL
    lines = []
    try:
        assert board.live.boots == [(None, "repl")]
        summary = dp.deploy(port=board.port, log=lines.append)
        code = board.wait_reboot(1)
        assert board.wait_drawn(), "the flashed app did not start"
    finally:
        board.close()
    return flash, summary, lines, code


# --- a fresh board --------------------------------------------------------------
def test_fresh_board_gets_every_file_as_mpy_and_a_verified_manifest(deployed):
    import json

    flash, summary, lines, code = deployed
    built = dp.build("sim")
    assert summary["board"] == "sim"  # from sys.platform "linux"
    assert sorted(summary["sent"]) == sorted(built)
    assert summary["removed"] == [] and summary["verified"] == len(built)
    assert summary["reset"] == "soft" and code == 0  # a clean soft reset, then the board booted the app
    files = flash_files(flash)
    sources = [p for p in files if p.endswith(".py")]
    assert sources == ["main.py"]
    assert files["board.json"] == (ROOT / "hardware/boards/sim.json").read_bytes()
    for path, data in built.items():
        assert files[path] == data, path
    manifest = json.loads(files[dp.MANIFEST])
    assert manifest["files"] == {p: dp.sha256(d) for p, d in built.items()}
    assert manifest["mpy"] == "6.3" and manifest["board"] == "sim"
    assert "mpy v6.3" in manifest["mpy_cross"]
    assert any("verified %d files" % len(built) in line for line in lines)


def test_board_boots_from_the_deployed_mpy_files_alone(deployed, tmp_path):
    flash = deployed[0]
    assert not [p for p in flash_files(flash) if p.endswith(".py") and p != "main.py"]
    text, serial = boot_screen(flash)
    assert "Traceback" not in serial, serial
    assert text.strip(), "nothing drawn"
    # the same firmware booted from its sources draws the same screen
    src_flash = tmp_path / "src"
    sim = SimBoard(src_flash)  # the simulator's own source deploy
    try:
        sim.start()
        sim.advance(500)
        assert sim.text() == text
    finally:
        sim.kill()


# --- a board running the app ------------------------------------------------------
def test_second_flash_stops_the_running_app_and_sends_nothing(deployed, tmp_path):
    import shutil

    flash = tmp_path / "flash"
    shutil.copytree(deployed[0], flash)
    before = flash_files(flash)
    live = LiveSim(flash)
    try:
        assert live.wait_drawn(), "the app did not start"
        boots = len(live.live.boots)
        lines = []
        summary = dp.deploy(port=live.port, log=lines.append)
        assert summary["stopped_app"] == "protocol"
        assert summary["sent"] == [] and summary["removed"] == []
        assert summary["unchanged"] == len(dp.build("sim"))
        assert any("0 to send, 0 to remove" in line for line in lines)
        assert live.wait_reboot(boots) == 0  # the soft reset ended the run cleanly, and the app boots again
        assert live.wait_drawn(), "the app did not start again"
        heard = bytes(live.live.heard)
        assert "Traceback" not in heard[heard.rindex(SOFT_REBOOT):].decode("utf-8", "replace")
    finally:
        live.close()
    after = flash_files(flash)
    assert {p: d for p, d in after.items() if p != dp.MANIFEST} == \
        {p: d for p, d in before.items() if p != dp.MANIFEST}


# --- dry run, then the fix ------------------------------------------------------------
def test_dry_run_lists_changes_and_changes_nothing_then_flash_fixes_them(deployed, tmp_path, monkeypatch):
    import shutil

    flash = tmp_path / "flash"
    shutil.copytree(deployed[0], flash)
    (flash / "sound.mpy").unlink()                                  # lost
    (flash / "app.py").write_text("raise SystemExit('stale source')\n")  # would shadow app.mpy
    (flash / "notes.txt").write_text("the player's own file\n")      # not ours: kept
    (flash / "data").mkdir(exist_ok=True)
    (flash / "data" / "roster.json").write_text('["Ann"]')
    real_pin_map = dp.pin_map
    monkeypatch.setattr(dp, "pin_map", lambda b: real_pin_map(b) + b"\n")  # a changed pin map
    before = flash_files(flash)

    board = PtyRepl(flash)
    try:
        lines = []
        summary = dp.deploy(port=board.port, dry_run=True, log=lines.append, reset=False)
    finally:
        board.close()
    assert summary["dry_run"] and sorted(summary["sent"]) == ["board.json", "sound.mpy"]
    assert summary["removed"] == ["app.py"]
    text = "\n".join(lines)
    assert "would send sound.mpy (missing on the board" in text
    assert "would send board.json (changed" in text
    assert "would remove app.py (source that would shadow app.mpy)" in text
    assert flash_files(flash) == before

    board = PtyRepl(flash)
    try:
        summary = dp.deploy(port=board.port, log=lambda m: None)
        assert board.wait_exit() == 0
    finally:
        board.close()
    assert sorted(summary["sent"]) == ["board.json", "sound.mpy"] and summary["removed"] == ["app.py"]
    after = flash_files(flash)
    assert "app.py" not in after and after["sound.mpy"] == dp.build("sim")["sound.mpy"]
    assert after["notes.txt"] == before["notes.txt"]
    assert (flash / "data" / "roster.json").read_text() == '["Ann"]'
    assert after["board.json"] == real_pin_map("sim") + b"\n"


# --- refusals -----------------------------------------------------------------------
FAKE = """
import sys
class _Impl:
    name = "micropython"
    _mpy = %(mpy)d
class _FakeSys:
    implementation = _Impl()
    platform = %(platform)r
    version = "3.4.0; MicroPython (test double)"
    def __getattr__(self, k):
        return getattr(sys, k)
sys.modules["sys"] = _FakeSys()
"""


def refused(tmp_path, mpy, platform="linux", board=None):
    flash = tmp_path / "flash"
    flash.mkdir()
    script = tmp_path / "fake_sys.py"
    script.write_text(FAKE % {"mpy": mpy, "platform": platform})
    b = PtyRepl(flash, str(script))
    try:
        with pytest.raises(dp.DeployError) as e:
            dp.deploy(port=b.port, board=board, log=lambda m: None)
    finally:
        b.close()
    assert list(flash.iterdir()) == []  # nothing written
    return str(e.value)


def test_refuses_a_board_with_another_mpy_version(tmp_path):
    msg = refused(tmp_path, 5 | (4 << 10), board="sim")  # MicroPython 1.12-1.18 on an RP2040
    assert ".mpy v5 (MicroPython 1.12 - 1.18)" in msg
    assert "compiled to .mpy v6.3" in msg
    assert "install MicroPython 1.23.0 or newer" in msg


def test_refuses_a_board_with_an_older_mpy_sub_version(tmp_path):
    msg = refused(tmp_path, 6 | ((2 | (4 << 2)) << 8), board="sim")  # 1.22 on an RP2040
    assert "too old" in msg and "v6.2 (MicroPython 1.22.x), native arch armv6m" in msg
    assert "install MicroPython 1.23.0 or newer" in msg


def test_refuses_a_pin_map_for_another_board(tmp_path):
    msg = refused(tmp_path, 2822, board="pico")
    assert "--board pico, but the board" in msg and "is a sim" in msg


def test_mismatch_message_names_the_firmware_download_for_the_board():
    with pytest.raises(dp.DeployError) as e:
        dp.check_compat(5 | (10 << 10), (6, 3), "esp32")
    assert "ESP32_GENERIC" in str(e.value)
    with pytest.raises(dp.DeployError) as e:
        dp.check_compat(None, (6, 3), "pico")
    assert "cannot import .mpy" in str(e.value) and "RPI_PICO" in str(e.value)
    dp.check_compat(6 | ((3 | (4 << 2)) << 8), (6, 3), "pico")  # a Pico on 1.23+: accepted


# --- pure parts -----------------------------------------------------------------------
def test_decode_mpy_known_boards():
    assert dp.decode_mpy(2822) == (6, 3, "x64")            # this unix port
    assert dp.decode_mpy(6 | (19 << 8)) == (6, 3, "armv6m")  # RP2040
    assert dp.decode_mpy(6 | (43 << 8)) == (6, 3, "xtensawin")  # ESP32
    assert dp.describe_mpy(6 | (43 << 8)) == "v6.3 (MicroPython 1.23.0 or newer), native arch xtensawin"


def test_plan_sends_only_what_differs():
    files = {"a.mpy": b"A", "b.mpy": b"BB", "main.py": b"m"}
    manifest = {"files": {"a.mpy": dp.sha256(b"A"), "b.mpy": dp.sha256(b"old"), "gone.mpy": "x"}}
    present = {"a.mpy": 1, "b.mpy": 3, "gone.mpy": 4, "a.py": 9, "boot.py": 5, "manifest.json": 10}
    todo = dp.plan(files, manifest, present)
    assert todo["send"] == [("b.mpy", "changed"), ("main.py", "new")]
    assert todo["keep"] == ["a.mpy"]
    assert todo["remove"] == [("a.py", "source that would shadow a.mpy"), ("gone.mpy", "no longer part of the app")]
    # a file the manifest vouches for but whose size on the board differs is sent again
    assert dp.plan({"a.mpy": b"A"}, manifest, {"a.mpy": 7})["send"] == [("a.mpy", "size differs on the board")]
    # no manifest: everything present is compared as "not in the manifest"
    assert dp.plan({"a.mpy": b"A"}, None, {"a.mpy": 1})["send"] == [("a.mpy", "not in the manifest")]


def test_build_is_reproducible_and_compiles_everything_but_main():
    a = REAL_BUILD_APP()
    assert a == REAL_BUILD_APP()  # same bytes, same hashes: an unchanged app sends nothing
    a["board.json"] = dp.pin_map("pico")
    assert [p for p in a if p.endswith(".py")] == ["main.py"]
    assert a["board.json"] == (ROOT / "hardware/boards/pico.json").read_bytes()
    for name in ("adafruit_ssd1306.mpy", "adafruit_bus_device/i2c_device.mpy", "shared_rules/__init__.mpy",
                 "app.mpy", "boards/pico.mpy"):
        assert a[name][:2] == b"M\x06", name
    with pytest.raises(dp.DeployError, match="unknown board"):
        dp.build("arduino")


def test_cli_dry_run_without_a_board_says_how_to_name_the_port(capsys, monkeypatch):
    from moontable import cli

    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    code = cli.main(["flash", "--dry-run"])
    err = capsys.readouterr().err
    assert code == 1 and "--port" in err and "no moontable board found" in err
