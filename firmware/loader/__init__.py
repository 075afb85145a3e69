"""The one place that lets code go (docs/architecture.md, "Loading and
letting go"): whoever loads code for a moment marks before it and releases
to that mark after it; a module's code is freed once nothing refers to it.

A folder of its own, not loader.py: littlefs keeps a file of 512 bytes or
less inside its folder's own record, which every import at the root reads
a few times, and at the root this module's 0.5 KB of .mpy made every import
on the chip some 5% slower (docs/device.md, "On the chip")."""

import gc
import sys


def mark():
    return tuple(sys.modules)


def drop(names):
    """Unload these modules and unlink each from its package."""
    for name in names:
        if sys.modules.pop(name, None) is not None:
            package, _, leaf = name.rpartition(".")
            if hasattr(sys.modules.get(package), leaf):
                delattr(sys.modules[package], leaf)


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
