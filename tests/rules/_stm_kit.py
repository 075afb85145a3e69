"""Set-up shared by the Shoot the Moon rules tests (test_shoot_the_moon_*.py):
the rules module and the event helpers several test groups use, written
once. Its name starts with _, so neither pytest nor tests/upy_runner.py
looks for tests in it."""

from shared_rules import get_game

G = get_game("shoot-the-moon")


def run(state, events):
    for e in events:
        state = G.apply(state, e)
    return state


def tr(winner, big=0, little=0):
    """A whole trick entered by its winner and the moon cards in it."""
    return {"type": "trick", "winner": winner, "big": big, "little": little}


def play(s, *pairs):
    """Each (hand, card) played in turn, card by card."""
    for hand, card in pairs:
        s = G.apply(s, {"type": "play", "player": hand, "card": card})
    return s
