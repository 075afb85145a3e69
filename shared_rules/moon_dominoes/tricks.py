"""Moon's tiles: the set, suits, trick winners, and the table in a hand.

The dominoes side of Moon: the tile set, suits and trick winners, and the
tiles on the table during a hand (the deal, the swap, each play).
moon_dominoes keeps the game around it (auction, tricks, scores, winning).
The split keeps the suit rules in one place and lets the tests probe them
with the published examples.

Tile notation: a tile is the text "a-b" with single-digit ends. Input may
give the ends in either order ("6-5" or "5-6"); the canonical form, which
states hold, puts the lower end first ("5-6"). A canonical tile is always
three characters, so its ends are tile[0] and tile[2].

Trump is an end number 0-6, DOUBLES or FOLLOW_ME (no trump). The rules,
from RULINGS.md (Moon (dominoes)):
- a trump tile belongs only to the trump suit;
- otherwise a led tile's suit is its higher end (a double: its number);
- players must follow the led suit if able, otherwise play anything;
- the highest trump wins; if no trump, the highest tile of the led suit;
- in every suit the double is highest, then the rest by their other end;
  the doubles suit (DOUBLES trump) runs 6-6 down to 0-0.
"""

from shared_rules.ticks import const
from shared_rules.errors import RuleError
from shared_rules.util import Rng, field
from shared_rules.seeds import seed_of

DOUBLES = "doubles"
FOLLOW_ME = "follow-me"
TRUMP = 7  # the led-suit code for "trump was led"; plain suits are 0-6
SEATS = "012"  # the character of seat p in s["tiles"]
_DIGITS = const("0123456789")

# (tiles, spellings): the 22 tiles of the Moon set in canonical form, the
# double-six set without 0-1 ... 0-6 but keeping 0-0 (RULINGS.md overrides
# the text's "every piece except the double-zero"), and a dict from every
# accepted spelling ("5-6" and "6-5") to the tile's index. Built on first
# use, then shared: a dict lookup is what makes reading a tile cheap in a
# replay, and all_tiles() hands out a copy.
_TABLES = None


def _tables():
    global _TABLES
    if _TABLES is None:
        tiles = ["0-0"] + ["%d-%d" % (lo, hi) for hi in range(1, 7) for lo in range(1, hi + 1)]
        spell = {}
        for i in range(22):
            t = tiles[i]
            spell[t] = i
            spell[t[2] + "-" + t[0]] = i
        _TABLES = (tiles, spell)
    return _TABLES


def all_tiles():
    return list(_tables()[0])


def tile_index(v):
    """Index in all_tiles() of a tile given as "a-b" in either order;
    RuleError saying what is wrong with anything else."""
    i = _tables()[1].get(v) if type(v) is str else None
    if i is None:
        raise _tile_error(v)
    return i


def parse_tile(v):
    """Canonical "lo-hi" text of a tile given as "a-b" in either order."""
    return _tables()[0][tile_index(v)]


def _tile_error(v):
    # Only reached for text that is not a tile of the set, so the reason
    # is worked out here, off the replay's good path.
    if not (type(v) is str and len(v) == 3 and v[1] == "-" and v[0] in _DIGITS and v[2] in _DIGITS):
        return RuleError("%r is not a tile: write a tile as its two ends with a dash, like 2-6" % (v,))
    if int(v[0]) > 6 or int(v[2]) > 6:
        return RuleError("tile %s does not exist: the ends of a double-six set run from 0 to 6" % v)
    return RuleError("tile %s is not in the Moon set (0-1 to 0-6 are taken out; 0-0 stays)" % v)


def parse_trump(v):
    """A trump choice: a whole number 0-6, "doubles" or "follow-me"."""
    if v == DOUBLES or v == FOLLOW_ME or type(v) is int and 0 <= v <= 6:
        return v
    raise RuleError("trump must be a number 0-6, 'doubles' or 'follow-me', not %r" % (v,))


def suit_name(suit):
    return ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "trumps")[suit]


def is_trump(tile, trump):
    """True if the canonical tile belongs to the trump suit."""
    if trump == DOUBLES:
        return tile[0] == tile[2]
    return trump != FOLLOW_ME and str(trump) in tile


def led_suit(tile, trump):
    """The suit a tile sets when it is led: TRUMP, or its higher end."""
    return TRUMP if is_trump(tile, trump) else int(tile[2])


def follows(tile, suit, trump):
    """True if the tile belongs to the led suit; a trump tile belongs only
    to trump, whatever its other end."""
    if is_trump(tile, trump):
        return suit == TRUMP
    return suit != TRUMP and str(suit) in tile


def rank(tile, suit, trump):
    """Strength of a tile within a suit it belongs to. The double of a
    number suit ranks 7, above any other end; the rest rank by their other
    end. In the doubles suit a double ranks by its number."""
    lo = int(tile[0])
    hi = int(tile[2])
    if suit == TRUMP:
        if trump == DOUBLES:
            return lo
        suit = trump
    return 7 if lo == hi else lo + hi - suit


def trick_winner(plays, trump):
    """Index (into plays, in play order) of the tile that takes the trick:
    the highest trump, else the highest tile of the led suit.

    is_trump, follows and rank written out over the tiles' end characters:
    this runs once per trick of every replay, and the calls and the
    str(trump) each of them makes cost more than the comparisons. The
    property tests check it against those three functions."""
    dbl = trump == DOUBLES
    d = "" if dbl or trump == FOLLOW_ME else str(trump)
    win = 0
    best = -1
    suit = ""  # the led suit's end character; None when trump was led
    for k in range(len(plays)):
        t = plays[k]
        lo = t[0]
        hi = t[2]
        if (lo == hi) if dbl else (lo == d or hi == d):
            v = 16 + (int(lo) if dbl else 7 if lo == hi else int(lo) + int(hi) - int(d))
            if k == 0:
                suit = None
        else:
            if k == 0:
                suit = hi
            if suit is None or (lo != suit and hi != suit):
                continue
            v = 8 + (7 if lo == hi else int(lo) + int(hi) - int(suit))
        if v > best:
            best = v
            win = k
    return win


def legal_plays(hand, trick_so_far, trump):
    """The tiles of `hand` a player may play to the trick so far: any when
    leading, else those of the led suit if the hand has one, else any."""
    if not trick_so_far:
        return list(hand)
    suit = led_suit(trick_so_far[0], trump)
    return [t for t in hand if follows(t, suit, trump)] or list(hand)


# The table. A Moon state keeps where every tile is as one 22-character
# string, s["tiles"], char i for all_tiles()[i]: "0" "1" "2" held by that
# seat and "s" the spare (only once the deal is recorded), "p" played this
# hand, "." not known. One short string instead of hand lists keeps the
# state small (a Match holds several for undo) and, being immutable,
# lets a new state share it until a tile moves. With a recorded deal no
# tile is ".", without one only "." and "p" occur.
# Also used: s["trick"] (tiles so far), s["leader"], s["trump"], s["players"].
# The functions below that change a state are given a fresh top-level copy
# (moon_dominoes.apply) and replace the values they change, never change
# a list in place: the copy shares them with the state it came from.
UNKNOWN = "." * 22


def index(tile):
    """Position of a canonical tile in all_tiles()."""
    hi = int(tile[2])
    return hi * (hi - 1) // 2 + int(tile[0])


def hand(s, p):
    """The tiles seat p holds (a recorded deal), in canonical order."""
    c = SEATS[p]
    w = s["tiles"]
    tiles = _tables()[0]
    return [tiles[i] for i in range(22) if w[i] == c]


def known(s):
    return "s" in s["tiles"]


def _put(s, i, c):
    w = s["tiles"]
    s["tiles"] = w[:i] + c + w[i + 1:]


def deal(s, event):
    """Record the hand's tiles: shuffled from event["seed"] with the
    portable Rng (the same deal on the board and on the PC), or
    event["hands"]: 3 lists of 7 distinct tiles. The spare is the tile left
    over."""
    if "seed" in event:
        tiles = Rng(seed_of(event, "a deal's seed")).shuffle(all_tiles())
    else:
        hands = field(event, "hands")
        if type(hands) is not list or len(hands) != 3:
            raise RuleError("a deal needs 3 hands of 7 tiles, one per seat in seat order, not %r" % (hands,))
        for h in hands:
            if type(h) is not list or len(h) != 7:
                raise RuleError("a deal needs 3 hands of 7 tiles, one per seat in seat order; one hand is %r" % (h,))
        tiles = [parse_tile(t) for h in hands for t in h]
        for t in tiles:
            if tiles.count(t) > 1:
                raise RuleError("tile %s is dealt twice: the set has one of each tile" % t)
        tiles += [t for t in all_tiles() if t not in tiles]
        if "spare" in event and parse_tile(event["spare"]) != tiles[21]:
            raise RuleError("the spare must be %s, the one tile in no hand, not %s" % (tiles[21], event["spare"]))
    w = ["."] * 22
    for i in range(22):
        w[index(tiles[i])] = "012s"[i // 7]
    s["tiles"] = "".join(w)


def swap(s, p, event):
    """Seat p, the bidder, gives event["tile"] for the spare, once a hand.
    With no recorded deal the swap is only noted (a tile, if given, must
    exist)."""
    if s["swapped"]:
        raise RuleError("%s has already swapped a tile with the spare this hand; only one swap is allowed"
                        % s["players"][p])
    s["swapped"] = True
    if known(s) or "tile" in event:
        i = tile_index(field(event, "tile"))
        if known(s):
            if s["tiles"][i] != SEATS[p]:
                raise RuleError("%s does not hold %s, so cannot give it for the spare"
                                % (s["players"][p], _tables()[0][i]))
            _put(s, s["tiles"].index("s"), SEATS[p])
            _put(s, i, "s")


def play(s, p, i):
    """Seat p, whose turn it is, plays tile i (an index into all_tiles()):
    refused if already played this hand or, with a recorded deal, not held
    or not following suit. Returns the seat that takes the trick once it
    has 3 tiles, else None."""
    w = s["tiles"]
    where = w[i]
    tile = _tables()[0][i]
    if where == "p":
        raise RuleError("%s has already been played this hand" % tile)
    trick = s["trick"]
    if where != ".":  # a recorded deal: the tile must be p's, following suit
        if where != SEATS[p]:
            raise RuleError("%s does not hold %s" % (s["players"][p], tile))
        if trick:
            trump = s["trump"]
            suit = led_suit(trick[0], trump)
            if not follows(tile, suit, trump):
                ok = [t for t in hand(s, p) if follows(t, suit, trump)]
                if ok:
                    raise RuleError("%s must follow %s: play %s" % (s["players"][p], suit_name(suit), " or ".join(ok)))
    s["tiles"] = w[:i] + "p" + w[i + 1:]
    trick = trick + [tile]
    s["trick"] = trick
    if len(trick) == 3:
        return (s["leader"] + trick_winner(trick, s["trump"])) % 3
    return None


def playable(s, p):
    """What seat p may play next: the legal plays of a recorded hand, or,
    with no recorded deal, every tile not yet played this hand."""
    if known(s):
        return legal_plays(hand(s, p), s["trick"], s["trump"])
    w = s["tiles"]
    tiles = _tables()[0]
    return [tiles[i] for i in range(22) if w[i] != "p"]
