"""The example Moons games in tests/data replay through the log reader
to the standings worked out by hand in docs/games/moons.md."""

from _replay_kit import check_example


def check(name):
    """A Moons game always ends with a winner, and over."""
    m = check_example(name)
    assert m.winner() is not None and m.state["over"], name


def test_default_scoring_game():
    check("moons-default")


def test_custom_table_game_ends_when_the_supply_runs_out():
    check("moons-custom-table")
