import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import refused, start


def test_incompatible_combinations_are_refused():
    s = start(3, {"game": 12})
    for games, words in (([7, 8], "Game 7 cannot be combined with Game 8: both replace the scoring"),
                         ([6, 8], "Game 6 cannot be combined with Game 8"),
                         ([6, 7], "Game 6 cannot be combined with Game 7"),
                         ([5, 7], "Game 5 cannot be combined with Game 7"),
                         ([2, 4], "Game 2 cannot be combined with Game 4"),
                         ([9, 9], "Game 9 is named twice"),
                         ([1], "combine only Games 2-11")):
        refused(s, {"type": "variants", "games": games}, words)
    refused(s, {"type": "variants", "games": [3], "moons": 7, "dice": 7}, "Game 3 uses 8-15 moons, not 7")
    refused(s, {"type": "variants", "games": [5]}, "Game 5 uses 1-6 planets")
