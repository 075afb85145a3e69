"""Type-check firmware/ and shared_rules/ against the MicroPython stubs
(micropython-rp2-stubs, micropython-stdlib-stubs as the typeshed), with the
repository's pyrightconfig.json. The stubs live in their own folder
(.venv/mpy-stubs, `pip install --target`, see `make typecheck`): in the
venv's site-packages, Adafruit Blinka's CPython `micropython` package would
win over the `micropython` stub.

- The checker must see MicroPython, not CPython: `time.ticks_ms`,
  `machine.Pin`, `framebuf`, `rp2` and the `micropython` *stub* resolve
  (Adafruit Blinka installs a CPython `micropython` package into the same
  site-packages; the stub must win), and a real type error is reported.
- firmware/ and shared_rules/ have no type errors at all.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "pyrightconfig.json"
BIN = Path(sys.executable).parent


def pyright():
    exe = BIN / "pyright"
    if not exe.exists():
        exe = shutil.which("pyright")
    if not exe:
        pytest.fail("pyright is not installed: pip install 'pyright[nodejs]==1.1.414' (make typecheck does it)")
    config = json.loads(CONFIG.read_text())
    stubs = ROOT / config["stubPath"]
    if not (stubs / "machine.pyi").exists() or not (ROOT / config["typeshedPath"] / "stdlib" / "VERSIONS").exists():
        pytest.fail("MicroPython stubs not installed at %s: pip install --target %s "
                    "micropython-rp2-stubs==1.29.0.post1 micropython-stdlib-stubs==1.29.0.post2 "
                    "(make typecheck does it)" % (stubs, config["stubPath"]))
    return str(exe)


def run(project_dir, *args):
    proc = subprocess.run([pyright(), "--outputjson", *args], cwd=project_dir, capture_output=True, text=True,
                          timeout=300)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        raise AssertionError("pyright gave no JSON:\n%s\n%s" % (proc.stdout[-2000:], proc.stderr[-2000:]))


def key(d):
    f = Path(d["file"]).resolve()
    try:
        f = f.relative_to(ROOT)
    except ValueError:
        pass
    return "%s | %s | %s" % (f.as_posix(), d.get("rule", "-"), d["message"].splitlines()[0])


def errors(report):
    return [d for d in report["generalDiagnostics"] if d["severity"] == "error"]


def test_micropython_apis_resolve_to_the_stubs_and_errors_show(tmp_path):
    config = json.loads(CONFIG.read_text())
    for k in ("stubPath", "typeshedPath"):
        config[k] = str(ROOT / config[k])
    config["venvPath"] = str(ROOT / config["venvPath"])
    config["include"] = ["."]
    config["extraPaths"] = []
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(config))
    (tmp_path / "probe.py").write_text(
        "import micropython, machine, time, sys, framebuf, rp2, adafruit_ssd1306\n"
        "reveal_type(micropython.mem_info)\n"     # only the MicroPython stub has it
        "reveal_type(time.ticks_ms)\n"
        "reveal_type(machine.Pin.PULL_UP)\n"
        "reveal_type(framebuf.MONO_VLSB)\n"
        "reveal_type(rp2.PIO)\n"
        "reveal_type(sys.print_exception)\n"
        "reveal_type(adafruit_ssd1306.SSD1306_I2C)\n"
        "time.sleep_ms('soon')\n")                # a real error must be reported
    report = run(tmp_path)
    errs = errors(report)
    assert [(e["range"]["start"]["line"], e.get("rule")) for e in errs] == [(8, "reportArgumentType")], \
        [key(e) for e in errs]
    infos = [d["message"] for d in report["generalDiagnostics"] if d["severity"] == "information"]
    assert len(infos) == 7 and not any("Unknown" in m for m in infos), infos
    assert any("_TicksMs" in m for m in infos)  # the MicroPython typeshed, not CPython's


def test_firmware_and_shared_rules_have_no_type_errors():
    report = run(ROOT)
    assert report["summary"]["filesAnalyzed"] >= 40
    detail = ["%s:%d %s" % (Path(e["file"]).relative_to(ROOT), e["range"]["start"]["line"] + 1, e["message"])
              for e in errors(report)]
    assert not detail, "type errors (make typecheck shows them):\n" + "\n".join(detail)
