"""RULINGS.md "Set scoring": the documentation says plainly that the
default is not taken from the reference card."""

from _support import data_path


def test_docs_say_the_default_scoring_is_not_the_cards():
    with open(data_path("../../docs/games/moons.md")) as f:
        text = f.read()
    assert "**The default set scoring is not taken from the reference card.**" in text
    assert "[1, 2, 3, 10]" in text
