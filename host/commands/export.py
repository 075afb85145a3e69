"""`moontable export --format csv|json|bgstats`: the stored games for other
tools.

- csv: one row per player per game (spreadsheet-friendly).
- json: one object per game, with the round-by-round scores.
- bgstats: BG Stats' push-play JSON, one play per finished game (a JSON
  array): sourceName, sourcePlayId, playDate, durationMin,
  game{name, bggId, highestWins}, players[{name, score, winner, startPlayer}].
  docs/pc-tools.md says where each BoardGameGeek id comes from.
"""

import csv
import json
import sys

from host import db as dbmod

HELP = "export games as csv, json or BG Stats play JSON (--format)"

SOURCE_NAME = "moontable"

# name shown to other apps, BoardGameGeek id (None where no BGG entry was
# found; see docs/pc-tools.md), and whether the highest score wins.
GAMES = {
    "moonstar": ("Moonstar", None, True),
    "shoot-the-moon": ("Shoot the Moon", None, True),
    "moon": ("Moon", None, True),
    "moons": ("Moons", None, True),
}

CSV_FIELDS = ["id", "device", "game_id", "game", "date", "duration_min", "finished", "rounds",
              "seat", "player", "score", "rank", "winner"]


def add_arguments(parser):
    parser.add_argument("--format", required=True, choices=["csv", "json", "bgstats"], help="output format")
    parser.add_argument("--game", help="only this game (moonstar, shoot-the-moon, moon, moons)")
    parser.add_argument("--player", help="only games this player took part in")
    parser.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    dbmod.add_db_argument(parser)


def bgstats_play(g):
    """One finished game -> one BG Stats play object."""
    name, bgg, highest = GAMES.get(g["game"], (g["game"], None, True))
    winners = set(g["winners"])
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": "%s/%s" % (g["device"], g["game_id"]),
        "playDate": g["date"],
        "durationMin": g["duration_min"] or 0,
        "game": {"name": name, "bggId": bgg, "highestWins": highest},
        "players": [
            # Seat 0 is the first seat in every game's log (docs/rules-core.md).
            {"name": p, "score": s, "winner": p in winners, "startPlayer": seat == 0}
            for seat, (p, s) in enumerate(zip(g["players"], g["scores"]))
        ],
    }


def write_csv(games, out):
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for g in games:
        winners = set(g["winners"])
        for seat, (p, s, r) in enumerate(zip(g["players"], g["scores"], g["ranks"])):
            w.writerow({"id": g["id"], "device": g["device"], "game_id": g["game_id"], "game": g["game"],
                        "date": g["date"], "duration_min": "" if g["duration_min"] is None else g["duration_min"],
                        "finished": int(g["finished"]), "rounds": g["rounds"], "seat": seat, "player": p,
                        "score": s, "rank": r, "winner": int(p in winners)})


def _body(args):
    dbmod.check_game_name(args.game)
    with dbmod.open_for(args) as db:
        games = db.games(game=args.game, player=args.player)
        if args.format == "json":
            full = []
            for g in games:
                d = db.game(g["id"])
                d.pop("journal")
                full.append(d)
            games = full
    if args.format == "bgstats":
        payload = json.dumps([bgstats_play(g) for g in games if g["finished"]], indent=1) + "\n"
    elif args.format == "json":
        payload = json.dumps(games, indent=1) + "\n"
    else:
        payload = None
    try:
        out = open(args.out, "w", newline="", encoding="utf-8") if args.out else sys.stdout
    except OSError as e:
        raise dbmod.DbError("cannot write %s: %s" % (args.out, e.strerror or e))
    try:
        if payload is None:
            write_csv(games, out)
        else:
            out.write(payload)
    finally:
        if args.out:
            out.close()
    return 0


def run(args):
    return dbmod.guarded("export", _body, args)
