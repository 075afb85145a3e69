"""Shoot the Moon's cards and tricks: notation, trick winner, legal plays,
a trick entered card by card, and legal(). Apart from the chip count so
one trick's rules stand alone.

Cards (any case on input): R, G, P, B (red rockets = trump, green
crescent moons, purple stars, blue full moons) with 1-12, e.g. "R7";
"BM" BIG MOON and "LM" LITTLE MOON, two of each in the deck.

play() works copy-on-write like the game module: it checks against the
state before the event and replaces, in the new state's top-level copy,
the lists the card changes, never changing one in place.
"""

from shared_rules.errors import RuleError
from shared_rules.util import field

BIG = "BM"
LITTLE = "LM"
COLOURS = "RGPB"
NAMES = {"R": "red", "G": "green", "P": "purple", "B": "blue"}
MOONS = 2  # copies of each moon card

def _canonical(c):
    # True if c is a card exactly as the state writes it. Checked by its
    # characters, so reading a card allocates nothing in the usual case.
    n = len(c)
    if n == 2:
        return c == BIG or c == LITTLE or (c[0] in COLOURS and c[1] in "123456789")
    return n == 3 and c[0] in COLOURS and c[1] == "1" and c[2] in "012"


def parse(card):
    """The canonical text of a card; RuleError if the deck has none."""
    if type(card) is str:
        if _canonical(card):
            return card
        c = card.upper()
        if _canonical(c):
            return c
    raise RuleError("there is no card %r: a card is R, G, P or B with a number 1-12 (like R7), BM or LM" % (card,))


def is_moon(card):
    return card == BIG or card == LITTLE


def _has(cards, col):
    for c in cards:  # moon cards first: "BM" starts with the blue letter
        if not is_moon(c) and c[0] == col:
            return True
    return False


def trick_winner(cards):
    """Index in play order of the winning card (cards as parse() returns
    them): the first BIG MOON; else, after a LITTLE MOON lead, the highest
    number of any colour (first played wins a tie); else the highest red;
    else the highest of the led suit. A LITTLE MOON never wins."""
    if not cards:
        raise RuleError("a trick needs at least one card")
    if BIG in cards:
        return cards.index(BIG)
    want = None if cards[0] == LITTLE else ("R" if _has(cards, "R") else cards[0][0])
    best = -1
    top = 0
    for i in range(len(cards)):
        c = cards[i]
        if c != LITTLE and (want is None or c[0] == want) and int(c[1:]) > top:
            top = int(c[1:])  # strictly greater: a tie stays with the first
            best = i
    if best < 0:
        raise RuleError("no card in this trick can win it: a LITTLE MOON never wins")
    return best


def legal_plays(hand, trick_so_far):
    """The cards of `hand` (as parse() returns them) that may go on
    `trick_so_far`: the led colour or a moon card if the hand has that
    colour, else any. After a moon-card lead there is no suit to follow."""
    lead = trick_so_far[0] if trick_so_far else BIG
    if is_moon(lead) or not _has(hand, lead[0]):
        return list(hand)
    return [c for c in hand if is_moon(c) or c[0] == lead[0]]


def full_deck():
    """All 52 cards. Built on demand, never at import."""
    return [col + str(n) for col in COLOURS for n in range(1, 13)] + [BIG, BIG, LITTLE, LITTLE]


def play_order(n, dealer, leader):
    """Hands in play order from `leader`. With two players hand 2 is the
    dummy: it plays third, or leads and the non-dealer follows."""
    if n > 2:
        return [(leader + i) % n for i in range(n)]
    if leader == 2:
        first = (dealer + 1) % 2
        return [2, first, 1 - first]
    return [leader, 1 - leader, 2]


def _copies(card):
    return MOONS if is_moon(card) else 1


def _seen(s, card):
    """How often `card` was played this round, plus copies still held by
    the players when the hands were dealt in."""
    n = s["moons"][card == LITTLE] if is_moon(card) else int(card in s["played"])
    for h in s["held"] or ():
        n += h.count(card)
    return n


def deal(state, event, size):
    """The state with the dealt hands recorded."""
    hands = event.get("hands")
    n = len(state["players"])
    if not isinstance(hands, list) or len(hands) != n or [h for h in hands if not isinstance(h, list) or len(h) != size]:
        raise RuleError("a deal is one list of %d cards for each of the %d players, in seat order%s"
                        % (size, n, " (the dummy's pile is not dealt in)" if n == 2 else ""))
    held = [[parse(c) for c in h] for h in hands]
    flat = sum(held, [])
    for c in flat:
        k = flat.count(c)
        if k > _copies(c):
            raise RuleError("%s is dealt %d times, but the deck has %s" % (c, k, "two" if is_moon(c) else "one"))
    s = dict(state)  # only "held" and "phase" change, and both are replaced
    s["held"] = held
    s["phase"] = "play"
    return s


def hand_names(s):
    """Who plays each hand, for messages: the players, then "the dummy"."""
    return s["players"] + ["the dummy"] if len(s["players"]) == 2 else s["players"]


def seat_in(players, v, what, k):
    """v as a hand 0..k-1 (k: players, or 3 with the dummy); RuleError
    naming the hands otherwise."""
    if type(v) is int and 0 <= v < k:
        return v
    names = ", ".join((players + ["the dummy"])[:k])
    kind = "hand" if k > len(players) else "seat"
    if type(v) is int:
        raise RuleError("%s %d does not exist: %ss are 0-%d (%s)" % (kind, v, kind, k - 1, names))
    raise RuleError("%s must be a %s, 0-%d (%s), not %r" % (what, kind, k - 1, names, v))


def hand_of(s, event, name, k):
    """event[name] as a hand 0..k-1 of this game."""
    v = event.get(name)
    if type(v) is int and 0 <= v < k:
        return v
    if v is None:
        raise RuleError("%s event needs a %r field" % (event.get("type"), name))
    return seat_in(s["players"], v, name, k)


def play(state, s, event):
    """One card onto the trick: checked against `state` (turn, card exists
    and is unseen, in the dealt hand and following colour if the hands are
    known), written into its copy `s`. Returns (winner hand, BIGs,
    LITTLEs) once the trick is complete, else None."""
    n = len(state["players"])
    k = n if n > 2 else 3
    trick = state["trick"]
    hand = hand_of(state, event, "player", k)
    due = (state["leader"] + len(trick)) % n if n > 2 else play_order(n, state["dealer"], state["leader"])[len(trick)]
    if hand != due:
        names = hand_names(state)
        raise RuleError("it is %s's turn to play, not %s's" % (names[due], names[hand]))
    card = parse(field(event, "card"))
    held = state["held"]
    if held is not None and hand < n:
        mine = held[hand]
        if card not in mine:
            raise RuleError("%s does not hold %s (holds %s)" % (hand_names(state)[hand], card, " ".join(mine)))
        if trick:
            lead = trick[0][1]
            if not is_moon(lead) and not is_moon(card) and card[0] != lead[0] and _has(mine, lead[0]):
                ok = legal_plays(mine, [lead])
                raise RuleError("%s must follow %s (%s); if that card was really played, enter an illegal play"
                                % (hand_names(state)[hand], NAMES[lead[0]], " ".join(ok)))
        held = list(held)
        mine = list(mine)
        mine.remove(card)
        held[hand] = mine
        s["held"] = held
    else:
        _unseen(state, card, held)
    if is_moon(card):
        moons = list(state["moons"])
        moons[card == LITTLE] += 1
        s["moons"] = moons
    else:
        s["played"] = state["played"] + [card]
    trick = trick + [[hand, card]]
    if len(trick) < k:
        s["trick"] = trick
        return None
    s["trick"] = []
    cards = [c for _, c in trick]
    return trick[trick_winner(cards)][0], cards.count(BIG), cards.count(LITTLE)


def _unseen(state, card, held):
    """Refuse a card that cannot still be in play: every copy already
    played this round, or in a player's dealt hand (a dummy's card)."""
    if _seen(state, card) < _copies(card):
        return
    if is_moon(card) and state["moons"][card == LITTLE] >= MOONS:
        raise RuleError("both %ss have already been played this round" % ("BIG MOON" if card == BIG else "LITTLE MOON"))
    if not is_moon(card) and card in state["played"]:
        raise RuleError("%s has already been played this round" % card)
    owner = [state["players"][i] for i in range(len(held or ())) if card in (held or ())[i]]
    raise RuleError("%s cannot be the dummy's card: it is in %s's dealt hand" % (card, " and ".join(owner)))


def legal_moves(state, tricks):
    """shoot_the_moon.legal(); the hints are in docs/games/shoot-the-moon.md."""
    if state["over"]:
        return {"phase": "over", "moves": {}}
    n = len(state["players"])
    k = max(3, n)
    m = {}
    m["illegal"] = {"players": list(range(n))}
    if not state["trick"] and state["held"] is None:
        b, lm = state["moons"]
        m["trick"] = {"players": list(range(k)), "big_max": MOONS - b, "little_max": min(MOONS - lm, k - 1),
                      "moons_max": k, "dummy": 2 if k > n else None}
        if not sum(state["tricks"]):
            m["round"] = {"hands": k, "tricks": tricks, "big_max": MOONS, "little_max": MOONS}
            m["deal"] = {"hands": n, "cards": tricks}
    due = play_order(n, state["dealer"], state["leader"])[len(state["trick"])]
    held = state["held"]
    if held and due < n:
        cards = legal_plays(held[due], [c for _, c in state["trick"]])
    else:
        cards = []
        for c in full_deck():
            if c not in cards and _seen(state, c) < _copies(c):
                cards.append(c)
    m["play"] = {"players": [due], "values": cards}
    return {"phase": state["phase"], "moves": m}
