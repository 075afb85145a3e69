"""Shoot the Moon's cards and tricks: notation, trick winner, legal plays,
a trick entered card by card, and legal(). Apart from the chip count so
one trick's rules stand alone, and so each module compiles in a small heap.

Cards (any case on input): R, G, P, B (red rockets = trump, green
crescent moons, purple stars, blue full moons) with 1-12, e.g. "R7";
"BM" BIG MOON and "LM" LITTLE MOON, two of each in the deck.
"""

from shared_rules.errors import RuleError
from shared_rules.util import whole

BIG = "BM"
LITTLE = "LM"
COLOURS = "RGPB"
NAMES = {"R": "red", "G": "green", "P": "purple", "B": "blue"}
MOONS = 2  # copies of each moon card


def parse(card):
    # The canonical text of a card; RuleError if the deck has none.
    if isinstance(card, str):
        c = card.upper()
        d = c[1:]
        if c == BIG or c == LITTLE or (c[:1] in COLOURS and d.isdigit() and d[:1] != "0" and 0 < int(d) <= 12):
            return c
    raise RuleError("no card %r (R, G, P, B 1-12, BM, LM)" % (card,))


def is_moon(card):
    return card == BIG or card == LITTLE


def _has(cards, col):
    for c in cards:  # moon cards first: "BM" starts with the blue letter
        if not is_moon(c) and c[0] == col:
            return True
    return False


def trick_winner(cards):
    # Index in play order of the winning card (cards as parse() returns
    # them): the first BIG MOON; else, after a LITTLE MOON lead, the
    # highest number of any colour (first played wins a tie); else the
    # highest red; else the highest of the led suit. A LITTLE MOON never
    # wins.
    if not cards:
        raise RuleError("a trick needs at least one card")
    if BIG in cards:
        return cards.index(BIG)
    want = None if cards[:1] == [LITTLE] else ("R" if _has(cards, "R") else cards[0][0])
    best = -1
    top = 0
    for i in range(len(cards)):
        c = cards[i]
        if c != LITTLE and (want is None or c[0] == want) and int(c[1:]) > top:
            top = int(c[1:])  # strictly greater: a tie stays with the first
            best = i
    if best < 0:
        raise RuleError("nothing can win: a LITTLE MOON never wins")
    return best


def legal_plays(hand, trick_so_far):
    # The cards of `hand` (as parse() returns them) that may go on
    # `trick_so_far`: the led colour or a moon card if the hand has that
    # colour, else any. After a moon-card lead there is no suit to follow.
    lead = trick_so_far[0] if trick_so_far else BIG
    if is_moon(lead) or not _has(hand, lead[0]):
        return list(hand)
    return [c for c in hand if is_moon(c) or c[0] == lead[0]]


def full_deck():
    # All 52 cards. Built on demand, never at import.
    return [col + str(n) for col in COLOURS for n in range(1, 13)] + [BIG, BIG, LITTLE, LITTLE]


def play_order(n, dealer, leader):
    # Hands in play order from `leader`. With two players hand 2 is the
    # dummy: it plays third, or leads and the non-dealer follows.
    if n > 2:
        return [(leader + i) % n for i in range(n)]
    if leader == 2:
        first = (dealer + 1) % 2
        return [2, first, 1 - first]
    return [leader, 1 - leader, 2]


def _copies(card):
    return MOONS if is_moon(card) else 1


def _seen(s, card):
    # How often `card` was played this round, plus copies still held by
    # the players when the hands were dealt in.
    n = s["moons"][card == LITTLE] if is_moon(card) else int(card in s["played"])
    for h in s["held"] or ():
        n += h.count(card)
    return n


def deal(state, event, size):
    # The state with the dealt hands recorded.
    hands = event.get("hands")
    n = len(state["players"])
    if not isinstance(hands, list) or len(hands) != n or [h for h in hands if not isinstance(h, list) or len(h) != size]:
        raise RuleError("deal: one list of %d cards for each of the %d players" % (size, n))
    held = [[parse(c) for c in h] for h in hands]
    flat = sum(held, [])
    for c in flat:
        if flat.count(c) > _copies(c):
            raise RuleError("%s dealt too often" % c)
    s = dict(state)  # only "held" and "phase" change, and both are replaced
    s["held"] = held
    s["phase"] = "play"
    return s


def play(state, s, event):
    # One card onto the trick: checked against `state` (turn, card exists
    # and is unseen, in the dealt hand and following colour if the hands are
    # known), written into its copy `s`. Returns (winner hand, BIGs,
    # LITTLEs) once the trick is complete, else None.
    names = state["players"] + ["the dummy"]  # for messages
    order = play_order(len(state["players"]), state["dealer"], state["leader"])
    hand = whole(event, "player", 0, len(order) - 1, "player")
    due = order[len(state["trick"])]
    if hand != due:
        raise RuleError("it is %s's turn to play, not %s's" % (names[due], names[hand]))
    card = parse(event.get("card"))
    held = state["held"]
    mine = held is not None and hand < len(held)
    if mine and card not in held[hand]:
        raise RuleError("%s does not hold %s (holds %s)" % (names[hand], card, " ".join(held[hand])))
    if not mine and _seen(state, card) >= _copies(card):
        raise RuleError("%s already played or in a hand" % card)
    trick = s["trick"]
    if mine:
        ok = legal_plays(held[hand], [c for _, c in trick])
        if card not in ok:
            raise RuleError("%s must follow %s (%s); if played, enter illegal"
                            % (names[hand], NAMES[trick[0][1][0]], " ".join(ok)))
        s["held"][hand].remove(card)
    if is_moon(card):
        s["moons"] = list(s["moons"])
        s["moons"][card == LITTLE] += 1
    else:
        s["played"].append(card)
    trick.append([hand, card])
    if len(trick) < len(order):
        return None
    cards = [c for _, c in trick]
    s["trick"] = []
    return trick[trick_winner(cards)][0], cards.count(BIG), cards.count(LITTLE)


def legal_moves(state, tricks):
    # shoot_the_moon.legal(); the hints are in docs/games/shoot-the-moon.md
    if state["over"]:
        return {"phase": "over", "moves": {}}
    n = len(state["players"])
    k = max(3, n)
    m = {"illegal": {"players": list(range(n))}}
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
