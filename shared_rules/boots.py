"""Boot numbers: the board counts its power-ups (firmware store.recovery's
count_boot), stamps every journal line with the boot's number ("b"), and
names boots in its clocks file by that number written as text. The PC
reads those numbers back from the hello, the clocks and the lines.

Why one module for both ends: a number that only one side bounds breaks
the other (a boot.json holding 10**30 made every sync fail when SQLite
could not store it), and a key that one side reads as a number and the
other does not (" 2", "+5", Arabic-Indic "٥" all pass CPython's int())
would date lines by the wrong boot. Both ends call these two functions.
"""

# The highest boot number either end accepts: a board powered up every
# minute for a thousand years stays below it, and it is a small int on a
# 32-bit MicroPython port (no long-int allocation) and fits SQLite.
BOOT_MAX = 999999999


def plain_boot(n):
    """True for a boot number as a whole number 0..BOOT_MAX (never a bool)."""
    return isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= BOOT_MAX


def boot_key(key):
    """A clocks-file key -> its boot number, or -1 unless it is 1 to 9
    plain ASCII digits (no sign, space, or other script's digits)."""
    if not isinstance(key, str) or not key or len(key) > 9:
        return -1
    for ch in key:
        if ch < "0" or ch > "9":
            return -1
    return int(key)
