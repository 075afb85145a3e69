"""A game in progress: the current state, the header it started from, and
the undo that a bare game state cannot do on its own.

Undo is an event in the log ({"type": "undo"}). It steps back over the last
event that is not yet undone; several undos in a row step back further, up
to UNDO_DEPTH events. The limit keeps the match's memory bounded however
long the evening runs, and it is part of the rules of the log: replaying a
log on the PC hits the same limit at the same place as the device did.
Ten steps cover a whole Moonstar round or a Shoot the Moon hand entered
trick by trick.

A step back is held as the difference, not as a whole state: game states
are copy-on-write (apply copies the top-level dict and replaces the values
it changes, never changing one in place), so the state before an event
differs from the state after it in a few top-level values. Keeping only
those old values holds a step in tens of bytes instead of the few hundred
a state's own dict takes (a Moonstar state has two dozen keys).
"""

from shared_rules import RULES_VERSION, get_game
from shared_rules.errors import RuleError
from shared_rules import places

UNDO_DEPTH = 10


class Match:
    """Holds one game's state and its undo stack.

    `apply` returns the new state and never changes anything on a
    RuleError, so a UI can try an event and show the message."""

    def __init__(self, game, players, options=None, extra=None):
        self.rules = get_game(game)
        if options is None:
            options = {}
        self.state = self.rules.new(players, options)
        self.header = {
            "type": "header",
            "game": game,
            "players": list(players),
            "options": options,
            "rules": RULES_VERSION,
        }
        if extra:
            for key in extra:
                self.header[key] = extra[key]
        self._undo = []
        self.count = 0  # events applied, undos included (= log lines after the header)

    @classmethod
    def from_header(cls, header):
        """A match for a log's header line; RuleError if it is unusable."""
        if header.get("type") != "header":
            raise RuleError("first line must be a header, not %r" % (header.get("type"),))
        for key in ("game", "players"):
            if key not in header:
                raise RuleError("header has no %r" % key)
        rules = header.get("rules", RULES_VERSION)
        # true == 1 and 1.0 == 1 in Python: the type is checked too.
        if type(rules) is not int or rules != RULES_VERSION:
            raise RuleError("log was written with rules version %r; this core reads version %d (a whole number)"
                            % (rules, RULES_VERSION))
        options = header.get("options", {})
        if type(options) is not dict:
            raise RuleError("the header's options must be an object such as {}, not %s"
                            % ("null" if options is None else repr(options)[:40]))
        extra = {}
        for key in header:
            if key not in ("type", "game", "players", "options", "rules"):
                extra[key] = header[key]
        return cls(header["game"], header["players"], options, extra)

    def can_undo(self):
        return len(self._undo) > 0

    def apply(self, event, checked=None):
        """Apply one event (undo included); return the new state.

        `checked`: the state `rules.apply(self.state, event)` already
        returned for this very event, so a caller that checks an event
        before journaling it does not apply it twice (a Moonstar result
        may run the solver)."""
        if not isinstance(event, dict) or type(event.get("type")) is not str:
            raise RuleError("an event must be an object with a \"type\" naming it")
        if event["type"] == "undo":
            if not self._undo:
                raise RuleError("nothing to undo (at most %d steps back)" % UNDO_DEPTH)
            self.state = _step_back(self.state, self._undo.pop())
        else:
            new_state = self.rules.apply(self.state, event) if checked is None else checked
            self._undo.append(_difference(self.state, new_state))
            if len(self._undo) > UNDO_DEPTH:
                self._undo.pop(0)
            self.state = new_state
        self.count += 1
        return self.state

    def legal(self):
        """The game's legal moves, plus "undo" when there is one to take."""
        moves = self.rules.legal(self.state)
        if self._undo:
            moves["moves"]["undo"] = {}
        return moves

    def turn(self):
        """{"leader": seat, "to_act": seat}: see turn() in each game module."""
        return self.rules.turn(self.state)

    def standings(self):
        return self.rules.standings(self.state)

    def placings(self):
        """[[rank, [seats]], ...] best first, by the game's win rule
        (shared_rules.places)."""
        return self.rules.placings(self.state)

    def winners(self):
        """Every seat that won (a partnership, a shared win); [] while the
        game is in play. The first place of placings(), so a rank and a
        win never disagree."""
        return places.winners(self.state, self.placings())

    def winner(self):
        """The first winning seat (a banner names them all: winners()),
        or None while the game is in play."""
        w = self.winners()
        return w[0] if w else None


def _difference(old, new):
    """What it takes to get `old` back from `new`: [key, old value, ...] for
    the top-level values that are not the same object in both. If the two
    do not have the same keys, the old state itself (a dict) is kept."""
    if len(old) != len(new):
        return old
    back = []
    for key in old:
        if key not in new:
            return old
        value = old[key]
        if new[key] is not value:
            back.append(key)
            back.append(value)
    return back


def _step_back(state, back):
    """The state before the event that `back` (from _difference) undoes."""
    if type(back) is dict:
        return back
    before = dict(state)
    for i in range(0, len(back), 2):
        before[back[i]] = back[i + 1]
    return before
