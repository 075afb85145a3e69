"""The example Shoot the Moon games in tests/data replay through the log
reader to the standings worked out by hand in docs/games/shoot-the-moon.md."""

from _replay_kit import check_example

GAMES = ("individual", "two-players", "pairs", "three-pairs", "two-threes")


def test_example_games_replay_to_the_hand_worked_standings():
    for g in GAMES:
        check_example("shoot-the-moon-" + g)
