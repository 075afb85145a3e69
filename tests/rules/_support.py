"""Helpers for the rules tests that run under both pytest and MicroPython
(tests/upy_runner.py), so they cannot use pytest itself."""

from shared_rules import RuleError


def raises(fn, *args, match=None, error=RuleError):
    """Call fn(*args) and return the exception it must raise.

    `match` is a piece of text the message must contain: the tests pin the
    words a person sees, not just the exception type."""
    try:
        fn(*args)
    except error as e:
        if match is not None and match not in str(e):
            raise AssertionError("message %r does not contain %r" % (str(e), match))
        return e
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), error.__name__))


def data_path(name):
    """Path of a file in tests/data, from either interpreter's cwd. Compiled
    to .mpy (tests/upy_build.py) this module lives elsewhere, and the
    runners put tests/rules on the path."""
    if __file__.endswith(".py"):
        here = __file__ if "/" in __file__ else "./" + __file__
        rules = here[: here.rfind("/")]
    else:
        import sys

        rules = [p for p in sys.path if p.endswith("/rules")][0]
    return rules[: rules.rfind("/")] + "/data/" + name


class FakeClock:
    """A virtual ms clock in ticks space for timer tests."""

    def __init__(self, start=0):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, ms):
        from shared_rules.ticks import ticks_add

        self.now = ticks_add(self.now, ms)


def unload(keep=("shared_rules.errors", "shared_rules.util")):
    """Under MicroPython, unload every shared_rules module but `keep`, each
    unlinked from its package, as the device lets code go (firmware
    loader), so that a test fits the 72K heap the way the board does.
    Nothing to do on CPython."""
    import sys

    if sys.implementation.name != "micropython":
        return
    import gc

    mods = sys.modules
    for k in [k for k in mods if k.startswith("shared_rules.") and k not in keep]:
        del mods[k]
        i = k.rfind(".")
        parent = mods.get(k[:i])
        if parent is not None and hasattr(parent, k[i + 1:]):
            delattr(parent, k[i + 1:])
    gc.collect()


def drop_games():
    """Under MicroPython, unload the game modules a test loaded, so that a
    test going through all four games fits the 72K heap (the device holds
    one game at a time too). Nothing to do on CPython."""
    unload()
