"""Property tests for Moons: random sequences of events drawn from legal()
never fail, replay identically, undo exactly, never create or lose a
token, and score exactly by the table."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _game_checks import apply_never_changes_its_input, junk_changes_nothing
from shared_rules import get_game
from shared_rules.match import Match
from shared_rules.moons import PLANETS, set_score
from shared_rules.util import clone

G = get_game("moons")
TABLES = [[1, 2, 3, 10], [1, 3, 6, 12], [0, 0, 0, 5], [2, 2, 2, 2]]


def maybe(draw, values):
    """A choice from values, or None (the core picks when there is one)."""
    if len(values) == 1 and draw(st.booleans()):
        return None
    return draw(st.sampled_from(values)) if values else None


def draw_event(draw, state):
    moves = G.legal(state)["moves"]
    weights = {"trick": 8, "tableau": 3, "end": 2, "move": 1, "first": 1}
    kind = draw(st.sampled_from([k for k in sorted(moves) for _ in range(weights[k])]))
    spec = moves[kind]
    n = len(state["players"])
    if kind == "tableau":
        return {"type": "tableau", "player": draw(st.sampled_from(spec["players"])),
                "suits": draw(st.lists(st.sampled_from(PLANETS), min_size=3, max_size=3))}
    if kind == "first":
        return {"type": "first", "player": draw(st.sampled_from(spec["players"]))}
    if kind == "end":
        # legal() lists each seat's options against today's supply; awards
        # run in order (most tricks, then none, clockwise from the first
        # player), so an earlier award can use up a later seat's option
        supply = list(state["supply"])
        take = [None] * n
        tricks = state["tricks"]
        for most in (True, False):
            for i in range(n):
                seat = (state["first"] + i) % n
                if tricks[seat] == (max(tricks) if most else 0):
                    allowed = range(4) if most else state["tableaux"][seat]
                    opts = [PLANETS[p] for p in range(4) if supply[p] and p in allowed]
                    take[seat] = maybe(draw, opts)
                    if opts:
                        supply[PLANETS.index(take[seat] or opts[0])] -= 1
        return {"type": "end", "take": take}
    if kind == "move":
        src = draw(st.sampled_from(spec["from"]))
        dst = draw(st.sampled_from([d for d in spec["to"] if d != src]))
        have = state["supply"] if src == "supply" else state["tokens"][src]
        p = draw(st.sampled_from([i for i in range(4) if have[i]]))
        return {"type": "move", "from": src, "to": dst, "planet": PLANETS[p], "count": draw(st.integers(1, have[p]))}
    if draw(st.booleans()):
        cards = []
        while len(cards) < n:
            c = [draw(st.sampled_from(PLANETS)), draw(st.integers(1, 15))]
            if c not in cards:
                cards.append(c)
        from shared_rules.moons.tricks import resolve
        lead = state["leader"]
        win = (lead + resolve([[PLANETS.index(c[0]), c[1]] for c in cards])[0]) % n
        return {"type": "trick", "cards": cards, "take": maybe(draw, spec["take"][win])}
    win = draw(st.sampled_from(spec["players"]))
    event = {"type": "trick", "winner": win, "take": maybe(draw, spec["take"][win])}
    others = [i for i in range(n) if i != win]
    if draw(st.booleans()):
        event["low"] = draw(st.sampled_from(others))
        event["low_suit"] = draw(st.sampled_from(PLANETS))
    return event


def check_tokens(before, after, event):
    n = len(after["players"])
    total = [after["supply"][p] + sum(after["tokens"][i][p] for i in range(n)) for p in range(4)]
    assert total == [17, 17, 17, 17]  # no token is made or lost
    for i in range(n):
        assert min(after["tokens"][i]) >= 0
        assert after["scores"][i] == set_score(after["tokens"][i], after["scoring"])
    taken = sum(before["supply"]) - sum(after["supply"])
    if event["type"] == "trick":
        assert 0 <= taken <= 2 and sum(after["tricks"]) in (sum(before["tricks"]) + 1, 0)
    elif event["type"] == "end":
        assert 0 <= taken <= n
    elif event["type"] != "move":
        assert taken == 0
    if after["over"]:
        assert not sum(after["supply"]) or after["round"] == n
        best = max(after["scores"])
        assert after["scores"][G.winner(after)] == best and G.winner(after) in after["winners"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.sampled_from(TABLES), st.data())
def test_random_legal_games(n, table, data):
    players = ["p%d" % i for i in range(n)]
    match = Match("moons", players, {"scoring": table})
    events = []
    for _ in range(data.draw(st.integers(1, 120))):
        if match.state["over"]:
            assert G.legal(match.state)["moves"] == {}
            break
        before = clone(match.state)
        event = draw_event(data.draw, match.state)
        after = match.apply(event)  # drawn from legal(): must never fail
        check_tokens(before, after, event)
        assert match.apply({"type": "undo"}) == before  # apply never touched its input
        match.apply(event)
        events.append(event)
        assert len(json.dumps(after)) < 1500  # no history kept
    replay = G.new(players, {"scoring": table})
    for e in events:
        replay = G.apply(replay, e)
    assert replay == match.state


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_bad_events_change_nothing(data):
    s = G.new(["a", "b", "c"], {})
    for i in range(3):
        s = G.apply(s, {"type": "tableau", "player": i, "suits": ["jupiter", "saturn", "uranus"]})
    junk_changes_nothing(
        G, s, data.draw,
        st.sampled_from(["winner", "player", "take", "low", "low_suit", "from", "to", "planet", "count", "cards", "suits"]),
        st.one_of(st.integers(-5, 50), st.text(max_size=8), st.none(), st.booleans(), st.lists(st.integers(-2, 9), max_size=4)),
        st.sampled_from(["trick", "end", "move", "tableau", "first", "nonsense"]))


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.data())
def test_apply_never_changes_a_state_it_was_given(n, data):
    """See _game_checks.apply_never_changes_its_input; the wrong variant
    takes a drawn planet and count (often not allowed)."""
    def next_events(s):
        event = draw_event(data.draw, s)
        return event, dict(event, take=data.draw(st.sampled_from(PLANETS)), count=data.draw(st.integers(1, 20)))

    apply_never_changes_its_input(G, G.new(["p%d" % i for i in range(n)], {}), data.draw(st.integers(1, 80)), next_events)
