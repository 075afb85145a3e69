"""How the PC's tools say counts, games and options to players: "1 round",
not "1 rounds"; a game by its name and variant; whether it is over; its
options in words, not as JSON. One place, so `games`, `show`, `replay`,
the exports, an import's message and the report say them alike."""

from moontable.bgstats import board_text, partnerships
from shared_rules import display_name

# What a listing says of a game that is not over: still being played, or
# closed on the device before its end (the database cannot tell the two
# apart, and neither counts in the standings).
NOT_FINISHED = "(not finished)"


def count(n, word, plural=None):
    """`n` and the word, singular for one: count(1, "round") is "1 round"."""
    return "%d %s" % (n, word if n == 1 else (plural or word + "s"))


def game_title(game, options):
    """A game as every listing names it: the box's name, with Moonstar's
    variant unless it is the basic game ("Moonstar (Game 8)", "Moonstar
    (Games 2 + 3 combined)"; Game 1 is plain "Moonstar"). The variants
    are different games to a player (Game 1 is played to 200, Game 8 to
    50), so a listing that called them all "Moonstar" mixed them up. The
    variant's words are BG Stats' board field (bgstats.board_text), so a
    play and its listing name it alike."""
    board = board_text(game, options, ())
    if not board or board == board_text(game, {}, ()):
        return display_name(game)
    return "%s (%s)" % (display_name(game), board)


def outcome(g):
    """Who won a listed game (a db summary), or NOT_FINISHED: the words
    `games` shows, and the report's play log."""
    from moontable.terminal import printable

    return ", ".join(printable(w) for w in g["winners"]) if g["finished"] else NOT_FINISHED


def _seat(players, seat):
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        return players[seat]
    return str(seat)


def _listed(values):
    return ", ".join(str(v) for v in values)


def options_text(game, options, players):
    """A game's options as a player reads them, "" when it has none:
    "Game 5; planets worth 5, 8, 3; 90 s to bid; from paper: Ann 20, Bob
    35". A key no rule knows (a journal from a newer device) is shown as
    it is, never dropped."""
    from moontable.terminal import printable

    if not isinstance(options, dict) or not options:
        return ""
    parts = []
    rest = dict(options)
    unit = {"shoot-the-moon": "chips", "moonstar": "points", "moon": "points", "moons": "points"}.get(game, "points")
    if game == "moonstar":
        parts.append(board_text(game, options, players))
        rest.pop("game", None)
        for key in ("moons", "dice"):
            if key in rest:
                parts.append("%s %s" % (rest.pop(key), key))
        if "planets" in rest:
            parts.append("planets worth %s" % _listed(rest.pop("planets")))
        if "bid_seconds" in rest:
            parts.append("%s s to bid" % rest.pop("bid_seconds"))
        if "play_seconds" in rest:
            parts.append("%s s to play" % rest.pop("play_seconds"))
    if game == "shoot-the-moon" and "teams" in rest:
        teams = partnerships(game, options, players)
        rest.pop("teams")
        if teams:
            parts.append("partners " + " vs ".join(name for name, _ in teams))
    if "target" in rest:
        parts.append("to %s %s" % (rest.pop("target"), unit))
    for key, role in (("dealer", "first dealer"), ("first_bidder", "first bidder"), ("first", "first player")):
        if key in rest:
            parts.append("%s %s" % (role, _seat(players, rest.pop(key))))
    if game == "moons" and "scoring" in rest:
        parts.append("groups of 1-4 planets score %s" % _listed(rest.pop("scoring")))
    if "start" in rest:
        start = rest.pop("start")
        teams = partnerships(game, options, players)
        names = [name for name, _ in teams] if teams else players
        if isinstance(start, list) and len(start) == len(names):
            parts.append("from paper: " + ", ".join("%s %s" % (n, s) for n, s in zip(names, start)))
        else:
            parts.append("from paper: %s" % (start,))
    for key in sorted(rest):
        parts.append("%s %s" % (key, rest[key]))
    return printable("; ".join(p for p in parts if p))
