"""Plays for BG Stats (the phone app players keep their game records in).

BG Stats takes one play per link: https://app.bgstatsapp.com/createPlay.html
?data=<the URL-encoded JSON of ONE play>. `moontable export --format
bgstats` writes one such play object per line, `--links` prints the links,
and `moontable report` shows each link with a QR code so a phone can scan
it off the screen.

Field by field (docs/pc-tools.md has the same list for users):
- sourceName "moontable" and sourcePlayId "<device>/<game id>", so sending
  one game twice updates the play instead of adding a second one;
- playDate "YYYY-MM-DD HH:MM:SS", local time, when the game ended;
  durationMin only when the length is known (never 0);
- game: name as on the box, sourceGameId (our id), highestWins, noPoints,
  and bggId where BoardGameGeek has the game (Moon (dominoes) has no entry
  we could verify, so it gets no bggId at all rather than a guess);
- players: name, sourcePlayerId (the database's player number, which a
  rename keeps), score, rank (ties share), winner, startPlayer (the first
  setter, dealer or first bidder), and role = the partnership's name;
- board: the options a player would want to see (Moonstar's game number,
  the partnership layout).
"""

import json
from urllib.parse import quote

from shared_rules import display_name

SOURCE_NAME = "moontable"
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="

# BoardGameGeek ids of the three games BGG lists as these boxes. Moon
# (dominoes) is deliberately absent: no id at all beats a wrong one.
BGG_IDS = {"moonstar": 1714, "shoot-the-moon": 21435, "moons": 169743}


def partnerships(game, options, players):
    """[(name, [seats])] of a game played in partnerships, else []. Shoot
    the Moon's "teams": k puts seat s on side s % k."""
    teams = options.get("teams") if isinstance(options, dict) else None
    if game != "shoot-the-moon" or isinstance(teams, bool) or not isinstance(teams, int) or teams < 2:
        return []
    out = []
    for side in range(teams):
        seats = [s for s in range(len(players)) if s % teams == side]
        out.append((" & ".join(players[s] for s in seats), seats))
    return out


def board_text(game, options, players):
    """The options a player recognises, in words ("" when none apply)."""
    parts = []
    if game == "moonstar":
        number = options.get("game", 1) if isinstance(options, dict) else 1
        if isinstance(number, list):
            parts.append("Games %s combined" % " + ".join(str(n) for n in number))
        else:
            parts.append("Game %s" % number)
    teams = partnerships(game, options, players)
    if teams:
        parts.append("partnerships: " + " vs ".join(name for name, _ in teams))
    return "; ".join(parts)


def play(g):
    """A stored game (a db summary) -> one BG Stats play object."""
    players = g["players"]
    teams = partnerships(g["game"], g["options"], players)
    role = {}
    for name, seats in teams:
        for s in seats:
            role[s] = name
    game = {"name": display_name(g["game"]), "sourceGameId": g["game"], "highestWins": True, "noPoints": False}
    if g["game"] in BGG_IDS:
        game["bggId"] = BGG_IDS[g["game"]]
    out = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": "%s/%s" % (g["device"], g["game_id"]),
        "playDate": g["ended"] or g["date"],
    }
    if g.get("duration_min"):
        out["durationMin"] = g["duration_min"]
    out["game"] = game
    entries = []
    winners = set(g.get("winner_seats", ()))
    for seat, name in enumerate(players):
        p = {"name": name, "sourcePlayerId": "moontable-player-%d" % g["player_ids"][seat],
             "score": g["scores"][seat], "rank": g["ranks"][seat], "winner": seat in winners,
             "startPlayer": seat == g.get("start_seat")}
        if seat in role:
            p["role"] = role[seat]
        entries.append(p)
    out["players"] = entries
    board = board_text(g["game"], g["options"], players)
    if board:
        out["board"] = board
    return out


def to_json(p):
    """One play as compact JSON text (what a link carries and a line holds)."""
    return json.dumps(p, ensure_ascii=False, separators=(",", ":"))


def link(p):
    """The createPlay link that opens BG Stats with this one play filled in."""
    return CREATE_PLAY + quote(to_json(p), safe="")


def qr_svg(url):
    """An inline <svg> QR code of a link (segno; dark on light, with the
    quiet zone a phone camera needs)."""
    import segno
    return segno.make(url, error="l").svg_inline(scale=3, border=4)
