"""Property tests for Shoot the Moon: random sequences of events drawn from
legal() never fail, replay identically, undo exactly, and move chips
only as the rules say."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _game_checks import apply_never_changes_its_input, junk_changes_nothing
from shared_rules import get_game
from shared_rules.match import Match
from shared_rules.shoot_the_moon.tricks import full_deck
from shared_rules.util import clone

G = get_game("shoot-the-moon")
TABLES = [(["a", "b"], {}), (["a", "b", "c"], {}), (["a", "b", "c", "d"], {"teams": 2}),
          (list("abcde"), {}), (list("abcdef"), {"teams": 3}), (list("abcdef"), {"teams": 2})]


def composition(draw, total, parts):
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0] + cuts + [total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


def moons_for(draw, tricks, copies=2):
    out = [0] * len(tricks)
    left = copies
    for h in range(len(tricks)):
        if tricks[h] and left:
            out[h] = draw(st.integers(0, left))
            left -= out[h]
    return out


def draw_event(draw, state):
    """One event that legal() allows, with its fields drawn from its spec."""
    moves = G.legal(state)["moves"]
    kinds = sorted(moves)
    weights = {"play": 6, "trick": 4, "round": 2, "deal": 1, "illegal": 1}
    pool = [k for k in kinds for _ in range(weights[k])]
    kind = draw(st.sampled_from(pool))
    spec = moves[kind]
    if kind == "play":
        return {"type": "play", "player": spec["players"][0], "card": draw(st.sampled_from(spec["values"]))}
    if kind == "trick":
        big = draw(st.integers(0, spec["big_max"]))
        little = draw(st.integers(0, max(0, min(spec["little_max"], spec["moons_max"] - big))))
        return {"type": "trick", "winner": draw(st.sampled_from(spec["players"])), "big": big, "little": little}
    if kind == "round":
        tricks = composition(draw, spec["tricks"], spec["hands"])
        return {"type": "round", "tricks": tricks, "big": moons_for(draw, tricks), "little": moons_for(draw, tricks)}
    if kind == "deal":
        deck = draw(st.permutations(full_deck()))
        return {"type": "deal", "hands": [deck[5 * i:5 * i + 5] for i in range(spec["hands"])]}
    return {"type": "illegal", "player": draw(st.sampled_from(spec["players"]))}


def side_chips_ok(before, after, event):
    """Chips never negative; scores mirror the side's chips; when no
    round ends, a trick moves only its winner's side's chips."""
    for c in after["chips"]:
        assert c >= 0
    for seat in range(len(after["players"])):
        assert after["scores"][seat] == after["chips"][G.side_of(after, seat)]
    if event["type"] == "illegal":
        side = G.side_of(before, event["player"])
        want = list(before["start"])
        want[side] = max(0, want[side] - 1)
        assert after["chips"] == want and after["round"] == before["round"]
    elif after["round"] == before["round"]:
        changed = [i for i in range(len(after["chips"])) if after["chips"][i] != before["chips"][i]]
        assert len(changed) <= 1
        for i in changed:
            assert abs(after["chips"][i] - before["chips"][i]) <= 2
    else:
        assert after["round"] == before["round"] + 1
        for i in range(len(after["chips"])):
            assert -2 <= after["chips"][i] - before["chips"][i] <= 6


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TABLES))), st.data())
def test_random_legal_games(table, data):
    players, options = TABLES[table]
    match = Match("shoot-the-moon", players, options)
    events = []
    biggest = 0
    for _ in range(data.draw(st.integers(1, 80))):
        if match.state["over"]:
            assert G.legal(match.state)["moves"] == {} and G.winner(match.state) is not None
            break
        before = clone(match.state)
        event = draw_event(data.draw, match.state)
        after = match.apply(event)  # drawn from legal(): must never fail
        assert match.state is after
        side_chips_ok(before, after, event)
        assert match.apply({"type": "undo"}) == before  # undo restores exactly: apply never touched its input
        match.apply(event)
        events.append(event)
        biggest = max(biggest, len(json.dumps(after)))
    assert biggest < 2500  # no history: the state stays small however long the game
    replay = G.new(players, options)
    for e in events:
        replay = G.apply(replay, e)
    assert replay == match.state  # replay is deterministic


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_bad_events_change_nothing(data):
    s = G.new(["a", "b", "c"], {})
    s = G.apply(s, {"type": "trick", "winner": 1, "big": 1})
    junk_changes_nothing(
        G, s, data.draw,
        st.sampled_from(["winner", "player", "big", "little", "card", "tricks", "hands"]),
        st.one_of(st.integers(-5, 50), st.text(max_size=4), st.none(), st.booleans(), st.lists(st.integers(-2, 9), max_size=5)),
        st.sampled_from(["trick", "play", "round", "deal", "illegal", "nonsense"]))


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TABLES))), st.data())
def test_apply_never_changes_a_state_it_was_given(table, data):
    """See _game_checks.apply_never_changes_its_input; the wrong variant
    takes a drawn seat and card (turn, card held, colour)."""
    def next_events(s):
        event = draw_event(data.draw, s)
        return event, dict(event, player=data.draw(st.integers(0, 6)), card=data.draw(st.sampled_from(full_deck())))

    players, options = TABLES[table]
    apply_never_changes_its_input(G, G.new(players, options), data.draw(st.integers(1, 60)), next_events)
