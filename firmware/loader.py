"""The one place that lets code go (docs/architecture.md, "Loading and
letting go"): whoever loads code for a moment marks before it and releases
to that mark after it; a module's code is freed once nothing refers to it.
Loading ahead, a slice of a pass at a time, is ahead.py's."""

import gc
import sys


def mark():
    return tuple(sys.modules)


def drop(names):
    """Unload these modules and unlink each from its package."""
    mods = sys.modules
    for name in names:
        if mods.pop(name, None) is not None:
            i = name.rfind(".")
            parent = mods.get(name[:i]) if i > 0 else None
            if parent is not None and hasattr(parent, name[i + 1 :]):
                delattr(parent, name[i + 1 :])


def release(before, keep=(), prefix=""):
    """Unload what loaded since the mark `before`, but `keep` and names not
    starting with `prefix`; True when some went (and were collected)."""
    gone = [k for k in sys.modules if k not in before and k not in keep and k.startswith(prefix)]
    if gone:
        drop(gone)
        gc.collect()
    return bool(gone)


class Moment:
    """`with Moment():` code imported inside goes at the end, error or not."""

    def __enter__(self):
        self.before = mark()

    def __exit__(self, *exc):
        release(self.before)
