"""Games into the database: a journal staged by offset as a sync brings
it (`stage_chunk`, so a cut sync resumes from `staged_size`), then
verified by a full replay and stored in one transaction (`commit_game`,
`import_log`). A journal the rules refuse goes to quarantine with its
line and rule, and nothing else changes. A mixin of Database (db.py)."""

import hashlib
import io
import json

from moontable import times as timesmod
from moontable.clock import now_text, parse_now_text, pc_utc_offset
from moontable.dberror import DbError
from moontable.journals import MAX_LOG, Verify, canonical_lines, decoded, digest, header_id, index_game, \
    insert_rounds, placed, prefix_digests, source_id_for
from moontable.names import is_label, is_text, same_names
from moontable.terminal import printable
from moontable.words import count
from shared_rules import display_name
from shared_rules.errors import LogError
from shared_rules.wire_read import decode as _decode


class Store:
    """Staging, verifying and storing games (Database's)."""

    def _stored_journal(self, c, device_id, game_id):
        row = c.execute("SELECT id, journal FROM games WHERE device_id=? AND game_id=?",
                        (device_id, game_id)).fetchone()
        return row

    def _held_bytes(self, c, device_id, game_id):
        """Bytes of the game's journal held: stored plus staged after it."""
        row = c.execute("SELECT length(journal) FROM games WHERE device_id=? AND game_id=?",
                        (device_id, game_id)).fetchone()
        base = row[0] if row else 0
        staged = c.execute("SELECT COALESCE(SUM(length(data)), 0) FROM staging WHERE device_id=? AND game_id=?",
                           (device_id, game_id)).fetchone()[0]
        return base + staged

    def staged_size(self, device_id, game_id):
        """Bytes of this game's journal the database already holds: the
        stored journal (if any) plus what is staged after it. A sync reads
        the device's journal from this offset, so a game that grew since the
        last sync only sends its new tail, and a cut sync resumes."""
        device_id, game_id = str(device_id), str(game_id)
        with self.read() as c:
            return self._held_bytes(c, device_id, game_id)

    def stage_chunk(self, device_id, game_id, offset, data):
        """Append raw journal bytes at `offset`, which must equal
        staged_size() (ValueError otherwise: a gap or an overlap would
        corrupt the journal). Committed at once, so it survives a crash."""
        device_id, game_id = str(device_id), str(game_id)
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise ValueError("journal data must be bytes, not %s" % type(data).__name__)
        data = bytes(data)
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise ValueError("offset must be a non-negative integer, not %r" % (offset,))
        with self.write() as c:
            have = self._held_bytes(c, device_id, game_id)
            if offset != have:
                raise ValueError("chunk for %s/%s starts at byte %d, but the database holds %d bytes of it"
                                 % (device_id, game_id, offset, have))
            if data:
                c.execute("INSERT INTO staging(device_id, game_id, offset, data) VALUES (?, ?, ?, ?)",
                          (device_id, game_id, offset, data))

    def discard_staged(self, device_id, game_id):
        """Forget staged bytes (the device's journal changed under us)."""
        with self.write() as c:
            c.execute("DELETE FROM staging WHERE device_id=? AND game_id=?", (str(device_id), str(game_id)))

    def is_stored(self, device_id, game_id):
        row = self.conn.execute("SELECT 1 FROM games WHERE device_id=? AND game_id=?",
                                (str(device_id), str(game_id))).fetchone()
        return row is not None

    def _set_times(self, c, pk, device_id, journal, fallback, lines=None):
        if lines is None:
            lines = decoded(journal)
        t = timesmod.game_times(lines, self.device_clocks(device_id, c), fallback)
        c.execute("UPDATE games SET started=?, ended=?, duration=?, approx=?, utc_offset=? WHERE id=?",
                  (t["start"], t["end"], t["seconds"], 1 if t["approx"] else 0,
                   self._game_offset(c, device_id, lines), pk))

    def _game_offset(self, c, device_id, lines):
        """The UTC offset that dates a game: the one recorded with the boot
        of its last line that names a boot, else the device's latest, else
        this PC's now (the fallback date is this PC's local time too)."""
        boots = [x.get("b") for x in lines if isinstance(x, dict) and type(x.get("b")) is int]
        for boot in reversed(boots):
            row = c.execute("SELECT utc_offset FROM device_clocks WHERE device_id=? AND boot=? "
                            "AND utc_offset IS NOT NULL", (device_id, boot)).fetchone()
            if row is not None:
                return row[0]
        row = c.execute("SELECT utc_offset FROM device_clocks WHERE device_id=? AND utc_offset IS NOT NULL "
                        "ORDER BY boot DESC LIMIT 1", (device_id,)).fetchone()
        return row[0] if row is not None else pc_utc_offset()

    def commit_game(self, device_id, game_id):
        """Verify the staged journal by replaying it with shared_rules and
        store it, all in one transaction.

        Returns (status, message): "stored" (new, or a longer journal of a
        game already stored), "unchanged" (nothing new, or the same game
        already stored under another name), "partial" (a line the rules
        refuse: the lines before it stored as the game, the journal
        quarantined naming that line), or "quarantined" (replay
        failed, or an older shorter copy of a stored game: the report says
        which; staging is cleared and nothing else changes). ValueError if
        there is nothing to commit."""
        device_id, game_id = str(device_id), str(game_id)
        with self.write() as c:
            row = self._stored_journal(c, device_id, game_id)
            chunks = c.execute("SELECT offset, data FROM staging WHERE device_id=? AND game_id=? ORDER BY offset",
                               (device_id, game_id)).fetchall()
            tail = b"".join(bytes(d) for _, d in chunks)
            if row is not None and not tail:
                return "unchanged", "%s/%s is already stored" % (device_id, game_id)
            if row is None and not tail:
                raise ValueError("nothing staged for %s/%s" % (device_id, game_id))
            journal = (bytes(row[1]) if row else b"") + tail
            c.execute("DELETE FROM staging WHERE device_id=? AND game_id=?", (device_id, game_id))
            return self._verify_and_store(c, device_id, game_id, journal, row)

    def _verify_and_store(self, c, device_id, game_id, journal, row):
        """Replay, then store as new, as a longer version of a stored game,
        or not at all (the same game stored already, or an older copy)."""
        digest = hashlib.sha256(journal).hexdigest()
        try:
            rep = Verify().feed(io.BytesIO(journal))
        except LogError as e:
            kept = self._keep_prefix(c, device_id, game_id, journal, digest, e, row)
            if kept is not None:
                return kept
            return self._quarantine(c, device_id, game_id, journal, digest, e)
        except RecursionError:
            return self._quarantine(c, device_id, game_id, journal, digest,
                                    LogError(0, "a line nests JSON too deeply to be a game record"))
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as e:
            # The rules core should name every bad input itself; if one
            # slips through, the log is still refused, never half stored.
            return self._quarantine(c, device_id, game_id, journal, digest,
                                    LogError(0, "the log cannot be read as a game (%s: %s)" % (type(e).__name__, e)))
        names = rep.match.header["players"]
        broken = [n for n in names if not is_text(n)]
        if broken:  # the rules core refuses these too; SQLite could not store them
            return self._quarantine(c, device_id, game_id, journal, digest, LogError(
                1, "the player name %s is not valid text (half a character left by a broken encoding)"
                % printable(broken[0])))
        clash = same_names(names)
        if clash:
            return self._quarantine(c, device_id, game_id, journal, digest, LogError(
                1, "the players %s are the same name written differently; each seat needs its own player"
                % " and ".join('"%s"' % printable(n) for n in clash)))
        canon = canonical_lines(journal)
        prefixes = prefix_digests(canon)
        ident, head = prefixes[-1], prefixes[0]
        target = row[0] if row is not None else None
        for pk, dev, gid, stored_journal in self._related(c, row, device_id, game_id, prefixes):
            stored = canonical_lines(stored_journal)
            if stored == canon:
                if pk == target:
                    return "unchanged", "%s/%s is already stored" % (device_id, game_id)
                return "unchanged", "%s/%s is game %d (%s/%s), already stored" % (device_id, game_id, pk, dev, gid)
            if len(canon) < len(stored) and stored[:len(canon)] == canon:
                return self._quarantine(c, device_id, game_id, journal, digest, LogError(
                    0, "an older, shorter copy of game %d (%s/%s), already stored with %d more line%s; "
                       "the longer game is kept" % (pk, dev, gid, len(stored) - len(canon),
                                                    "" if len(stored) - len(canon) == 1 else "s")), older=True)
            if len(canon) > len(stored) and canon[:len(stored)] == stored:
                target = pk  # the same game, continued: update it in place
                break
            if pk == target:
                return self._quarantine(c, device_id, game_id, journal, digest, LogError(
                    0, "this log differs from game %d (%s/%s) already stored (it is not the same game continued)"
                    % (pk, dev, gid)))
        else:
            if row is None:
                target = None
        took = self._supersede(c, device_id, game_id, rep.match.header, canon) if target is None else None
        game_pk, notes = self._store(c, device_id, game_id, journal, digest, rep, target, ident, head, prefixes)
        wrong = timesmod.doubts(decoded(journal))
        if wrong:  # the times are ignored, never the game: it is dated approximately
            notes.append("its dates are approximate: %s%s" % ("; ".join(wrong[:3]),
                                                             " (and %d more)" % (len(wrong) - 3) if len(wrong) > 3 else ""))
        if took:
            notes.append(took)
        words = "updated" if target else "stored"
        w = rep.match.winners()
        return "stored", "%s game %d (%s/%s): %s, %s, %s%s%s" % (
            words, game_pk, device_id, game_id, display_name(rep.match.header["game"]), count(rep.events, "event"),
            count(len(rep.rounds), "round"), (", winner%s %s" % ("s" if len(w) > 1 else "", " & ".join(printable(names[i]) for i in w)))
            if w else ", not finished",
            "".join("; " + n for n in notes))

    def _related(self, c, row, device_id, game_id, prefixes):
        """The stored games this journal may repeat, continue or be an
        older copy of, as (pk, device, game id, journal), lazily: the game
        stored under the same name first, then games whose whole hash is
        the hash of one of this journal's beginnings (it continues them),
        then games that share its first k records, k the largest power of
        two up to its length (it may be their beginning). Found by index,
        so an import costs the same with ten or ten thousand stored games
        that share its header; the caller compares the records."""
        seen = set()
        if row is not None:
            seen.add(row[0])
            yield row[0], device_id, game_id, bytes(row[1])
        n = len(prefixes)
        ids = set()
        for i in range(0, n, 500):
            part = prefixes[i:i + 500]
            ids.update(r[0] for r in c.execute(
                "SELECT id FROM games WHERE identity IN (%s)" % ",".join("?" * len(part)), part))
        k = 1 << (n.bit_length() - 1)
        ids.update(r[0] for r in c.execute("SELECT game FROM game_prefixes WHERE digest=? AND lines=?",
                                           (bytes.fromhex(prefixes[k - 1])[:16], k)))
        for pk in sorted(ids - seen):
            got = c.execute("SELECT id, device_id, game_id, journal FROM games WHERE id=?", (pk,)).fetchone()
            if got is not None:
                yield got[0], got[1], got[2], bytes(got[3])

    def _keep_prefix(self, c, device_id, game_id, journal, digest, err, row):
        """A sound line (CRC and JSON whole) that the rules refuse, after
        the header: the lines before it are the game as far as it can be
        trusted, so they are stored (or kept, when stored already), and
        the whole journal goes to quarantine naming the refused line. Why:
        a device that skipped such an event at resume kept appending to
        the journal, and quarantining the whole game at every sync lost
        the rest of the evening. ("partial", message), or None when the
        whole journal is to be quarantined as before (a damaged line,
        which the device continues in a new game of its own; a header
        refused; a prefix that does not replay)."""
        lines = journal.split(b"\n")
        if err.line < 2 or err.line > len(lines):
            return None
        try:
            _decode(lines[err.line - 1].rstrip(b"\r"))
        except (ValueError, RecursionError):
            return None  # damaged, not refused
        prefix = b"\n".join(lines[:err.line - 1]) + b"\n"
        try:
            Verify().feed(io.BytesIO(prefix))
        except Exception:  # noqa: BLE001 - no sound prefix: quarantine it all
            return None
        after = len([x for x in lines[err.line:] if x.strip()])
        rest = "line %d%s quarantined" % (err.line, " and the %d line%s after it are" % (
            after, "" if after == 1 else "s") if after else " is")
        heir = self._continued_by(c, device_id, game_id, canonical_lines(prefix)[1:])
        if heir is not None:
            # The device went on from there in a game of its own: that one
            # holds these events, so they are not stored twice.
            if row is not None:
                c.execute("DELETE FROM games WHERE id=?", (row[0],))
            self._quarantine(c, device_id, game_id, journal, digest, err)
            return "partial", "%s/%s: line %d breaks the rules (%s): the game as it stood before that line goes on " \
                "in game %d (%s/%s), which the device continued from there; %s" % (
                    device_id, game_id, err.line, printable(err.message), heir[0], device_id, heir[1], rest)
        status, message = self._verify_and_store(c, device_id, game_id, prefix, row)
        if status == "quarantined":
            return None
        self._quarantine(c, device_id, game_id, journal, digest, err)
        return "partial", "%s; line %d breaks the rules (%s): the game is kept as it stood before that line, and " \
            "%s" % (message, err.line, printable(err.message), rest)

    def _continued_by(self, c, device_id, game_id, events):
        """(pk, game id) of a stored game of the same device whose header
        says it "continues" game_id and whose events start with `events`
        (canonical lines), or None."""
        for pk, gid, header, journal in c.execute(
                "SELECT id, game_id, header, journal FROM games WHERE device_id=? AND game_id<>?",
                (device_id, game_id)).fetchall():
            try:
                origin = json.loads(header).get("continues")
            except (ValueError, AttributeError):
                continue
            if origin == game_id and canonical_lines(bytes(journal))[1:len(events) + 1] == events:
                return pk, gid
        return None

    def _supersede(self, c, device_id, game_id, header, canon):
        """A game that continues another of its device (header "continues"),
        which is stored only as the part kept before a line the rules refuse
        (it has a quarantine report) and whose events this game starts with:
        that part is removed, this game holds it. A note, or None."""
        origin = header.get("continues") if isinstance(header, dict) else None
        if not isinstance(origin, str) or origin == game_id:
            return None
        r = c.execute("SELECT id, journal FROM games WHERE device_id=? AND game_id=?", (device_id, origin)).fetchone()
        if r is None or c.execute("SELECT 1 FROM quarantine WHERE device_id=? AND game_id=?",
                                  (device_id, origin)).fetchone() is None:
            return None
        old = canonical_lines(bytes(r[1]))[1:]
        if canon[1:len(old) + 1] != old:
            return None
        c.execute("DELETE FROM games WHERE id=?", (r[0],))
        return "it continues %s/%s, whose part before a refused line was stored: that part is now this game" % (
            device_id, origin)

    def _quarantine(self, c, device_id, game_id, journal, digest, err, older=False):
        lines = journal.split(b"\n")
        excerpt = ""
        if err.line and err.line <= len(lines):
            raw = lines[err.line - 1].rstrip(b"\r")
            tab = raw.rfind(b"\t")
            if tab >= 0 and len(raw) - tab == 9:
                raw = raw[:tab]  # the CRC is noise to a reader
            excerpt = raw.decode("utf-8", "replace")
            if len(excerpt) > 200:
                excerpt = excerpt[:200] + "..."
            excerpt = printable(excerpt)
        c.execute(
            "INSERT OR IGNORE INTO quarantine(device_id, game_id, received, line, reason, excerpt, journal, digest) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (device_id, game_id, now_text(), err.line, printable(err.message), excerpt, journal, digest))
        if older:
            msg = "quarantined %s/%s: %s" % (device_id, game_id, printable(err.message))
        else:
            where = "line %d" % err.line if err.line else "the log"
            msg = "quarantined %s/%s: %s breaks the rules: %s" % (device_id, game_id, where, printable(err.message))
        if excerpt:
            msg += " (the line reads: %s)" % excerpt
        return "quarantined", msg

    def _seat_players(self, c, names, now):
        """Player ids for a game's seats: never one player for two seats.
        A seat's current name wins over another seat's former name (after
        `players rename Bob Rob`, a game with "Rob" and "Bob" gives "Rob" to
        that player); a former name already taken in this game becomes a
        player of its own. Returns (ids, notes for the user)."""
        pids = [None] * len(names)
        notes = []
        for seat, name in enumerate(names):
            # A seat label (P1, ...) is nobody in particular: it never finds
            # a person, by name or by a former name; it keeps a row of its
            # own that lists, standings and the roster leave out.
            if is_label(name):
                row = c.execute("SELECT id FROM players WHERE name=?", (name,)).fetchone()
                pids[seat] = row[0] if row is not None else self._new_player(c, name, now)
        for seat, name in enumerate(names):
            if pids[seat] is None:
                row = c.execute("SELECT id FROM players WHERE fold(name)=fold(?)", (name,)).fetchone()
                if row is not None:
                    pids[seat] = row[0]
        for seat, name in enumerate(names):
            if pids[seat] is None:
                row = c.execute("SELECT player FROM player_aliases WHERE fold(name)=fold(?)", (name,)).fetchone()
                if row is not None and row[0] not in pids:
                    pids[seat] = row[0]
        for seat, name in enumerate(names):
            if pids[seat] is None:
                row = c.execute("SELECT p.name FROM player_aliases a JOIN players p ON p.id = a.player "
                                "WHERE fold(a.name)=fold(?)", (name,)).fetchone()
                if row is not None:
                    c.execute("DELETE FROM player_aliases WHERE fold(name)=fold(?)", (name,))
                    notes.append("%s and %s played together, so %s is now a player of its own "
                                 "(no longer a former name of %s)" % (printable(name), printable(row[0]),
                                                                      printable(name), printable(row[0])))
                pids[seat] = self._new_player(c, name, now)
        return pids, notes

    def _new_player(self, c, name, now):
        return c.execute("INSERT INTO players(name, created, source_id) VALUES (?, ?, ?)",
                         (name, now, source_id_for(name))).lastrowid

    def _store(self, c, device_id, game_id, journal, digest, rep, existing_pk, ident, head, prefixes):
        match = rep.match
        header = match.header
        state = match.state
        now = now_text()
        c.execute("INSERT OR IGNORE INTO devices(id, info, first_seen, last_seen) VALUES (?, '{}', ?, ?)",
                  (device_id, now, now))
        seat_rank, winners = placed(match)
        finished = 1 if winners else 0
        if existing_pk is not None:
            game_pk = existing_pk
            c.execute("DELETE FROM results WHERE game=?", (game_pk,))
            c.execute("DELETE FROM rounds WHERE game=?", (game_pk,))
            c.execute(
                "UPDATE games SET header=?, journal=?, digest=?, events=?, rounds=?, finished=?, stored=?, "
                "identity=?, head=?, start_seat=? WHERE id=?",
                (json.dumps(header, sort_keys=True), journal, digest, rep.events, len(rep.rounds),
                 finished, now, ident, head, rep.first, game_pk))
        else:
            game_pk = c.execute(
                "INSERT INTO games(device_id, game_id, game, header, journal, digest, events, rounds, finished, "
                "stored, identity, head, start_seat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (device_id, game_id, header["game"], json.dumps(header, sort_keys=True), journal, digest,
                 rep.events, len(rep.rounds), finished, now, ident, head, rep.first)).lastrowid
        dev = c.execute("SELECT device_id FROM games WHERE id=?", (game_pk,)).fetchone()[0]
        lines = decoded(journal)
        self._set_times(c, game_pk, dev, journal, parse_now_text(now), lines)
        index_game(c, game_pk, dev, lines, prefixes)
        scores = list(state["scores"])
        pids, notes = self._seat_players(c, header["players"], now)
        for seat, rank in enumerate(seat_rank):
            c.execute("INSERT INTO results(game, seat, player, score, rank, winner) VALUES (?, ?, ?, ?, ?, ?)",
                      (game_pk, seat, pids[seat], scores[seat], rank, 1 if seat in winners else 0))
        insert_rounds(c, game_pk, rep.rounds)
        return game_pk, notes

    def import_log(self, path_or_bytes, device_id="file", game_id=None):
        """Import a plain .jsonl game log (or a device journal) from a path
        or bytes. The game id is the header's "id" when it has one, else
        the first 16 hex digits of a hash of the records (not the bytes:
        line ends, CRC suffixes and blank lines do not make a new game), so
        importing the same game twice is "unchanged". Returns (status,
        message, game_id). DbError for a file that cannot be read."""
        if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
            data = bytes(path_or_bytes)
        else:
            try:
                with open(path_or_bytes, "rb") as f:
                    data = f.read(MAX_LOG + 1)  # /dev/zero, a huge file: never read (or kept) without bound
            except FileNotFoundError:
                raise DbError("no such file: %s" % path_or_bytes)
            except IsADirectoryError:
                raise DbError("%s is a folder, not a game log" % path_or_bytes)
            except OSError as e:
                raise DbError("cannot read %s: %s" % (path_or_bytes, e.strerror or e))
        if len(data) > MAX_LOG:
            raise DbError("the log is larger than %d MiB, more than any game log (a long evening's journal is a "
                          "few hundred KB): not read further, nothing stored" % (MAX_LOG >> 20))
        if not data.strip():
            raise DbError("the log is empty: no header line")
        if game_id is None:
            game_id = header_id(data) or digest(canonical_lines(data))[:16]
        device_id, game_id = str(device_id), str(game_id)
        with self.write() as c:
            row = self._stored_journal(c, device_id, game_id)
            c.execute("DELETE FROM staging WHERE device_id=? AND game_id=?", (device_id, game_id))
            if row is not None and data == bytes(row[1]):
                return "unchanged", "%s/%s is already stored" % (device_id, game_id), game_id
            status, msg = self._verify_and_store(c, device_id, game_id, data, row)
        return status, msg, game_id
