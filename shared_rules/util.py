"""Small helpers every game module shares: copying states, checking event
fields with specific messages, and a portable seeded random generator.
(The players' checks at a game's start are in shared_rules/players.py.)"""

from shared_rules.errors import RuleError


def clone(value):
    """Deep copy of plain JSON-like data (dict, list, scalars).

    `copy.deepcopy` is not in every MicroPython build, and states hold only
    these types, so a direct recursion is both smaller and faster."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


def is_int(value):
    """A whole number: an int that is not a bool (JSON true is no count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def field(event, name):
    """event[name], or a RuleError that names the missing field."""
    # Tested, not try/except: see decode_line in wire.py for why. `event`
    # may also be a list inside an event, indexed by position.
    if type(event) is dict:
        if name in event:
            return event[name]
        raise RuleError("%s event needs a %r field" % (event.get("type", "?"), name))
    if type(name) is int and 0 <= name < len(event):
        return event[name]
    raise RuleError("a list of %d values has no item %r" % (len(event), name))


def whole(event, name, low, high, what=None):
    """An integer field checked against low..high inclusive."""
    value = field(event, name)
    # bool is an int subclass on CPython; a JSON true is never a count.
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("%s must be a whole number, not %r" % (what or name, value))
    if value < low or value > high:
        raise RuleError("%s %d is out of range %d-%d" % (what or name, value, low, high))
    return value


def seat(event, state, name="player"):
    """A player seat index field, checked against the table."""
    n = len(state["players"])
    value = field(event, name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value >= n:
        raise RuleError("%s must be a seat from 0 to %d, not %r" % (name, n - 1, value))
    return value


class Rng:
    """xorshift32: the same sequence under CPython and MicroPython for the
    same seed, so a device-rolled set-up replays identically on the PC.
    (Neither interpreter's `random` promises that.)"""

    def __init__(self, seed):
        seed = int(seed) & 0xFFFFFFFF
        self.x = seed or 0x9E3779B9

    def next32(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        """Uniform integer in 0..n-1 (rejection sampling, no modulo bias)."""
        limit = 0x100000000 - (0x100000000 % n)
        while True:
            r = self.next32()
            if r < limit:
                return r % n

    def shuffle(self, items):
        """Fisher-Yates in place."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
        return items
