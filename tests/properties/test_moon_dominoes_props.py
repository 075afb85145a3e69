"""Property tests for Moon (dominoes), CPython only (hypothesis).

Games are driven by legal(): every move it offers must apply, and random
junk must be refused with a RuleError that leaves the state as it was.
"""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from _game_checks import apply_never_changes_its_input
from shared_rules import RuleError, get_game
from shared_rules.moon_dominoes import tricks as dt
from shared_rules.match import UNDO_DEPTH, Match
from shared_rules.util import Rng, clone

G = get_game("moon")
P = ["Ann", "Bob", "Cy"]
TRUMPS = list(range(7)) + [dt.DOUBLES, dt.FOLLOW_ME]


def legal_event(state, rng):
    """One event chosen at random among those legal() offers."""
    moves = G.legal(state)["moves"]
    kind = sorted(moves)[rng.below(len(moves))]
    spec = moves[kind]
    ev = {"type": kind}
    if "players" in spec:
        ev["player"] = spec["players"][0]
    if kind == "deal":
        ev["seed"] = rng.next32()
    elif kind == "bid":
        ev["bid"] = spec["values"][rng.below(len(spec["values"]))]
    elif kind == "trump":
        ev["trump"] = spec["values"][rng.below(len(spec["values"]))]
    elif kind in ("swap", "play") and spec.get("values"):
        ev["tile"] = spec["values"][rng.below(len(spec["values"]))]
    elif kind == "trick":
        del ev["player"]
        if "values" in spec:
            ev["winner"] = rng.below(3)
        else:  # tiles recorded: find 3 legal tiles by playing them
            s, tiles = state, []
            for _ in range(3):
                p = G.legal(s)["moves"]["play"]
                t = p["values"][rng.below(len(p["values"]))]
                s = G.apply(s, {"type": "play", "player": p["players"][0], "tile": t})
                tiles.append(t)
            ev["plays"] = tiles
    elif kind == "totals":
        t = list(spec["at_least"])
        for _ in range(7 - sum(t)):
            t[rng.below(3)] += 1
        ev["tricks"] = t
    return ev


def game_events(seed, n, target=40):
    """A legal event sequence of up to n events, from a seed."""
    rng = Rng(seed)
    s = G.new(P, {"target": target, "first_bidder": rng.below(3)})
    events = []
    while len(events) < n and not s["over"]:
        ev = legal_event(s, rng)
        s = G.apply(s, ev)
        events.append(ev)
    return events


def replay(events, target=40, first=0):
    s = G.new(P, {"target": target, "first_bidder": first})
    for ev in events:
        s = G.apply(s, ev)
    return s


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 300))
def test_random_legal_games_never_crash_and_stay_bounded(seed, n):
    rng = Rng(seed)
    s = G.new(P, {"target": 40, "first_bidder": rng.below(3)})
    for _ in range(n):
        if s["over"]:
            assert G.legal(s)["moves"] == {} and G.winner(s) in (0, 1, 2)
            break
        before = json.dumps(s, sort_keys=True)
        ev = legal_event(s, rng)
        nxt = G.apply(s, ev)
        assert json.dumps(s, sort_keys=True) == before  # input never changed
        assert len(json.dumps(nxt)) < 700  # no history kept
        if nxt["round"] == s["round"]:
            assert nxt["scores"] == s["scores"]
        else:  # a hand was scored: only as the rules say
            b, bid = s["bidder"], s["bid"]
            d = [nxt["scores"][i] - s["scores"][i] for i in range(3)]
            others = sum(d) - d[b]
            assert d[b] in (bid, -bid) and min(d[i] for i in range(3) if i != b) >= 0
            if d[b] > 0:
                assert others <= 7 - min(bid, 7)
            else:
                assert 7 - min(bid, 7) < others <= 7
            assert nxt["round"] == s["round"] + 1
        s = nxt


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 200))
def test_replay_is_deterministic(seed, n):
    events = game_events(seed, n)
    first = Rng(seed).below(3)
    assert replay(events, first=first) == replay(events, first=first)
    assert game_events(seed, n) == events


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 120), st.integers(1, UNDO_DEPTH))
def test_undo_via_match_restores_the_previous_states(seed, n, back):
    events = game_events(seed, n)
    rng = Rng(seed)
    m = Match("moon", P, {"target": 40, "first_bidder": rng.below(3)})
    seen = [clone(m.state)]
    for ev in events:
        m.apply(ev)
        seen.append(clone(m.state))
    for k in range(1, min(back, len(events)) + 1):
        m.apply({"type": "undo"})
        assert m.state == seen[-1 - k]


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 25) | st.sampled_from(
        ["0-0", "0-3", "6-6", "2-6", "7-1", "pass", "doubles", "follow-me", "x"]),
    lambda inner: st.lists(inner, max_size=4), max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 80),
       st.sampled_from(["bid", "pass", "deal", "swap", "trump", "play", "trick", "totals", "undo", "x"]),
       st.dictionaries(st.sampled_from(["player", "bid", "tile", "trump", "winner", "plays", "tricks",
                                        "seed", "hands", "spare"]), JUNK, max_size=4))
def test_junk_is_refused_cleanly_or_is_legal(seed, n, kind, fields):
    s = replay(game_events(seed, n), first=Rng(seed).below(3))
    before = clone(s)
    ev = dict(fields, type=kind)
    try:
        G.apply(s, ev)
    except RuleError as e:
        assert str(e)
    assert s == before


@settings(max_examples=200, deadline=None)
@given(st.permutations(dt.all_tiles()), st.sampled_from(TRUMPS), st.integers(1, 3))
def test_resolver_winner_is_a_trump_if_any_else_follows_the_lead(tiles, trump, size):
    plays = tiles[:size]
    w = dt.trick_winner(plays, trump)
    trumps = [t for t in plays if dt.is_trump(t, trump)]
    if trumps:
        assert dt.is_trump(plays[w], trump)
        assert all(dt.rank(plays[w], dt.TRUMP, trump) >= dt.rank(t, dt.TRUMP, trump) for t in trumps)
    else:
        suit = dt.led_suit(plays[0], trump)
        assert dt.follows(plays[w], suit, trump)
        assert all(dt.rank(plays[w], suit, trump) >= dt.rank(t, suit, trump)
                   for t in plays if dt.follows(t, suit, trump))


@settings(max_examples=200, deadline=None)
@given(st.permutations(dt.all_tiles()), st.sampled_from(TRUMPS), st.integers(0, 2))
def test_legal_plays_follow_suit_when_able(tiles, trump, lead):
    hand, trick = tiles[:7], tiles[7:7 + lead]
    ok = dt.legal_plays(hand, trick, trump)
    assert ok and all(t in hand for t in ok)
    if trick:
        suit = dt.led_suit(trick[0], trump)
        if any(dt.follows(t, suit, trump) for t in hand):
            assert ok == [t for t in hand if dt.follows(t, suit, trump)]
        else:
            assert ok == hand
    else:
        assert ok == hand


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(TRUMPS), st.integers(0, 2))
def test_a_full_deal_played_with_legal_plays_makes_7_tricks(seed, trump, leader):
    rng = Rng(seed)
    tiles = rng.shuffle(dt.all_tiles())
    hands = [tiles[0:7], tiles[7:14], tiles[14:21]]
    tricks = [0, 0, 0]
    played = []
    for _ in range(7):
        trick = []
        for i in range(3):
            h = hands[(leader + i) % 3]
            ok = dt.legal_plays(h, trick, trump)
            t = ok[rng.below(len(ok))]
            h.remove(t)
            trick.append(t)
        leader = (leader + dt.trick_winner(trick, trump)) % 3
        tricks[leader] += 1
        played += trick
    assert sum(tricks) == 7 and hands == [[], [], []]
    assert sorted(played) == sorted(tiles[:21])


def test_tile_notation_round_trips():
    for t in dt.all_tiles():
        assert dt.parse_tile(t) == t and dt.parse_tile(t[2] + "-" + t[0]) == t
        assert dt.all_tiles()[dt.index(t)] == t


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 150))
def test_apply_never_changes_a_state_it_was_given(seed, n):
    """See _game_checks.apply_never_changes_its_input; the wrong variant
    takes a random seat, tile and totals (turn, tile held, suit, totals)."""
    rng = Rng(seed)

    def next_events(s):
        event = legal_event(s, rng)
        return event, dict(event, player=rng.below(4), tile=dt.all_tiles()[rng.below(22)], tricks=[rng.below(8)] * 3)

    apply_never_changes_its_input(G, G.new(P, {"target": 40, "first_bidder": rng.below(3)}), n, next_events)
