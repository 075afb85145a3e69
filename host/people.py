"""The roster: the people behind the seats, added, renamed, merged and
linked to a game's seat (`moontable players`). A mixin of Database."""

import json

from moontable.clock import now_text
from moontable.dberror import DbError
from moontable.names import check_player_name, fits_device, is_label, not_a_label
from moontable.terminal import printable


class People:
    """Players and seats (Database's)."""

    def roster(self):
        """Names to push to the device: every player whose name it can show
        (at most 10 printable ASCII characters), most-played first."""
        rows = self.conn.execute(
            "SELECT p.name, COUNT(r.game) AS n FROM players p LEFT JOIN results r ON r.player = p.id "
            "GROUP BY p.id ORDER BY n DESC, p.name COLLATE NOCASE").fetchall()
        return [name for name, _ in rows if fits_device(name) and not is_label(name)]

    def players(self):
        """[{id, name, games, wins, aliases}] by name."""
        with self.read() as c:
            rows = c.execute(
                "SELECT p.id, p.name, COUNT(g.id), COALESCE(SUM(CASE WHEN g.id IS NOT NULL THEN r.winner END), 0) "
                "FROM players p LEFT JOIN results r ON r.player = p.id "
                "LEFT JOIN games g ON g.id = r.game AND g.finished = 1 "
                "GROUP BY p.id ORDER BY p.name COLLATE NOCASE").fetchall()
            aliases = {}
            for name, pid in c.execute("SELECT name, player FROM player_aliases ORDER BY name COLLATE NOCASE"):
                aliases.setdefault(pid, []).append(name)
        return [{"id": pid, "name": name, "games": games, "wins": wins, "aliases": aliases.get(pid, [])}
                for pid, name, games, wins in rows if not is_label(name)]

    def find_player(self, name, c=None):
        """Player id for a name or alias; DbError naming the known players."""
        c = c or self.conn
        row = c.execute("SELECT id FROM players WHERE fold(name)=fold(?)", (name,)).fetchone()
        if row is None:
            row = c.execute("SELECT player FROM player_aliases WHERE fold(name)=fold(?)", (name,)).fetchone()
        if row is None:
            known = [r[0] for r in c.execute("SELECT name FROM players ORDER BY name COLLATE NOCASE")]
            raise DbError("unknown player %r (known: %s)" % (name, ", ".join(known) or "none yet"))
        return row[0]

    def _name_free(self, c, name, allow_pid=None):
        """DbError unless `name` is nobody's name or former name but
        allow_pid's. Compared by the rules' fold, as a seat finds its
        person: "STRASSE" is taken once "Straße" is (SQLite's NOCASE
        folds A-Z only), or a later seat "strasse" would find one of two."""
        row = c.execute("SELECT id, name FROM players WHERE fold(name)=fold(?) AND id IS NOT ?",
                        (name, allow_pid)).fetchone()
        if row is not None:
            raise DbError("there is already a player called %s" % printable(row[1]))
        row = c.execute("SELECT a.name, p.name FROM player_aliases a JOIN players p ON p.id = a.player "
                        "WHERE fold(a.name)=fold(?) AND a.player IS NOT ?", (name, allow_pid)).fetchone()
        if row is not None:
            raise DbError("%s is a former name of %s (renamed or merged); pick another name"
                          % (printable(row[0]), printable(row[1])))

    def add_player(self, name):
        return self.add_players([name])[0]

    def add_players(self, names):
        """Add every name, in one transaction: one that is taken, or that
        folds like another of the list, adds none of them (DbError naming
        it). Returns their ids."""
        from shared_rules.names import fold

        for name in names:
            check_player_name(name)
        seen = {}
        for name in names:
            if fold(name) in seen:
                raise DbError("%s is given twice (as %s)" % (printable(seen[fold(name)]), printable(name)))
            seen[fold(name)] = name
        with self.write() as c:
            now = now_text()
            pids = []
            for name in names:
                self._name_free(c, name)
                pids.append(self._new_player(c, name, now))
            return pids

    def rename_player(self, old, new):
        """Rename; the old name stays as an alias, so games still on a
        device under the old name land on the same player."""
        from shared_rules.names import fold

        check_player_name(new)
        not_a_label(old, "rename")
        with self.write() as c:
            pid = self.find_player(old, c)
            current = c.execute("SELECT name FROM players WHERE id=?", (pid,)).fetchone()[0]
            self._name_free(c, new, allow_pid=pid)
            c.execute("DELETE FROM player_aliases WHERE fold(name)=fold(?)", (new,))
            c.execute("UPDATE players SET name=? WHERE id=?", (new, pid))
            if fold(current) != fold(new):
                c.execute("INSERT OR REPLACE INTO player_aliases(name, player) VALUES (?, ?)", (current, pid))
            return pid

    def merge_players(self, source, target):
        """Move every result of `source` to `target` and delete `source`
        (its names become aliases of target). DbError if the two ever sat
        at the same table: one person cannot hold two seats."""
        not_a_label(source, "merge")
        not_a_label(target, "merge")
        with self.write() as c:
            src = self.find_player(source, c)
            dst = self.find_player(target, c)
            if src == dst:
                raise DbError("%s and %s are already the same player" % (source, target))
            clash = c.execute("SELECT a.game FROM results a JOIN results b ON a.game = b.game "
                              "WHERE a.player=? AND b.player=? LIMIT 1", (src, dst)).fetchone()
            if clash is not None:
                raise DbError("cannot merge: %s and %s both played game %d" % (source, target, clash[0]))
            src_name = c.execute("SELECT name FROM players WHERE id=?", (src,)).fetchone()[0]
            moved = c.execute("UPDATE results SET player=? WHERE player=?", (dst, src)).rowcount
            c.execute("UPDATE player_aliases SET player=? WHERE player=?", (dst, src))
            c.execute("DELETE FROM players WHERE id=?", (src,))
            c.execute("INSERT OR REPLACE INTO player_aliases(name, player) VALUES (?, ?)", (src_name, dst))
            return moved

    def link_seat(self, game_ref, seat, name):
        """Say who sat at one seat of one game: its result moves to the
        person `name` (found by folded name or a former name, else added).
        `seat` is the seat's name in that game (P1, or the name the device
        or page had) or its number from 1. A seat label is never linked
        for every game at once: each game says who sat there. Returns
        (the seat's name, the person's name). DbError for a game, seat or
        name that does not fit, or a person already seated in that game."""
        if is_label(name):
            raise DbError("%s is a seat label, not a person: give the name of who sat there" % printable(name))
        with self.write() as c:
            pk = self.game_pk(game_ref)
            logged = json.loads(c.execute("SELECT header FROM games WHERE id=?", (pk,)).fetchone()[0])["players"]
            if str(seat).isdigit() and str(seat).isascii():
                k = int(seat) - 1
                if not 0 <= k < len(logged):
                    raise DbError("game %d has seats 1-%d, not %s" % (pk, len(logged), seat))
            else:
                from shared_rules.names import fold
                found = [i for i, n in enumerate(logged) if fold(n) == fold(str(seat))]
                if not found:
                    raise DbError("game %d has no seat %s (its seats: %s)"
                                  % (pk, printable(str(seat)), ", ".join(printable(n) for n in logged)))
                k = found[0]
            try:
                pid = self.find_player(name, c)
            except DbError:
                check_player_name(name)
                self._name_free(c, name)
                pid = self._new_player(c, name, now_text())
            person = c.execute("SELECT name FROM players WHERE id=?", (pid,)).fetchone()[0]
            other = c.execute("SELECT seat FROM results WHERE game=? AND player=? AND seat<>?", (pk, pid, k)).fetchone()
            if other is not None:
                raise DbError("%s already sat at seat %d (%s) of game %d; one person holds one seat"
                              % (printable(person), other[0] + 1, printable(logged[other[0]]), pk))
            c.execute("UPDATE results SET player=? WHERE game=? AND seat=?", (pid, pk, k))
            return logged[k], person
