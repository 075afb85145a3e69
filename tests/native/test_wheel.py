"""`pip install .` (not editable) gives a working `moontable`: the wheel is
built from a fresh copy of the source tree, installed with its pinned
dependencies into a new venv, and its commands run from a folder far from
the source, with their own home, data, cache and config folders:
--version, `python -m host`, flash --dry-run --board pico, sim --snapshot,
import and report. Nothing may be read from the checkout (it is not on the
path) and nothing may be written into site-packages."""

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "db"))
import dbkit  # noqa: E402

PKG = "moontable"  # the import name of the PC side in the wheel


def source_files():
    """The files of the source tree: tracked ones and new ones git does not ignore."""
    r = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                       capture_output=True, check=True)
    return [p for p in r.stdout.decode().split("\0") if p and (ROOT / p).is_file()]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv folder, wheel path): the wheel built from a copy of the tree
    (no build/ left from an earlier build can slip in), installed in a new venv."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    for rel in source_files():
        dst = src / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes((ROOT / rel).read_bytes())
    dist = tmp / "dist"
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)],
                       cwd=tmp, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    (wheel,) = dist.glob("moontable-*.whl")
    venv = tmp / "venv"
    # a venv without its own pip (ensurepip takes seconds), filled by this pip
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
                        str(wheel)],
                       cwd=tmp, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    return venv, wheel


def run(venv, tmp, *argv, module=False):
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MOONTABLE_CONFIG", "VIRTUAL_ENV")}
    env.update({"HOME": str(home), "XDG_CONFIG_HOME": str(tmp / "config"), "XDG_DATA_HOME": str(tmp / "data"),
                "XDG_CACHE_HOME": str(tmp / "cache"), "PATH": "%s:/usr/bin:/bin" % (venv / "bin"),
                "COLUMNS": "80", "LINES": "24"})
    cmd = [str(venv / "bin" / "python"), "-m", PKG] if module else [str(venv / "bin" / "moontable")]
    return subprocess.run(cmd + [str(a) for a in argv], cwd=tmp, env=env, capture_output=True, text=True,
                          timeout=300)


def site_packages(venv):
    (sp,) = (venv / "lib").glob("python3*/site-packages")
    return sp


def test_the_wheel_carries_what_the_commands_need_and_nothing_from_a_build(installed):
    _venv, wheel = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    data = PKG + "/_data/"
    for rel in ("firmware/main.py", "firmware/app.py", "firmware/boards/pico.py", "hardware/boards/pico.json",
                "hardware/boards/esp32.json", "hardware/boards/sim.json", "web/index.html", "web/page/app.mjs",
                "web/mpboard.mjs", "web/sw.js"):
        assert data + rel in names, rel
    fw = {p.relative_to(ROOT / "firmware").as_posix() for p in (ROOT / "firmware").rglob("*.py")}
    assert {n[len(data + "firmware/"):] for n in names if n.startswith(data + "firmware/")} == fw
    rules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "shared_rules").rglob("*.py")}
    assert {n for n in names if n.startswith("shared_rules/")} == rules
    assert PKG + "/__main__.py" in names and PKG + "/commands/flash.py" in names
    assert not [n for n in names if n.startswith(("build/", "tests/", PKG + "/_data/setup.py", "web/"))]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".mpy")]
    print("wheel %s: %d bytes" % (wheel.name, wheel.stat().st_size))


def test_version_and_python_m(installed, tmp_path):
    venv, _ = installed
    fw = re.search(r'^FIRMWARE_VERSION = "(.+)"$', (ROOT / "firmware/config.py").read_text(), re.M).group(1)
    for module in (False, True):
        r = run(venv, tmp_path, "--version", module=module)
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == "moontable 0.1.0, firmware %s" % fw


def test_flash_dry_run_for_a_pico_builds_the_app_from_the_installed_files(installed, tmp_path):
    venv, _ = installed
    r = run(venv, tmp_path, "flash", "--dry-run", "--board", "pico", "--json")
    assert r.returncode == 0, r.stderr
    import json

    summary = json.loads(r.stdout)
    assert summary["board"] == "pico" and summary["offline"] and summary["dry_run"]
    assert {"main.py", "board.json", "app.mpy", "boards/pico.mpy", "shared_rules/match.mpy",
            "adafruit_ssd1306.mpy"} <= set(summary["sent"])
    assert "no board to compare with" in r.stderr
    # the .mpy cache went to the user's cache folder, nothing into site-packages
    assert list((tmp_path / "cache" / "moontable" / "mpy").glob("*.mpy"))
    sp = site_packages(venv)
    assert not (sp / "build").exists()
    assert not [p for p in sp.joinpath(PKG).rglob("*") if p.suffix == ".mpy" or p.name == "build"]


def test_sim_snapshot_boots_the_installed_firmware(installed, tmp_path):
    venv, _ = installed
    r = run(venv, tmp_path, "sim", "--snapshot", "--render", "half")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("\n") >= 16 and "█" in r.stdout and "Traceback" not in r.stdout + r.stderr
    assert (tmp_path / "data" / "moontable" / "sim-flash" / "main.py").exists()
    assert (tmp_path / "data" / "moontable" / "sim-flash" / "board.json").exists()


def test_import_and_report_outside_the_source_tree(installed, tmp_path):
    venv, _ = installed
    _m, data = dbkit.moonstar_log(seed=5)
    (tmp_path / "g.jsonl").write_bytes(data)
    r = run(venv, tmp_path, "import", "g.jsonl")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "data" / "moontable" / "moontable.db").exists()
    r = run(venv, tmp_path, "report")
    assert r.returncode == 0, r.stderr
    page = (tmp_path / "moontable-report" / "index.html").read_text()
    assert "Moonstar" in page and "Cy" in page


def test_completion_from_the_installed_command(installed, tmp_path):
    venv, _ = installed
    r = run(venv, tmp_path, "completion", "bash")
    assert r.returncode == 0 and "_shtab_moontable" in r.stdout
