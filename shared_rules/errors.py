"""Errors the rules core raises. Kept in its own module so that every game
module and the host can import them without pulling in anything else."""


class RuleError(Exception):
    """An event the rules do not allow. The message is for a person at the
    table ("bid 35 must be higher than the standing bid 40"), and the state
    the event was applied to is left exactly as it was."""


class LogError(ValueError):
    """A game log that cannot be read: not JSON, truncated, bad CRC, or a
    header that names no known game. `line` is 1-based, or 0 when the
    problem is not tied to one line."""

    def __init__(self, line, message):
        super().__init__("line %d: %s" % (line, message) if line else message)
        self.line = line
        self.message = message
