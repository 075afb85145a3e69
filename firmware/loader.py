"""The one place that lets code go. A module's code and function objects
are freed once it leaves sys.modules and nothing refers to it (its interned
names stay for good); on a 32-bit board the heap is the scarcest resource,
so code a moment loads leaves with that moment.

Whoever starts a moment ends it, with a mark taken before it began:
- App.push() marks what was loaded before the press that opened a screen;
  App.pop() releases what came since (the screen's own module included).
- App.home() and App.open_game() release to the app's base mark. The
  game's rules code is kept over both (App.keep) until the game is set
  aside.
- What loader.fetch() loads ahead of a step (a game's start, a solve) is
  the step's: the mark taken before it releases it.
- `with Moment():` loads code for one call (reading a journal back, the
  data folder's repairs, the settings' checks) and lets it go after.

Only modules nothing live still uses may be released: a module imported
again while an old copy is alive is held twice. So each owner passes what
it keeps (the game's rules, the serial protocol while a PC is
connected) and state lives in objects, never in a module that may go."""

import gc
import sys

from shared_rules.ticks import ticks_diff


def mark():
    """The names of the modules loaded now."""
    return tuple(sys.modules)


def missing(names):
    """True when one of the modules `names` is not loaded."""
    for name in names:
        if name not in sys.modules:
            return True
    return False


def drop(names):
    """Unload the named modules (a sequence of dotted names) and unlink
    each from its package, so nothing but live objects refers to it."""
    mods = sys.modules
    for name in names:
        if name in mods:
            del mods[name]
            i = name.rfind(".")
            parent = mods.get(name[:i]) if i > 0 else None
            if parent is not None and hasattr(parent, name[i + 1 :]):
                delattr(parent, name[i + 1 :])


def release(before, keep=(), prefix=""):
    """Unload every module loaded since the mark `before`, except those in
    `keep`; with `prefix`, only those whose name starts with it (a solve's
    own). True when some went (and a collection has freed their code)."""
    gone = [k for k in sys.modules if k not in before and k not in keep and k.startswith(prefix)]
    if gone:
        drop(gone)
        gc.collect()
    return bool(gone)


FETCH_MS = 20  # the share of a loop pass that loading ahead may take


def fetch(names, ticks):
    """Load ahead: import those of `names` not loaded yet while less than
    FETCH_MS have gone by (the board's clock `ticks`) since the call. On a
    Pico a module takes 10-40 ms to load (mostly the path lookups in
    littlefs: bench/import_cost.py), so a step that needs several calls
    this once a loop pass until it returns False, and then finds them in
    sys.modules: no pass carries them all, and each loads one at least.
    True while this call loaded some and took its share (the step waits
    for the next pass); False when they were all loaded within it (where
    loading is quick, at once) or before it. A name that does
    not import is passed over (its user will say why). The modules loaded
    so are the step's: whoever marked before it lets them go."""
    t0 = ticks()
    one = False  # a call loads one module at least, however slow the last pass
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
    """`with Moment():` the code imported inside is let go at the end,
    error or not. A module already loaded when the moment starts (a caller
    further up is running it) stays."""

    def __enter__(self):
        self.before = mark()
        return self

    def __exit__(self, *exc):
        release(self.before)
        self.before = None
        return False
