"""CPython side of the firmware tests: on a board firmware/ is the flash
root, so its modules import as top-level names (`import buttons`). Append
(never prepend) it to sys.path so nothing else in the suite is shadowed."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for p in (str(ROOT), str(ROOT / "firmware")):
    if p not in sys.path:
        sys.path.append(p)
