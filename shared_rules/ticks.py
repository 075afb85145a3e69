"""Tick arithmetic, free of any clock so it runs the same on the board, on
the PC and under a test's virtual clock; and the `const` shim for CPython.
Apart from the sand timer (shared_rules/timer.py) because every loop pass
needs these and only a timed game needs the timer.

Tick values live in MicroPython's ticks space: integers modulo 2**30 that
wrap about every 12.4 days. `ticks_add` and `ticks_diff` below do the same
arithmetic as `time.ticks_add` / `time.ticks_diff`, in pure Python, so the
CPython side agrees with the board bit for bit.
"""

try:
    from micropython import const
except ImportError:  # CPython

    # The fallback mirrors the stub's `const(expr, /)`: a leading double
    # underscore makes the parameter positional-only for a type checker
    # (MicroPython has no `/` syntax), so the two declarations agree, and a
    # checker's call-site inference gives const(x) the type of x. No typing
    # import is needed, and on the board the import above always succeeds.
    def const(__expr):
        return __expr


TICKS_PERIOD = const(1 << 30)
_TICKS_MAX = const((1 << 30) - 1)
_TICKS_HALF = const(1 << 29)


def ticks_add(ticks, delta):
    """ticks + delta, wrapped into the 2**30 period."""
    return (ticks + delta) & _TICKS_MAX


def ticks_diff(end, start):
    """Signed end - start, correct across one wrap (|diff| < 2**29)."""
    d = (end - start) & _TICKS_MAX
    if d >= _TICKS_HALF:
        d -= TICKS_PERIOD
    return d
