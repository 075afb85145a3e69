"""`moontable flash --romfs`: the compiled app as one ROMFS image, written
with mpremote's own `romfs deploy`, on boards whose MicroPython has a
partition; main.py and the pin map stay on the read-write filesystem.

The boards are the unix port on a pty (test_deploy.PtyRepl) and the
simulated board itself (test_deploy.LiveSim). The unix port has no ROMFS
partition, which is the stock Pico and ESP32 downloads' case: the fall-back.
A partition is given to the pty board by a script that stands a `vfs`
module with `rom_ioctl` in front of the real one, keeping the partition in
a bytearray and saving it to partition.bin when a write completes (the
ioctl numbers are those of MicroPython's vfs_rom_ioctl that mpremote uses).
Finally the 32-bit interpreter boots the written image with the flash the
deploy left, and plays a session from it."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
for p in (ROOT, ROOT / "tests" / "deploy", ROOT / "tests" / "sim", ROOT / "tests" / "wasm"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from moontable import deploy as dp  # noqa: E402
from test_deploy import LiveSim, PtyRepl  # noqa: E402

FAKE_PARTITION = """
import sys
import vfs as _vfs


class _Rom:
    def __init__(self, size, block):
        self.part = bytearray(size)
        self.block = block

    def __getattr__(self, name):
        return getattr(_vfs, name)

    def rom_ioctl(self, op, *args):
        if op == 1:  # number of partitions
            return 1
        if op == 2:  # the partition's memory
            return memoryview(self.part) if args[0] == 0 else -19
        if op == 3:  # prepare for writing: the smallest write
            return 16
        if op == 4:  # write (id, offset, data)
            off, buf = args[1], args[2]
            self.part[off:off + len(buf)] = buf
            return 0
        if op == 5:  # writing done
            with open("partition.bin", "wb") as f:
                f.write(self.part)
            return 0
        if op == 6:  # erase block size
            return self.block
        return -22


sys.modules["vfs"] = _Rom(%(size)d, 4096)
"""


def pty_board(tmp_path, size):
    flash = tmp_path / "flash"
    flash.mkdir(exist_ok=True)
    script = tmp_path / "fake_romfs.py"
    script.write_text(FAKE_PARTITION % {"size": size})
    return flash, PtyRepl(flash, str(script))


def image_size():
    files = dp.build_app()
    files["board.json"] = dp.pin_map("sim")
    return len(dp.build_romfs_image(dp.romfs_split(files)[0]))


def test_a_board_without_romfs_says_so_in_one_line_and_gets_files(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    board = LiveSim(flash)  # the simulated board fresh out of the box: its MicroPython has no ROMFS
    lines = []
    try:
        summary = dp.deploy(port=board.port, log=lines.append, romfs=True)
        assert board.wait_reboot(1) is not None
    finally:
        board.close()
    said = [l for l in lines if "ROMFS" in l]
    assert said == ["this board's MicroPython has no ROMFS partition: deploying files instead "
                    "(docs/deploy.md says which firmware has one)"]
    assert summary["romfs"] is None
    assert (flash / "app.mpy").is_file() and (flash / "shared_rules" / "match.mpy").is_file()


def test_an_image_too_big_for_the_partition_is_refused_before_anything_is_written(tmp_path):
    flash, b = pty_board(tmp_path, 64 * 1024)
    try:
        with pytest.raises(dp.DeployError) as e:
            dp.deploy(port=b.port, board="sim", log=lambda m: None, romfs=True, reset=False)
    finally:
        b.close()
    msg = str(e.value)
    assert "ROMFS image is %d bytes but the board's partition holds 65536" % image_size() in msg
    assert "without --romfs" in msg
    assert sorted(p.name for p in flash.iterdir()) == []


def test_dry_run_reports_the_image_against_the_partition_and_changes_nothing(tmp_path):
    flash, b = pty_board(tmp_path, 512 * 1024)
    lines = []
    try:
        summary = dp.deploy(port=b.port, board="sim", log=lines.append, romfs=True, dry_run=True, reset=False)
    finally:
        b.close()
    size = image_size()
    assert "ROMFS image %d bytes, partition 524288 bytes (%d%% used)" % (size, 100 * size // 524288) in lines
    assert "would write the ROMFS image" in lines
    assert summary["romfs"]["size"] == size and sorted(summary["sent"]) == ["board.json", "main.py"]
    assert list(flash.iterdir()) == [] and not (tmp_path / "flash" / "partition.bin").exists()


def test_files_then_romfs_leaves_main_and_pin_map_and_the_image_boots_under_wasm32(tmp_path, monkeypatch):
    flash, b = pty_board(tmp_path, 512 * 1024)
    try:
        first = dp.deploy(port=b.port, board="sim", log=lambda m: None, reset=False)  # as without --romfs
        assert (flash / "ui" / "menus" / "home.mpy").is_file()
        lines = []
        summary = dp.deploy(port=b.port, board="sim", log=lines.append, romfs=True, reset=False)
    finally:
        b.close()
    assert first["romfs"] is None and summary["romfs"]["sent"]
    # the app's files are gone from the flash, their folders too (an empty
    # folder there would shadow the image's package of the same name)
    left = sorted(p.relative_to(flash).as_posix() for p in flash.rglob("*"))
    assert left == ["board.json", "main.py", "manifest.json", "partition.bin"], left
    manifest = json.loads((flash / "manifest.json").read_text())
    assert sorted(manifest["files"]) == ["board.json", "main.py"]
    written = (flash / "partition.bin").read_bytes()
    image = written[:summary["romfs"]["size"]]
    assert dp.sha256(image) == manifest["romfs"]["sha256"] and image.startswith(b"\xd2\xcd\x31")

    # the 32-bit interpreter boots the app from that image and plays a session
    (flash / "partition.bin").unlink()
    rom = tmp_path / "app.romfs"
    rom.write_bytes(image)
    import simtools

    made = []

    def board_from_the_deploy(folder, *a, **k):
        from wasmkit import WasmBoard

        wb = WasmBoard(flash, *a, romfs=str(rom), do_deploy=False, **k)
        made.append(wb)
        return wb

    monkeypatch.setattr(simtools, "new_board", lambda tmp, seed=7: board_from_the_deploy(tmp, seed=seed).start())
    monkeypatch.setattr(simtools, "snap", lambda board, name: None)  # the README's shots come from tests/sim
    import test_sim_games

    test_sim_games.test_moon_dominoes_full_game(tmp_path)
    m = simtools.replay(flash)
    assert m.winner() == 0 and m.state["scores"] == [5, 1, 1]
    assert made[0].peak_heap() < 96 * 1024  # the code stayed in the image


def test_a_failed_image_write_stops_the_flash_with_mpremotes_reason_and_keeps_the_board_as_it_was(tmp_path):
    """The partition refuses the write (the board's rom_ioctl says EIO):
    mpremote's `romfs deploy` fails, the flash says why, and nothing else
    is sent, so the board keeps the manifest of its last good flash."""
    flash, b = pty_board(tmp_path, 512 * 1024)
    (tmp_path / "fake_romfs.py").write_text((tmp_path / "fake_romfs.py").read_text().replace(
        "        if op == 4:  # write (id, offset, data)\n",
        "        if op == 4:  # write (id, offset, data)\n            raise OSError(5)\n"))
    b.close()
    b = PtyRepl(flash, str(tmp_path / "fake_romfs.py"))
    try:
        with pytest.raises(dp.DeployError) as e:
            dp.deploy(port=b.port, board="sim", log=lambda m: None, romfs=True, reset=False)
    finally:
        b.close()
    assert str(e.value).startswith("mpremote romfs deploy failed: ") and "OSError" in str(e.value), e.value
    assert sorted(p.name for p in flash.iterdir()) == []


def test_deploy_uses_only_mpremotes_public_command_line_for_romfs():
    text = (ROOT / "host" / "deploy.py").read_text()
    assert "_do_romfs" not in text and "mpremote.commands" not in text and "class State" not in text
    assert '"-m", "mpremote", "connect"' in text
