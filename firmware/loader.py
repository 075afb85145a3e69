"""The one place that lets code go (docs/architecture.md, "Loading and
letting go"): whoever loads code for a moment marks before it and releases
to that mark after it; a module's code is freed once nothing refers to it."""

import gc
import sys

from shared_rules.ticks import ticks_diff

FETCH_MS = 20  # the share of a loop pass that loading ahead may take


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


def fetch(names, ticks):
    """Import the `names` not loaded yet, one at least, until FETCH_MS have
    gone on the clock `ticks` (a Pico takes 10-40 ms a module); True while
    the step should wait a pass. A name that fails to import is skipped."""
    t0 = ticks()
    one = False
    for name in names:
        if name not in sys.modules:
            if one and ticks_diff(ticks(), t0) >= FETCH_MS:
                return True
            one = True
            try:
                __import__(name)
            except ImportError:
                pass
    return one and ticks_diff(ticks(), t0) >= FETCH_MS


class Moment:
    """`with Moment():` code imported inside goes at the end, error or not."""

    def __enter__(self):
        self.before = mark()

    def __exit__(self, *exc):
        release(self.before)
