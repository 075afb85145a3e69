"""`moontable export --format csv|json|bgstats`: the stored games for other
tools.

- csv: one row per player per game (spreadsheet-friendly), with where
  it was played.
- json: one object per game, with the round-by-round scores.
- bgstats: one BG Stats play per finished game, one JSON object a line
  (JSON Lines; host/bgstats.py says what each field holds). With --links,
  one "createPlay" link per play instead, one a line: opening a link on the
  phone adds that play to BG Stats.

Games are named as on the box. --out writes a temporary file beside FILE
and renames it over FILE only once it is complete, so a full disk or a
cut never leaves a half export in place of the previous one (host/outfile.py
says what else it writes into or refuses).
"""

import csv
import io
import json
import sys

from moontable import bgstats, config
from moontable import db as dbmod
from moontable.names import check_game_name
from moontable.outfile import write_atomically

HELP = "export games as csv, json or BG Stats plays (--format; --links: BG Stats links)"

CSV_FIELDS = ["id", "device", "game_id", "game", "game_name", "date", "duration_min", "finished", "rounds",
              "seat", "player", "score", "rank", "winner", "location"]


def add_arguments(parser):
    parser.add_argument("--format", required=True, choices=["csv", "json", "bgstats"], help="output format")
    parser.add_argument("--links", action="store_true",
                        help="with --format bgstats: one BG Stats createPlay link per game instead of the JSON")
    parser.add_argument("--game", help="only this game (moonstar, shoot-the-moon, moon, moons, or the box's name)")
    parser.add_argument("--player", help="only games this player took part in")
    parser.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    parser.add_argument("--location", metavar="PLACE", type=config.location_option,
                        help="where the games were played, for a game whose log names no place "
                             "(default: config.toml's location)")
    dbmod.add_db_argument(parser)


def write_csv(games, out):
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for g in games:
        winners = set(g["winner_seats"])
        for seat, (p, s, r) in enumerate(zip(g["players"], g["scores"], g["ranks"])):
            w.writerow({"id": g["id"], "device": g["device"], "game_id": g["game_id"], "game": g["game"],
                        "game_name": g["game_name"], "date": g["date"],
                        "duration_min": "" if g["duration_min"] is None else g["duration_min"],
                        "finished": int(g["finished"]), "rounds": g["rounds"], "seat": seat, "player": p,
                        "score": s, "rank": r, "winner": int(seat in winners), "location": g["location"] or ""})


def render(db, games, fmt, links=False, location=None):
    """The export as text. `location`: where a game whose log names no
    place was played (config.toml's location, --location)."""
    for g in games:
        g["location"] = g["location"] or location
    if fmt == "bgstats":
        plays = [bgstats.play(g) for g in games if g["finished"]]
        if links:
            return "".join(bgstats.link(p) + "\n" for p in plays)
        return "".join(bgstats.to_json(p) + "\n" for p in plays)
    if fmt == "json":
        full = []
        for g in games:
            d = db.game(g["id"])
            d.pop("journal")
            d["location"] = g["location"]
            full.append(d)
        return json.dumps(full, indent=1) + "\n"
    buf = io.StringIO()
    write_csv(games, buf)
    return buf.getvalue()


def _body(args):
    args.game = check_game_name(args.game)
    if args.links and args.format != "bgstats":
        raise dbmod.DbError("--links goes with --format bgstats")
    with dbmod.open_for(args, readonly=True) as db:
        games = db.games(game=args.game, player=args.player)
        text = render(db, games, args.format, args.links, args.location)
    if args.out:
        write_atomically(args.out, text)
    else:
        sys.stdout.write(text)
    return 0


def run(args):
    return dbmod.guarded("export", _body, args)
