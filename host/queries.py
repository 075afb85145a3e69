"""What the commands read: games listed and shown, standings, the games
set aside. A mixin of Database."""

import json

from moontable import times as timesmod
from moontable.clock import format_time, parse_now_text
from moontable.dberror import DbError
from moontable.journals import header_location, seat_source_id, start_scores
from moontable.names import is_label
from moontable.terminal import printable
from moontable.words import game_title
from shared_rules import ranks


class Queries:
    """Reading games and standings (Database's)."""

    def game_pk(self, ref):
        """Resolve a GAME argument: the number `moontable games` lists, or
        DEVICE/GAME_ID. DbError for an unknown game."""
        ref = str(ref).strip()
        if ref and all("0" <= ch <= "9" for ch in ref):  # ASCII digits only ("²".isdigit() is True)
            number = int(ref)
            row = None
            if number < 1 << 63:  # SQLite's integers are 64-bit
                row = self.conn.execute("SELECT id FROM games WHERE id=?", (number,)).fetchone()
        elif "/" in ref:
            dev, gid = ref.split("/", 1)
            row = self.conn.execute("SELECT id FROM games WHERE device_id=? AND game_id=?", (dev, gid)).fetchone()
        else:
            raise DbError("game %s: give the number from `moontable games`, or DEVICE/GAME_ID" % ascii(ref))
        if row is None:
            n = self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            raise DbError("no game %s in the database (it holds %d game%s; see `moontable games`)"
                          % (printable(ref), n, "" if n == 1 else "s"))
        return row[0]

    def games(self, game=None, player=None):
        """Summaries of stored games, oldest first: see _summary()."""
        sql = "SELECT id FROM games"
        where, params = [], []
        if game:
            where.append("game=?")
            params.append(game)
        with self.read() as c:
            if player:
                pid = self.find_player(player, c)
                where.append("id IN (SELECT game FROM results WHERE player=?)")
                params.append(pid)
            if where:
                sql += " WHERE " + " AND ".join(where)
            sql += " ORDER BY COALESCE(started, ended, 0), id"
            ids = [r[0] for r in c.execute(sql, params)]
            return [self._summary(c, pk) for pk in ids]

    def _summary(self, c, pk):
        row = c.execute("SELECT id, device_id, game_id, game, header, events, rounds, finished, started, ended, stored, "
                        "duration, approx, start_seat, utc_offset FROM games WHERE id=?", (pk,)).fetchone()
        header = json.loads(row[4])
        res = c.execute("SELECT r.seat, p.name, r.score, r.rank, r.winner, p.id, p.source_id FROM results r "
                        "JOIN players p ON p.id = r.player WHERE r.game=? ORDER BY r.seat", (pk,)).fetchall()
        started, ended, seconds, approx = row[8], row[9], row[11], bool(row[12])
        when = format_time(ended) or format_time(started) or row[10]
        return {
            "id": row[0], "device": row[1], "game_id": row[2], "game": row[3],
            "game_name": game_title(row[3], header.get("options") or {}),
            "options": header.get("options") or {},
            "players": [r[1] for r in res],
            "player_ids": [r[5] for r in res],
            # BG Stats ids: the person's (kept through renames), or a seat
            # label's own for this one play (host/bgstats.source_player_id)
            "source_player_ids": [seat_source_id(r, row[1], row[2]) for r in res],
            "logged_players": list(header["players"]),
            "scores": [r[2] for r in res],
            "ranks": [r[3] for r in res],
            "winners": [r[1] for r in res if r[4]],
            "winner_seats": [r[0] for r in res if r[4]],
            "start_seat": row[13],
            "finished": bool(row[7]),
            "events": row[5], "rounds": row[6],
            "started": format_time(started), "ended": format_time(ended),
            # UTC (BG Stats' playDate): the device's local-as-UTC time less
            # the PC's UTC offset recorded when it set that boot's clock
            "ended_utc": format_time(None if ended is None or row[14] is None else ended - row[14]),
            "utc_offset": row[14],
            "duration_min": timesmod.duration_minutes(seconds),
            "approx": approx,
            # why (moontable.times.approx_why), from what the dates came to:
            # the game's own end, or the time it was stored (the fallback)
            "approx_why": timesmod.approx_why(started, ended, parse_now_text(row[10])) if approx else None,
            "stored": row[10],
            # When the game ended; "approx." when the board's clock dated it
            # only in part, or not at all (then it is when it was stored).
            "date": ("approx. " + when) if approx else when,
            # where it was played, when its log says ("location" in the
            # header); the commands put config.toml's location in its stead
            "location": header_location(header),
        }

    def game(self, pk):
        """A game's summary plus its round-by-round scores."""
        with self.read() as c:
            s = self._summary(c, pk)
            rounds = []
            for rnd, seat, score in c.execute("SELECT round, seat, score FROM rounds WHERE game=? ORDER BY round, seat",
                                              (pk,)):
                while len(rounds) < rnd:
                    rounds.append([])
                rounds[rnd - 1].append(score)
            s["round_scores"] = rounds
            s["journal"] = bytes(c.execute("SELECT journal FROM games WHERE id=?", (pk,)).fetchone()[0])
        try:
            s["start_scores"] = start_scores(s["journal"])
        except Exception:  # noqa: BLE001 - a damaged stored journal: the game shows without them
            s["start_scores"] = None
        return s

    def quarantined(self):
        rows = self.conn.execute("SELECT id, device_id, game_id, received, line, reason, excerpt, length(journal) "
                                 "FROM quarantine ORDER BY id").fetchall()
        return [{"id": r[0], "device": r[1], "game_id": r[2], "received": r[3], "line": r[4], "reason": r[5],
                 "excerpt": r[6], "bytes": r[7]} for r in rows]

    def standings(self, game=None):
        """Per player over finished games: games, wins, win rate; overall
        (game=None) or for one game name."""
        sql = ("SELECT p.name, COUNT(*), SUM(r.winner), g.game FROM results r "
               "JOIN games g ON g.id = r.game JOIN players p ON p.id = r.player WHERE g.finished = 1 ")
        params = []
        if game:
            sql += "AND g.game = ? "
            params.append(game)
        sql += "GROUP BY p.id"
        rows = self.conn.execute(sql, params).fetchall()
        out = [{"player": name, "games": n, "wins": w, "win_rate": round(w / n, 4) if n else 0.0}
               for name, n, w, _ in rows if not is_label(name)]  # a seat label is nobody's record
        out.sort(key=lambda r: (-r["win_rate"], -r["wins"], r["player"].lower()))
        # Ties (same win rate and wins) share a rank.
        for r, rank in zip(out, ranks([[r["player"], (r["win_rate"], r["wins"])] for r in out])):
            r["rank"] = rank
        return out

    def game_names(self):
        return [r[0] for r in self.conn.execute("SELECT DISTINCT game FROM games ORDER BY game")]
