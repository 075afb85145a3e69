"""The seed a device's roll records in its event (a Moonstar setter roll
or set-up, a Moon deal), checked before Rng expands it: one check for
the three rolls that carry a seed."""

from shared_rules.errors import RuleError
from shared_rules.util import is_int


def seed_of(event, what="seed"):
    """event["seed"]: a 32-bit whole number, else a RuleError naming `what`."""
    seed = event["seed"]
    if not is_int(seed) or seed < 0 or seed > 0xFFFFFFFF:
        raise RuleError("%s must be a whole number from 0 to 4294967295, not %r" % (what, seed))
    return seed
