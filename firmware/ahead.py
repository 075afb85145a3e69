"""Loading code ahead of its use, a slice of a loop pass at a time: a Pico
takes 10-40 ms to import a module from flash, so a step that needs several
loads them over the passes before it, and the buttons and the minute keep
their pace (docs/architecture.md, "Loading in slices")."""

import sys

from shared_rules.ticks import ticks_diff

FETCH_MS = 20  # the share of a loop pass that loading ahead may take


def fetch(names, ticks):
    """Import the `names` not loaded yet, one at least, until FETCH_MS have
    gone on the clock `ticks`; True when they have (the step waits a pass
    then). A name that fails to import is skipped."""
    t0 = ticks()
    for name in names:
        if name not in sys.modules:
            try:
                __import__(name)
            except ImportError:
                pass
            if ticks_diff(ticks(), t0) >= FETCH_MS:
                return True
    return False
