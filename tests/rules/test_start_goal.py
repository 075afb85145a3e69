"""'Starting from paper', issue 22: a start tied at or past the goal plays
on, Moon has no floor (only a sanity bound), (Moonstar's:
test_moonstar_start.py). Each test unloads its games
(drop_games) so the file fits MicroPython's 72K heap."""

from _support import drop_games, raises
from shared_rules import get_game


def test_a_start_tied_at_or_past_the_goal_is_a_game_in_play():
    """Issue 22: a tie at the top plays on, so such a start is accepted."""
    stm = get_game("shoot-the-moon")
    s = stm.new(["a", "b", "c"], {"start": [7, 7, 2]})
    assert s["chips"] == [7, 7, 2] and not s["over"] and s["phase"] == "deal"
    s = stm.new(list("abcd"), {"teams": 2, "start": [9, 9]})
    assert not s["over"]
    moon = get_game("moon")
    s = moon.new(["a", "b", "c"], {"start": [22, 22, 0]})
    assert s["scores"] == [22, 22, 0] and not s["over"] and s["phase"] == "bidding"
    drop_games()


def test_moon_scores_have_no_floor_in_the_rules():
    moon = get_game("moon")
    assert moon.new(["a", "b", "c"], {"start": [-42, 0, 0]})["scores"] == [-42, 0, 0]  # two set 21 bids
    assert moon.new(["a", "b", "c"], {"start": [-1000, 0, 0]})["scores"][0] == -1000
    raises(moon.new, ["a", "b", "c"], {"start": [-1001, 0, 0]}, match="from -1000 to 1000, not -1001")
    drop_games()

