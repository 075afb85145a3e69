from _support import raises
from shared_rules import match as match_mod
from shared_rules.match import Match


def _bidding_match():
    m = Match("moonstar", ["Ann", "Bob"], {})
    m.apply({"type": "choose_setter", "player": 0})
    m.apply({"type": "setup", "seed": 7})
    return m


def test_undo_steps_back_one_event_at_a_time():
    m = _bidding_match()
    before = m.state
    m.apply({"type": "bid", "player": 1, "amount": 30})
    after_first = m.state
    m.apply({"type": "bid", "player": 0, "amount": 35})
    m.apply({"type": "undo"})
    assert m.state == after_first
    m.apply({"type": "undo"})
    assert m.state == before
    assert m.count == 6  # undos are lines of the log too


def test_undo_reaches_back_exactly_undo_depth_events():
    m = _bidding_match()
    states = []
    for k in range(match_mod.UNDO_DEPTH + 2):
        states.append(m.state)
        m.apply({"type": "bid", "player": k % 2, "amount": 20 + k})
    for _ in range(match_mod.UNDO_DEPTH):
        m.apply({"type": "undo"})
    assert m.state == states[2]
    raises(m.apply, {"type": "undo"}, match="nothing to undo")
    assert m.state == states[2]


def test_legal_offers_undo_only_when_there_is_one():
    m = Match("moonstar", ["Ann", "Bob"], {})
    assert "undo" not in m.legal()["moves"]
    m.apply({"type": "choose_setter", "player": 1})
    assert "undo" in m.legal()["moves"]


def test_an_event_must_be_an_object_with_a_type():
    m = Match("moonstar", ["Ann", "Bob"], {})
    raises(m.apply, ["bid"], match="must be an object")
    raises(m.apply, {"player": 0}, match="must be an object")


def test_an_undo_step_holds_only_what_the_event_replaced_and_restores_the_state_before():
    shared = [1, 2, 3]
    old = {"phase": "bidding", "bid": 30, "rolls": shared, "over": False}
    new = dict(old)
    new["bid"] = 35
    new["phase"] = "playing"
    back = match_mod._difference(old, new)
    assert sorted(back[0::2]) == ["bid", "phase"] and len(back) == 4  # two keys replaced, two kept
    before = match_mod._step_back(new, back)
    assert before == old and before["rolls"] is shared
    # an event that changed nothing
    assert match_mod._step_back(old, match_mod._difference(old, old)) == old
    # a key added or removed: the state before is held whole
    grown = dict(old)
    grown["winner"] = 1
    assert match_mod._step_back(grown, match_mod._difference(old, grown)) is old
    shrunk = dict(old)
    del shrunk["over"]
    assert match_mod._step_back(shrunk, match_mod._difference(old, shrunk)) is old
    swapped = dict(shrunk)
    swapped["winner"] = None  # same size, another key
    assert match_mod._step_back(swapped, match_mod._difference(old, swapped)) is old
