"""Placings by each game's win rule (issue 22, "Placings are a rule"): the
rank every screen, command and export shows comes from placings(), never
from a score sort, so a rank and a win never disagree."""

from _support import drop_games
from shared_rules import get_game
from shared_rules.match import Match
from shared_rules.places import order, seat_ranks


def test_order_ranks_sides_and_skips_by_sides():
    assert order([[0], [1], [2], [3]], [100, 80, 80, 50]) == [[1, [0]], [2, [1, 2]], [4, [3]]]
    # two partnerships of two: the second team is second, not third
    assert order([[0, 2], [1, 3]], [8, 2]) == [[1, [0, 2]], [2, [1, 3]]]
    # a side put on top by the win rule comes first even with a lower key
    assert order([[0], [1], [2]], [23, 5, 21], [2]) == [[1, [2]], [2, [0]], [3, [1]]]
    assert seat_ranks([[1, [2]], [2, [0]], [3, [1]]], 3) == [2, 3, 1]


def _moon_bidder_wins_lower():
    G = get_game("moon")
    m = Match("moon", ["P1", "P2", "P3"], {"target": 21})
    s = dict(m.state)
    s["scores"] = [21, 5, 16]
    # P3 (seat 2) bids 5 and makes it (16+5); P1 takes 2 tricks (21+2)
    for p in range(3):
        p = G.legal(s)["moves"]["pass"]["players"][0]
        s = G.apply(s, {"type": "bid", "player": p, "bid": 5} if p == 2 else {"type": "pass", "player": p})
    s = G.apply(s, {"type": "trump", "player": 2, "trump": 6})
    s = G.apply(s, {"type": "totals", "tricks": [2, 0, 5]})
    m.state = s
    return m


def test_moon_bidder_past_the_target_wins_with_a_lower_total_and_ranks_first():
    m = _moon_bidder_wins_lower()
    assert m.state["scores"] == [23, 5, 21] and m.state["over"]
    assert m.placings() == [[1, [2]], [2, [0]], [3, [1]]]
    assert m.winners() == [2] and m.winner() == 2
    assert m.standings() == [["P3", 21], ["P1", 23], ["P2", 5]]
    drop_games()


def test_moon_in_play_is_placed_by_total_with_no_winner():
    m = Match("moon", ["Ann", "Bob", "Cy"], {"start": [12, 12, -42]})
    assert m.placings() == [[1, [0, 1]], [3, [2]]]
    assert m.winners() == [] and m.winner() is None
    drop_games()


def test_shoot_the_moon_partnerships_share_a_place_and_the_next_team_is_second():
    m = Match("shoot-the-moon", list("abcd"), {"teams": 2, "start": [2, 6]})
    assert m.placings() == [[1, [1, 3]], [2, [0, 2]]]
    m = Match("shoot-the-moon", list("abcdef"), {"teams": 3, "start": [1, 5, 3]})
    assert m.placings() == [[1, [1, 4]], [2, [2, 5]], [3, [0, 3]]]
    m = Match("shoot-the-moon", list("abcdef"), {"teams": 3, "start": [5, 5, 3]})
    assert m.placings() == [[1, [0, 1, 3, 4]], [3, [2, 5]]]
    drop_games()


def test_shoot_the_moon_winning_team_is_every_winner():
    G = get_game("shoot-the-moon")
    m = Match("shoot-the-moon", list("abcd"), {"teams": 2, "start": [2, 6]})
    s = m.state
    for _ in range(5):
        s = G.apply(s, {"type": "trick", "winner": 3})
    m.state = s
    assert s["over"] and m.winners() == [1, 3] and m.winner() == 1
    assert m.placings() == [[1, [1, 3]], [2, [0, 2]]]
    drop_games()


def test_moons_tie_on_points_and_tokens_is_a_shared_first_place():
    G = get_game("moons")
    m = Match("moons", ["a", "b", "c"], {"scoring": [1, 2, 3, 4]})
    s = dict(m.state)
    s["supply"] = [1, 0, 0, 0]
    s["tokens"] = [[0, 0, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1]]
    s["scores"] = [0, 2, 2]
    s = G.apply(s, {"type": "move", "from": "supply", "to": 0, "planet": "jupiter"})
    m.state = s
    assert m.placings() == [[1, [1, 2]], [3, [0]]]
    assert m.winners() == [1, 2]
    drop_games()


def test_moons_tokens_break_a_points_tie():
    m = Match("moons", ["a", "b"], {})
    s = dict(m.state)
    s["scores"] = [4, 4]
    s["tokens"] = [[1, 0, 0, 0], [0, 0, 0, 0]]
    m.state = s
    assert m.placings() == [[1, [0]], [2, [1]]]
    drop_games()


def test_moonstar_places_by_score_with_the_winner_first():
    m = Match("moonstar", ["Ann", "Bob", "Cy"], {"start": [190, 150, 150]})
    assert m.placings() == [[1, [0]], [2, [1, 2]]]
    assert m.winners() == []  # in play: the goal is reached at a round's end
    drop_games()
