"""The part of every game's apply() that is the same in each, and the one
place it is written: the event is an object, the game is not over, the
event's type is one the game knows, and it comes in a phase that allows
it. Then the event's handler decides.

A game declares its events as a table, a tuple of constant rows

    (type, phases, module, function)

in the order a refusal lists them. `phases`: the phases (state["phase"])
the event is legal in, or None for any (its handler checks what else it
needs). `module`: the module of the game's package that holds the
handler, by its last name ("bid" for shared_rules/moonstar/bid.py), or
None for the package itself: it is imported when its event comes, so
code that only one event needs loads only then. `function`: the
handler's name, or None when it is named as the event; it is called as
function(state, event) and returns the next state.
"""

from shared_rules.errors import RuleError


def dispatch(state, event, table, where, game, over, not_now):
    """The state after `event`, or RuleError with the state untouched.
    `table`: the game's events (above); `where`: its package's name (its
    __name__); `game`: the game as its messages name it; `over(state)`:
    the message refusing an event once the game is over ("the game is
    over: Ann won"); `not_now(state, type)`: the message refusing an
    event out of its phases (None when no row has phases)."""
    if not isinstance(event, dict):
        raise RuleError("an event must be an object with a \"type\" naming it")
    if state["over"]:
        raise RuleError(over(state))
    kind = event.get("type")
    for row in table:
        if row[0] == kind:
            if row[1] is not None and state["phase"] not in row[1]:
                raise RuleError(not_now(state, kind))
            if row[2] is not None:
                where += "." + row[2]
            name = row[3] or row[0]
            return getattr(__import__(where, None, None, (name,)), name)(state, event)
    names = ""
    for row in table:
        names += row[0] + ", "
    names += "undo"  # every game's too, applied by shared_rules.match
    if kind is None:
        raise RuleError("an event needs a \"type\": one of " + names)
    raise RuleError("%s has no %r event (events: %s)" % (game, kind, names))
