"""Moon's tiles: the set, suits, trick winners, and the table in a hand."""

# The dominoes side of Moon: the tile set, suits and trick winners, and the
# tiles on the table during a hand (the deal, each play). moon_dominoes keeps
# the game around it (auction, tricks, scores, winning). The split keeps the
# suit rules in one place, lets the tests probe them with the published
# examples, and keeps each module small enough to compile in the 64K heap
# the tests give MicroPython (why the "why" notes here are comments: a
# docstring costs heap while compiling, a comment does not).
#
# Tile notation: a tile is the text "a-b" with single-digit ends. Input may
# give the ends in either order ("6-5" or "5-6"); the canonical form, which
# states hold, puts the lower end first ("5-6"). A canonical tile is always
# three characters, so its ends are tile[0] and tile[2].
#
# Trump is an end number 0-6, DOUBLES or FOLLOW_ME (no trump). The rules,
# from RULINGS.md (Moon (dominoes)):
# - a trump tile belongs only to the trump suit;
# - otherwise a led tile's suit is its higher end (a double: its number);
# - players must follow the led suit if able, otherwise play anything;
# - the highest trump wins; if no trump, the highest tile of the led suit;
# - in every suit the double is highest, then the rest by their other end;
#   the doubles suit (DOUBLES trump) runs 6-6 down to 0-0.

from shared_rules.errors import RuleError
from shared_rules.util import Rng, field, whole

DOUBLES = "doubles"
FOLLOW_ME = "follow-me"
TRUMP = 7  # the led-suit code for "trump was led"; plain suits are 0-6


# The 22 tiles of the Moon set in canonical form: the double-six set
# without 0-1 ... 0-6, keeping 0-0 (RULINGS.md overrides the text's
# "every piece except the double-zero"). Built on first use, then shared:
# callers get a copy, the hot paths here use _tiles() itself.
_TILES = None


def _tiles():
    global _TILES
    if _TILES is None:
        _TILES = ["0-0"] + ["%d-%d" % (lo, hi) for hi in range(1, 7) for lo in range(1, hi + 1)]
    return _TILES


def all_tiles():
    return list(_tiles())


# Canonical "lo-hi" text for a tile given as "a-b" in either order;
# RuleError for text that is not a tile, an end beyond 6, or a 0-x
# blank, which the Moon set does not have.
def parse_tile(v):
    if not (isinstance(v, str) and len(v) == 3 and v[1] == "-" and v[0].isdigit() and v[2].isdigit()):
        raise RuleError("tile %r is not written as two ends like '2-6'" % (v,))
    a, b = sorted([int(v[0]), int(v[2])])
    if b > 6:
        raise RuleError("tile %r does not exist: ends run from 0 to 6" % (v,))
    if a == 0 < b:
        raise RuleError("tile %r is not in the Moon set (it has no 0-1 to 0-6)" % (v,))
    return "%d-%d" % (a, b)


# A trump choice: a whole number 0-6, "doubles" or "follow-me".
def parse_trump(v):
    if v == DOUBLES or v == FOLLOW_ME or type(v) is int and 0 <= v <= 6:
        return v
    raise RuleError("trump must be a number 0-6, 'doubles' or 'follow-me', not %r" % (v,))


def suit_name(suit):
    return ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "trumps")[suit]


# True if the canonical tile belongs to the trump suit.
def is_trump(tile, trump):
    if trump == DOUBLES:
        return tile[0] == tile[2]
    return trump != FOLLOW_ME and str(trump) in tile


# The suit a tile sets when it is led: TRUMP, or its higher end.
def led_suit(tile, trump):
    return TRUMP if is_trump(tile, trump) else int(tile[2])


# True if the tile belongs to the led suit; a trump tile belongs only
# to trump, whatever its other end.
def follows(tile, suit, trump):
    if is_trump(tile, trump):
        return suit == TRUMP
    return suit != TRUMP and str(suit) in tile


# Strength of a tile within a suit it belongs to. The double of a
# number suit ranks 7, above any other end; the rest rank by their other
# end. In the doubles suit a double ranks by its number.
def rank(tile, suit, trump):
    lo = int(tile[0])
    hi = int(tile[2])
    if suit == TRUMP:
        if trump == DOUBLES:
            return lo
        suit = trump
    return 7 if lo == hi else lo + hi - suit


# Index (into plays, in play order) of the tile that takes the trick:
# the highest trump, else the highest tile of the led suit.
def trick_winner(plays, trump):
    suit = led_suit(plays[0], trump)
    keys = [(2, rank(t, TRUMP, trump)) if is_trump(t, trump) else
            (1, rank(t, suit, trump)) if follows(t, suit, trump) else (0, 0) for t in plays]
    return keys.index(max(keys))


# The tiles of `hand` a player may play to the trick so far: any when
# leading, else those of the led suit if the hand has one, else any.
def legal_plays(hand, trick_so_far, trump):
    if not trick_so_far:
        return list(hand)
    suit = led_suit(trick_so_far[0], trump)
    return [t for t in hand if follows(t, suit, trump)] or list(hand)


# The table. A Moon state keeps where every tile is as one 22-character
# string, s["tiles"], char i for all_tiles()[i]: "0" "1" "2" held by that
# seat and "s" the spare (only once the deal is recorded), "p" played this
# hand, "." not known. One short string instead of hand lists keeps the
# state small: a Match holds 32 states for undo, in a 64K heap in the tests.
# Also used: s["trick"] (tiles so far), s["leader"], s["trump"], s["players"].
UNKNOWN = "." * 22


# Position of a canonical tile in all_tiles().
def index(tile):
    hi = int(tile[2])
    return hi * (hi - 1) // 2 + int(tile[0])


# The tiles seat p holds (a recorded deal), in canonical order.
def hand(s, p):
    c = str(p)
    w = s["tiles"]
    return [t for i, t in enumerate(_tiles()) if w[i] == c]


def known(s):
    return "s" in s["tiles"]


def _put(s, tile, c):
    i = index(tile)
    s["tiles"] = s["tiles"][:i] + c + s["tiles"][i + 1:]


# Record the hand's tiles: shuffled from event["seed"] with the portable
# Rng (the same deal on the board and on the PC), or event["hands"]: 3
# lists of 7 distinct tiles. The spare is the tile left over.
def deal(s, event):
    if "seed" in event:
        tiles = Rng(whole(event, "seed", 0, 0xFFFFFFFF)).shuffle(all_tiles())
    else:
        hands = field(event, "hands")
        if type(hands) is not list or len(hands) != 3 or [h for h in hands if type(h) is not list or len(h) != 7]:
            raise RuleError("a deal gives 3 hands of 7 tiles, one per seat")
        tiles = [parse_tile(t) for h in hands for t in h]
        for t in tiles:
            if tiles.count(t) > 1:
                raise RuleError("tile %s is dealt twice" % t)
        tiles += [t for t in all_tiles() if t not in tiles]
        if "spare" in event and parse_tile(event["spare"]) != tiles[21]:
            raise RuleError("the spare must be %s, the one tile in no hand" % tiles[21])
    w = ["."] * 22
    for i in range(22):
        w[index(tiles[i])] = "012s"[i // 7]
    s["tiles"] = "".join(w)


# Seat p, the bidder, gives event["tile"] for the spare, once a hand. With
# no recorded deal the swap is only noted (a tile, if given, must exist).
def swap(s, p, event):
    if s["swapped"]:
        raise RuleError("the bidder may swap only one tile with the spare")
    s["swapped"] = True
    if known(s) or "tile" in event:
        tile = parse_tile(field(event, "tile"))
        if known(s):
            if s["tiles"][index(tile)] != str(p):
                raise RuleError("%s does not hold %s" % (s["players"][p], tile))
            _put(s, _tiles()[s["tiles"].index("s")], str(p))
            _put(s, tile, "s")


# Seat p, whose turn it is, plays a canonical tile: refused if already
# played this hand or, with a recorded deal, not held or not following
# suit. Returns the seat that takes the trick once it has 3 tiles.
def play(s, p, tile):
    trick = s["trick"]
    where = s["tiles"][index(tile)]
    if where == "p":
        raise RuleError("%s has already been played this hand" % tile)
    if known(s):
        if where != str(p):
            raise RuleError("%s does not hold %s" % (s["players"][p], tile))
        ok = legal_plays(hand(s, p), trick, s["trump"])
        if tile not in ok:
            raise RuleError("%s must follow %s: play %s" % (
                s["players"][p], suit_name(led_suit(trick[0], s["trump"])), " or ".join(ok)))
    _put(s, tile, "p")
    trick.append(tile)
    if len(trick) == 3:
        return (s["leader"] + trick_winner(trick, s["trump"])) % 3
    return None


# What seat p may play next: the legal plays of a recorded hand, or, with
# no recorded deal, every tile not yet played this hand.
def playable(s, p):
    if known(s):
        return legal_plays(hand(s, p), s["trick"], s["trump"])
    w = s["tiles"]
    return [t for i, t in enumerate(_tiles()) if w[i] != "p"]
