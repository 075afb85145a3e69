"""Build the web page: a static folder (web/dist/ by default) that any
static file server can serve, with nothing fetched from elsewhere.

    python web/build.py [--out DIR]

What goes in:
  index.html, page/*.mjs, page/*.css   the page (web/index.html, web/page/)
  mpboard.mjs                          the glue shared with the Node runner
  mp/micropython.mjs, .wasm            the pinned WebAssembly MicroPython
                                       (web/node_modules, `npm ci` in web/)
  app/app.romfs                        the app compiled to .mpy in one ROMFS
                                       image, as `moontable flash --romfs`
                                       lays it out (host/deploy.py), plus the
                                       simulator's SSD1306 emulator and the
                                       PC's BG Stats play builder
                                       (host/bgstats.py), so the page's links
                                       come from the same code
  app/main.py, app/board.json          the flash files; board.json is the
                                       simulator's pin map naming the `web`
                                       board (firmware/boards/web.py)
  sw.js, files.json                    the offline cache: every file above,
                                       under a name that changes with them

Why a ROMFS image: one file to fetch and mount, read in place by the
interpreter as on a board with ROMFS, rather than ~60 .mpy files.
"""

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

WEB = Path(__file__).resolve().parent
ROOT = WEB.parent
PACKAGE = WEB / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
HOST = ROOT / "host"  # deploy.PAGE_MODULES: the SSD1306 emulator, BG Stats, the PC's dates


def app_files():
    """(ROMFS image bytes, {flash path: bytes}) for the web board."""
    sys.path.insert(0, str(ROOT))
    from moontable import deploy

    files = deploy.build_app()
    for src, dst in deploy.PAGE_MODULES.items():
        files[dst[:-3] + ".mpy"] = deploy.compile_py(HOST / src, dst)
    cfg = json.loads(deploy.pin_map("sim"))
    cfg["board"] = "web"
    cfg["name"] = "moontable in a web page (MicroPython's WebAssembly port)"
    cfg["notes"] = "Virtual: the panel, buttons and buzzer are the page's (firmware/boards/web.py)."
    files["board.json"] = json.dumps(cfg, indent=1).encode()
    image, flash = deploy.romfs_split(files)
    return deploy.build_romfs_image(image), flash


def build(out):
    """Write the page into `out` (emptied first); returns {path: size}."""
    out = Path(out)
    if not (PACKAGE / "micropython.mjs").is_file():
        raise SystemExit("web/build.py: the WebAssembly MicroPython is not installed: run `cd web && npm ci` (make web does)")
    romfs, flash = app_files()
    if out.exists():
        shutil.rmtree(out)
    (out / "page").mkdir(parents=True)
    (out / "mp").mkdir()
    (out / "app").mkdir()
    shutil.copy(WEB / "index.html", out / "index.html")
    for p in sorted((WEB / "page").iterdir()):
        if p.suffix in (".mjs", ".css", ".svg"):
            shutil.copy(p, out / "page" / p.name)
    shutil.copy(WEB / "mpboard.mjs", out / "mpboard.mjs")
    for name in ("micropython.mjs", "micropython.wasm"):
        shutil.copy(PACKAGE / name, out / "mp" / name)
    (out / "app" / "app.romfs").write_bytes(romfs)
    for rel, data in flash.items():
        (out / "app" / rel).write_bytes(data)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0" + (out / rel).read_bytes())
    version = digest.hexdigest()[:16]
    (out / "files.json").write_text(json.dumps({"version": version, "files": files}, indent=1) + "\n")
    shutil.copy(WEB / "sw.js", out / "sw.js")
    return {rel: (out / rel).stat().st_size for rel in files + ["files.json", "sw.js"]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(WEB / "dist"), help="folder to build into (emptied first; default web/dist)")
    args = ap.parse_args(argv)
    sizes = build(args.out)
    total = sum(sizes.values())
    print("web page built in %s: %d files, %d bytes (%.0f KB)" % (args.out, len(sizes), total, total / 1024))
    print("open it with any static file server, e.g. python3 -m http.server -d %s" % args.out)


if __name__ == "__main__":
    main()
