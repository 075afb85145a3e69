"""Property checks that every game's rules must pass in the same way,
written once for the game-specific property tests (test_*_props.py).
Its name starts with _, so pytest does not look for tests in it."""

import json

from shared_rules import RuleError
from shared_rules.util import clone


def dump(state):
    return json.dumps(state, sort_keys=True)


def junk_changes_nothing(game, state, draw, fields, junk, kinds):
    """An event of a drawn kind with one drawn field set to drawn junk is
    applied to state: refused or not, state is left exactly as it was."""
    before = clone(state)
    field = draw(fields)
    value = draw(junk)
    kind = draw(kinds)
    try:
        game.apply(state, {"type": kind, field: value})
    except RuleError:
        pass
    assert state == before


def apply_never_changes_its_input(game, s, steps, next_events):
    """States are copy-on-write: a new state shares every list an event
    did not change with the state before it. So no event, applied or
    refused, may change a list in place: the state it was given, and
    every earlier state of the game, still dump to the same JSON.

    For up to `steps` events from s (fewer if the game ends),
    next_events(state) gives (an event legal() allows, a wrong variant of
    it): the wrong one is tried first (often refused), then the legal one
    is applied."""
    states = [(s, dump(s))]
    for _ in range(steps):
        if s["over"]:
            break
        event, wrong = next_events(s)
        try:
            game.apply(s, wrong)
        except RuleError:
            pass
        assert dump(s) == states[-1][1]
        s = game.apply(s, event)
        assert dump(states[-1][0]) == states[-1][1]
        states.append((s, dump(s)))
    for state, text in states:
        assert dump(state) == text
