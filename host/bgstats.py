"""Plays for BG Stats (the phone app players keep their game records in).

BG Stats takes one play per link: https://app.bgstatsapp.com/createPlay.html
?data=<the URL-encoded JSON of ONE play>. `moontable export --format
bgstats` writes one such play object per line, `--links` prints the links,
and `moontable report` shows each link with a QR code (host/qr.py) so a
phone can scan it off the screen.

Field by field (docs/pc-tools.md has the same list for users):
- sourceName "moontable" and sourcePlayId "<device>/<game id>", so sending
  one game twice updates the play instead of adding a second one;
- playDate "YYYY-MM-DD HH:MM:SS", UTC as BG Stats wants it, when the game
  ended: the device counts the PC's local time as UTC, so the PC takes
  off the UTC offset it recorded when it set that boot's clock (the web
  page takes off the browser's);
  durationMin only when the length is known (never 0);
- game: name as on the box, sourceGameId (our id), highestWins, and
  bggId where BoardGameGeek has the game (Moon (dominoes) has no entry
  we could verify, so it gets no bggId at all rather than a guess);
- players: name, sourcePlayerId (the database's player number, which a
  rename keeps; the web page, which has no player database, gives its own
  ids from the names: "source_player_ids"), score, rank (by the game's
  win rule, Match.placings: ties and partners share one, the next team
  is second), winner and startPlayer (the first setter, dealer or first
  bidder) only where true, and team = the partnership's name;
- location: where it was played, a plain string as BG Stats' createPlay
  format has it, when known (the log's header, else config.toml's
  location on the PC);
- comments: why the date is approximate, when it is (APPROX_NOTES);
- board: the options a player would want to see (Moonstar's game number).

Keys at BG Stats' defaults (false) are left out, so a six-player link of
long names still fits a QR code.

The building part (play, to_json, link, journal_summary) also runs under
MicroPython: the web page ships this module with the firmware
(web/build.py) so a game finished in a browser gets its link from the same
builder as one synced to the PC.
"""

import json

from shared_rules import display_name
from shared_rules.places import seat_ranks

try:
    from urllib.parse import quote
except ImportError:  # MicroPython has no urllib.parse
    quote = None

SOURCE_NAME = "moontable"
# A play's comments when its date is a guess (the summary's "approx"), by
# why (its "approx_why": moontable.times.approx_why), so the comment never
# blames an unset clock for a game the clock dated in part.
APPROX_NOTES = {
    "unset": "Date approximate: nothing the board recorded dates this game (its clock was not set, or its times "
             "could not be used), so it is dated by when it reached the PC.",
    "part": "Date approximate: the board's clock dated only part of this game (a power-up whose clock nobody "
            "set, or a time it recorded that could not be used); the date is its last dated moment.",
    "long": "Date approximate: by the board's clock this game lasted more than a day, so the clock may have "
            "jumped.",
}
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
    """The options a player recognises, in words ("" when none apply).
    Partnerships are not repeated here: each player's "team" names them."""
    if game == "moonstar":
        number = options.get("game", 1) if isinstance(options, dict) else 1
        if isinstance(number, list):  # in order, so one combination has one name
            return "Games %s combined" % " + ".join(str(n) for n in sorted(number))
        return "Game %s" % number
    return ""


# Where a play is shorter without a key: BG Stats reads a player's missing
# "winner" and "startPlayer" as false and a game's missing "noPoints" as
# false, so those keys are left out at false; a link of six long names
# must still fit a QR code.


def play(g):
    """A stored game (a db summary) -> one BG Stats play object."""
    players = g["players"]
    teams = partnerships(g["game"], g["options"], players)
    team_of = {}
    for name, seats in teams:
        for s in seats:
            team_of[s] = name
    game = {"name": display_name(g["game"]), "sourceGameId": g["game"], "highestWins": True}
    if g["game"] in BGG_IDS:
        game["bggId"] = BGG_IDS[g["game"]]
    out = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": "%s/%s" % (g["device"], g["game_id"]),
    }
    # UTC where the offset is known (host/db.py's "ended_utc", recorded at
    # sync; journal_summary's from the browser's); else local time
    date = g.get("ended_utc") or g["ended"] or g["date"]
    if date:  # the PC always has one (approx. at worst); an undated journal has none
        out["playDate"] = date
    if g.get("duration_min"):
        out["durationMin"] = g["duration_min"]
    if g.get("location"):
        out["location"] = g["location"]
    if date and g.get("approx"):
        out["comments"] = APPROX_NOTES[g["approx_why"]]
    out["game"] = game
    entries = []
    winners = set(g.get("winner_seats", ()))
    source_ids = g.get("source_player_ids")
    for seat, name in enumerate(players):
        pid = source_ids[seat] if source_ids else "moontable-player-%d" % g["player_ids"][seat]
        p = {"name": name, "sourcePlayerId": pid, "score": g["scores"][seat], "rank": g["ranks"][seat]}
        if seat in winners:
            p["winner"] = True
        if seat == g.get("start_seat"):
            p["startPlayer"] = True
        if seat in team_of:
            p["team"] = team_of[seat]
        entries.append(p)
    out["players"] = entries
    board = board_text(g["game"], g["options"], players)
    if board:
        out["board"] = board
    return out


def to_json(p):
    """One play as compact JSON text (what a link carries and a line holds).
    MicroPython's json.dumps has no ensure_ascii (it writes non-ASCII as
    is anyway): there the rules core's compact dumps does the same."""
    try:
        return json.dumps(p, ensure_ascii=False, separators=(",", ":"))
    except TypeError:
        from shared_rules.wire import dumps
        return dumps(p)


# Bytes a URL component carries as they are (RFC 3986's unreserved set,
# what urllib.parse.quote(safe="") leaves alone).
_UNRESERVED = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"


def percent_encode(text):
    """text as one URL component, UTF-8 and %XX for every byte outside the
    unreserved set: urllib.parse.quote(text, safe="") where it exists."""
    if quote is not None:
        return quote(text, safe="")
    out = []
    for b in text.encode("utf-8"):
        out.append(chr(b) if b in _UNRESERVED else "%%%02X" % b)
    return "".join(out)


def link(p):
    """The createPlay link that opens BG Stats with this one play filled in."""
    return CREATE_PLAY + percent_encode(to_json(p))


# -- a finished game's summary from its journal alone (the web page) ----------
# The PC builds a summary from its database (host/db.py's _summary); the page
# has only the journal, so this replays it with the rules core and fills in
# the fields play() reads.

def first_seat(state):
    """The seat that set up, dealt or bid first: the rules core's
    "first_leader" when it keeps one, else Moonstar's setter, Shoot the
    Moon's dealer, Moon's first bidder, Moons' first player. The one
    place this is worked out: host/db.py uses it too, and this module
    also runs in the web page's MicroPython."""
    for key in ("first_leader", "setter", "dealer", "first"):
        if key in state:
            v = state[key]
            if isinstance(v, int) and not isinstance(v, bool):
                return v
            if key != "first_leader":
                return None
    return None


def date_text(epoch):
    """Epoch seconds (the device's local-as-UTC convention) ->
    "YYYY-MM-DD HH:MM:SS" (shared_rules.dates, as the device dates them)."""
    from shared_rules.dates import civil

    return "%04d-%02d-%02d %02d:%02d:%02d" % civil(epoch)


def source_player_id(prefix, name, play=None):
    """A player's BG Stats id from a name: ("moontable", "Ann") ->
    "moontable-ann", folded by the rules core (shared_rules.names.fold,
    for every letter and alike in both interpreters). The web page gives
    every player this id, and the PC gives it to a person it first stored
    under that name (host/db.py keeps it through renames), so one person
    is one BG Stats player from either. A seat label (P1, ...) is nobody
    in particular: it is a guest of its one play, "moontable-seat-<play>-P1"."""
    from shared_rules.names import fold, is_seat_label

    if is_seat_label(name):
        return "%s-seat-%s-%s" % (prefix, play, name.upper())
    return "%s-%s" % (prefix, fold(name))


def replay_journal(stream):
    """One game's journal (a binary stream: header, then events) replayed
    by the rules: {"match", "first", "times"}, or None for an empty one.
    LogError for a journal the rules reject. The first seat is tracked as
    host/db.py's _Verify does: whoever holds the job until round 1 is over
    (an undo may change it). The web page names its games from this too,
    finished or not (firmware/boards/web.py), so one replay serves both."""
    from shared_rules.log import Replay, iter_lines
    from shared_rules.wire_read import decode

    rep = Replay()
    first = None
    times = []
    for lineno, raw, last in iter_lines(stream):
        obj = decode(raw)
        if rep.match is None:
            rep.start(obj, lineno)
            first = first_seat(rep.match.state)
        else:
            rep.step(obj, lineno)
            state = rep.match.state
            if state["round"] == 0 or first is None:
                seat = first_seat(state)
                if seat is not None or state["round"] == 0:
                    first = seat
        times.append({"b": obj.get("b"), "ms": obj.get("ms"), "t": obj.get("t")})
    if rep.match is None:
        return None
    return {"match": rep.match, "first": first, "times": times}


def replayed_summary(done, device, player_prefix, game_id=None, utc_offset=None):
    """replay_journal()'s result -> the summary play() takes, or None if
    the game is not finished. Dated by the lines' "t" (epoch seconds,
    written while the device's clock is set); undated when no line has
    one. game_id stands in for a header with no "id". utc_offset (seconds
    east of UTC: the browser's, on the web page) turns the end into UTC
    for playDate, as the PC does with the offset it recorded at sync;
    without it playDate is local time."""
    if done is None:
        return None
    match = done["match"]
    won = match.winners()
    if not won:
        return None
    state = match.state
    header = match.header
    players = list(header["players"])
    scores = list(state["scores"])
    from moontable.times import approx_why, game_times

    when = game_times(done["times"])  # as an import of this journal on the PC dates it
    place = header.get("location")  # as host/db.py's header_location reads it
    place = place.strip() if isinstance(place, str) else None
    ended = None if when["end"] is None else date_text(when["end"])
    return {
        "device": device, "game_id": header.get("id") or game_id, "game": header["game"],
        "options": header.get("options") or {}, "players": players,
        "source_player_ids": [source_player_id(player_prefix, n, "%s/%s" % (device, header.get("id") or game_id))
                              for n in players],
        "scores": scores, "ranks": seat_ranks(match.placings(), len(players)),
        "winner_seats": won, "start_seat": done["first"],
        "ended": ended, "date": ended,
        "ended_utc": None if ended is None or utc_offset is None else date_text(when["end"] - utc_offset),
        "duration_min": when["minutes"],
        "approx": when["approx"],  # a date from a power-up nothing dated, or a doubtful clock
        "approx_why": approx_why(when["start"], when["end"]) if when["approx"] else None,
        "location": place or None,
    }


def journal_summary(stream, device, player_prefix, game_id=None, utc_offset=None):
    """One game's journal (a binary stream: header, then events) -> the
    summary play() takes, or None if the game is not finished. LogError
    for a journal the rules reject (replay_journal, replayed_summary)."""
    return replayed_summary(replay_journal(stream), device, player_prefix, game_id, utc_offset)
