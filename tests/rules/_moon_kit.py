"""Set-up shared by the Moon dominoes rules tests (test_moon_dominoes_*.py):
the rules module, the table of three and the event helpers several test
groups use, written once. Its name starts with _, so neither pytest nor
tests/upy_runner.py looks for tests in it."""

from _support import raises
from shared_rules import get_game
from shared_rules.util import clone

G = get_game("moon")
P = ["Ann", "Bob", "Cy"]
# A recorded deal; the spare is 1-4.
DEAL = [["6-6", "2-6", "5-5", "4-5", "1-1", "2-3", "3-4"],
        ["5-6", "4-6", "3-5", "1-5", "2-2", "1-3", "0-0"],
        ["3-6", "1-6", "4-4", "2-5", "1-2", "3-3", "2-4"]]


def bad(state, event, words):
    """The event is refused with these words and the state is unchanged."""
    before = clone(state)
    raises(G.apply, state, event, match=words)
    assert state == before


def run(s, *events):
    for e in events:
        s = G.apply(s, e)
    return s


def pas(p):
    return {"type": "pass", "player": p}


def hand(s, b, v, tricks, trump):
    """Seat b wins the auction with bid v (the others pass), names this
    trump and the hand ends with these trick totals."""
    for p in range(3):
        if s["phase"] == "bidding":
            p = G.legal(s)["moves"]["pass"]["players"][0]
            s = G.apply(s, {"type": "bid", "player": p, "bid": v} if p == b else {"type": "pass", "player": p})
    s = G.apply(s, {"type": "trump", "player": b, "trump": trump})
    return G.apply(s, {"type": "totals", "tricks": tricks})
