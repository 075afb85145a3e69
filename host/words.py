"""How the PC's tools say counts and options to players: "1 round", not
"1 rounds"; a game's options in words, not as JSON. One place, so `show`,
`replay`, an import's message and the report say them alike."""

from moontable.bgstats import board_text, partnerships


def count(n, word, plural=None):
    """`n` and the word, singular for one: count(1, "round") is "1 round"."""
    return "%d %s" % (n, word if n == 1 else (plural or word + "s"))


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
