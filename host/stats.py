"""Figures about players drawn from stored games (db summaries): records
with the evidence behind a win rate (scores per variant), head-to-head
tallies, and openskill ratings per game. The report and `standings
--ratings` both use them.

Who placed where is the rules core's word, read here through one
function, `places()`: nothing in this module decides a placing."""

import math

# z for a 95% interval
Z95 = 1.959963984540054


def places(g):
    """Each seat's final place in a finished game (1 = first; equal places
    share a number): the rank the database stored, which the rules core
    worked out by the game's win rule when the game was verified
    (Match.placings, shared_rules/places.py)."""
    return list(g["ranks"])


def wilson(wins, plays, z=Z95):
    """(low, high) of the Wilson score interval for wins out of plays: a
    win rate's range given how few games back it. 3 of 3 gives (0.44,
    1.0), 8 of 20 gives (0.22, 0.61): ordering by the low end puts a long
    record above a short lucky one only when it has earned it."""
    if plays <= 0:
        return 0.0, 1.0
    p = wins / plays
    z2 = z * z
    centre = p + z2 / (2 * plays)
    spread = z * math.sqrt(p * (1 - p) / plays + z2 / (4 * plays * plays))
    denom = 1 + z2 / plays
    return max(0.0, (centre - spread) / denom), min(1.0, (centre + spread) / denom)


def _finished(summaries):
    return [g for g in summaries if g["finished"]]


def variant(g):
    """The key a game's record is kept under (a db summary's): scores are
    compared within one variant only, as Moonstar's Game 1 is played to
    200 and Game 8 to 50. It is the game's id for its basic game (every
    game but Moonstar has only that), else the title that lists it
    ("Moonstar (Game 8)", words.game_title), which display_name() shows
    as it is."""
    from shared_rules import display_name

    return g["game"] if g["game_name"] == display_name(g["game"]) else g["game_name"]


def variants(recs, game):
    """The keys of records()' "by_game" that are variants of `game` (an
    id): its basic game first, then by title. A page shows one table a
    variant, so no average mixes two."""
    return sorted((k for k, g in recs["game_of"].items() if g == game), key=lambda k: (k != game, k))


def records(summaries):
    """Per player over finished games: {"overall": rows, "by_game":
    {variant: rows}, "game_of": {variant: game id}}, a variant keyed by
    variant(). A row: player, player_id, plays, wins, win_rate, low, high
    (Wilson 95%), and per variant avg and best score. Rows are ordered by
    the interval's low end, then plays, then name."""
    overall, by_game, game_of = {}, {}, {}

    def row(table, pid, name):
        r = table.get(pid)
        if r is None:
            r = table[pid] = {"player": name, "player_id": pid, "plays": 0, "wins": 0, "total": 0, "best": None}
        return r

    for g in _finished(summaries):
        winners = set(g["winner_seats"])
        key = variant(g)
        game_of[key] = g["game"]
        table = by_game.setdefault(key, {})
        for seat, pid in enumerate(g["player_ids"]):
            name, score = g["players"][seat], g["scores"][seat]
            won = 1 if seat in winners else 0
            for r in (row(overall, pid, name), row(table, pid, name)):
                r["plays"] += 1
                r["wins"] += won
            r = table[pid]
            r["total"] += score
            r["best"] = score if r["best"] is None else max(r["best"], score)

    def finish(table, scores):
        out = []
        for r in table.values():
            r["win_rate"] = r["wins"] / r["plays"]
            r["low"], r["high"] = wilson(r["wins"], r["plays"])
            if scores:
                r["avg"] = r["total"] / r["plays"]
            else:
                del r["best"]
            del r["total"]
            out.append(r)
        out.sort(key=lambda r: (-r["low"], -r["plays"], r["player"].casefold()))
        return out

    return {"overall": finish(overall, False), "by_game": {k: finish(v, True) for k, v in by_game.items()},
            "game_of": game_of}


def head_to_head(summaries, game):
    """Who beat whom in one game: (players [(id, name)] by most plays,
    {(a, b): times a placed above b}). Only finished games count; seats of
    one partnership place together and never count against each other."""
    beat = {}
    plays = {}
    names = {}
    for g in _finished(summaries):
        if g["game"] != game:
            continue
        place = places(g)
        ids = g["player_ids"]
        for seat, pid in enumerate(ids):
            plays[pid] = plays.get(pid, 0) + 1
            names[pid] = g["players"][seat]
        for i, a in enumerate(ids):
            for j, b in enumerate(ids):
                if place[i] < place[j]:
                    beat[(a, b)] = beat.get((a, b), 0) + 1
    order = sorted(plays, key=lambda p: (-plays[p], names[p].casefold()))
    return [(p, names[p]) for p in order], beat


def teams_of(g):
    """The seats that play as one side: Shoot the Moon's partnerships,
    else every seat alone."""
    from moontable.bgstats import partnerships

    sides = partnerships(g["game"], g["options"], g["players"])
    return [seats for _, seats in sides] if sides else [[s] for s in range(len(g["players"]))]


def ratings(summaries, model=None):
    """openskill (Plackett-Luce) ratings per game from the finished games
    in the order played. Partners rate as one team. Returns {game: rows}
    with rows {player, player_id, mu, sigma, ordinal (mu - 3 sigma: what
    the player is surely at least), plays, history: [(game pk, ordinal)]}
    ordered by ordinal, highest first."""
    if model is None:
        from openskill.models import PlackettLuce
        model = PlackettLuce()
    out = {}
    for g in _finished(summaries):
        table = out.setdefault(g["game"], {})
        place = places(g)
        teams, team_places = [], []
        for seats in teams_of(g):
            team = []
            for s in seats:
                pid = g["player_ids"][s]
                if pid not in table:
                    table[pid] = {"player": g["players"][s], "player_id": pid, "rating": model.rating(),
                                  "plays": 0, "history": []}
                team.append(table[pid]["rating"])
            teams.append(team)
            team_places.append(min(place[s] for s in seats))
        if len(teams) < 2:
            continue
        new = model.rate(teams, ranks=team_places)
        for seats, rated in zip(teams_of(g), new):
            for s, r in zip(seats, rated):
                row = table[g["player_ids"][s]]
                row["rating"] = r
                row["plays"] += 1
                row["history"].append((g["id"], r.ordinal()))
    result = {}
    for game, table in out.items():
        rows = []
        for row in table.values():
            r = row.pop("rating")
            row.update(mu=r.mu, sigma=r.sigma, ordinal=r.ordinal())
            rows.append(row)
        rows.sort(key=lambda r: (-r["ordinal"], r["player"].casefold()))
        result[game] = rows
    return result
