"""The PC's game database: one SQLite file holding every verified game.

Why it looks the way it does:

- Nothing enters the games tables without a full replay through
  `shared_rules` (the same rules the device runs). A journal that fails
  replay goes to `quarantine` with the line number and the rule it breaks,
  and nothing else in the database changes.
- Sync may be cut at any byte, so journal bytes are first *staged* by
  offset (`stage_chunk`), and a game is verified and stored in one
  transaction (`commit_game`). Staging survives a crash; the next sync
  resumes from `staged_size`.
- Two `moontable` commands may run at once: WAL mode, a busy timeout, and
  `BEGIN IMMEDIATE` for every write, so writers queue instead of failing
  and readers never see half a game. `synchronous=FULL` because a stored
  game is acknowledged to the device, which may then forget it.
- The schema is versioned with `PRAGMA user_version` and a list of
  migration steps; opening an older file upgrades it in one transaction.
"""

import contextlib
import datetime
import hashlib
import io
import json
import os
import sqlite3
import sys
import time

from shared_rules import game_names, get_game
from shared_rules.errors import LogError
from shared_rules.log import Replay
from shared_rules.wire import decode as _decode

APP = "moontable"
BUSY_MS = 30000
# Device font: the SSD1306 framebuf font covers printable ASCII only, and the
# roster screen has room for 10 characters.
ROSTER_NAME_MAX = 10


class DbError(Exception):
    """A problem for the person at the keyboard (unknown game, unknown
    player, a file that is not a moontable database, ...). Commands print
    it and exit with status 2; it never carries a traceback."""


# ---------------------------------------------------------------- location

def default_path():
    """$XDG_DATA_HOME/moontable/moontable.db, else
    ~/.local/share/moontable/moontable.db (the XDG base directory rule:
    a relative XDG_DATA_HOME is ignored)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, APP, APP + ".db")


def add_db_argument(parser):
    """The `--db PATH` option every database command takes."""
    parser.add_argument(
        "--db", metavar="PATH", default=None,
        help="database file (default: %s)" % default_path().replace(os.path.expanduser("~"), "~", 1))


def guarded(command, body, args):
    """Run a command body; a DbError becomes one line on stderr and exit
    status 2 (bad input never shows a traceback)."""
    try:
        return body(args)
    except DbError as e:
        print("moontable %s: %s" % (command, e), file=sys.stderr)
        return 2


def open_for(args, create=True):
    """The Database named by `args.db` (or the default one)."""
    return Database.open(getattr(args, "db", None) or default_path(), create=create)


# ---------------------------------------------------------------- schema

# MIGRATIONS[k] takes a database from version k to k+1. Each entry is a list
# of SQL statements and/or callables(conn). Never edit a released step:
# add a new one.

def _backfill_rounds(conn):
    """Version 3 keeps each round's scores; rebuild them for games stored
    before, by replaying their journals (they all passed replay once)."""
    rows = conn.execute("SELECT id, journal FROM games").fetchall()
    for game_pk, journal in rows:
        try:
            rep = Replay().feed(io.BytesIO(journal))
        except LogError:
            continue  # rules changed since; the game keeps its results, no round table
        _insert_rounds(conn, game_pk, rep.rounds)


MIGRATIONS = [
    # 0 -> 1: the core tables.
    [
        """CREATE TABLE players(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            created TEXT NOT NULL)""",
        """CREATE TABLE devices(
            id TEXT PRIMARY KEY,
            info TEXT NOT NULL DEFAULT '{}',
            first_seen TEXT NOT NULL,
            last_seen TEXT NOT NULL)""",
        """CREATE TABLE games(
            id INTEGER PRIMARY KEY,
            device_id TEXT NOT NULL REFERENCES devices(id),
            game_id TEXT NOT NULL,
            game TEXT NOT NULL,
            header TEXT NOT NULL,
            journal BLOB NOT NULL,
            digest TEXT NOT NULL,
            events INTEGER NOT NULL,
            rounds INTEGER NOT NULL,
            finished INTEGER NOT NULL,
            started INTEGER,
            ended INTEGER,
            stored TEXT NOT NULL,
            UNIQUE(device_id, game_id))""",
        """CREATE TABLE events(
            game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            line INTEGER NOT NULL,
            type TEXT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY(game, seq)) WITHOUT ROWID""",
        """CREATE TABLE results(
            game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            player INTEGER NOT NULL REFERENCES players(id),
            score INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            PRIMARY KEY(game, seat))""",
    ],
    # 1 -> 2: resumable sync and the quarantine.
    [
        """CREATE TABLE staging(
            device_id TEXT NOT NULL,
            game_id TEXT NOT NULL,
            offset INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY(device_id, game_id, offset))""",
        """CREATE TABLE quarantine(
            id INTEGER PRIMARY KEY,
            device_id TEXT NOT NULL,
            game_id TEXT NOT NULL,
            received TEXT NOT NULL,
            line INTEGER NOT NULL,
            reason TEXT NOT NULL,
            excerpt TEXT NOT NULL,
            journal BLOB NOT NULL,
            digest TEXT NOT NULL,
            UNIQUE(device_id, game_id, digest))""",
    ],
    # 2 -> 3: round-by-round scores (for show/report without a replay),
    # aliases so renamed or merged names still find their player, and an
    # index for per-player queries.
    [
        """CREATE TABLE rounds(
            game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            round INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            score INTEGER NOT NULL,
            PRIMARY KEY(game, round, seat)) WITHOUT ROWID""",
        """CREATE TABLE player_aliases(
            name TEXT PRIMARY KEY COLLATE NOCASE,
            player INTEGER NOT NULL REFERENCES players(id))""",
        "CREATE INDEX results_player ON results(player)",
        _backfill_rounds,
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)


def _now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")


def _insert_rounds(conn, game_pk, rounds):
    conn.executemany(
        "INSERT INTO rounds(game, round, seat, score) VALUES (?, ?, ?, ?)",
        [(game_pk, r, seat, score) for r, scores in enumerate(rounds, 1) for seat, score in enumerate(scores)])


def _epoch(value):
    """A device timestamp (local wall-clock seconds since 1970, set by the
    PC's clock push) or None when the value is not a plausible wall-clock time (a device
    whose clock was never set counts from 2000 or from boot)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if 1000000000 <= value <= 4102444800:  # 2001 .. 2100
        return int(value)
    return None


def format_time(epoch):
    """Device seconds -> 'YYYY-MM-DD HH:MM:SS'. The device has no time
    zones: sync sets its clock to the PC's local wall time counted as if it
    were UTC (host.sync.local_epoch), so the stamp reads back unshifted."""
    if epoch is None:
        return None
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def check_player_name(name):
    """A name for `players add/rename`: 1-10 printable ASCII characters,
    so the device can show it (DbError otherwise)."""
    if not isinstance(name, str) or not name.strip():
        raise DbError("a player name cannot be empty")
    if name != name.strip():
        raise DbError("player name %r starts or ends with a space" % name)
    if len(name) > ROSTER_NAME_MAX:
        raise DbError("player name %r is %d characters; the device shows at most %d"
                      % (name, len(name), ROSTER_NAME_MAX))
    bad = [c for c in name if not (32 <= ord(c) < 127)]
    if bad:
        raise DbError("player name %r has %r, which the device font cannot show (printable ASCII only)"
                      % (name, bad[0]))
    return name


def check_game_name(name):
    """A --game filter must name a game moontable knows (None passes)."""
    if name is not None and name not in game_names():
        raise DbError("unknown game %r (known: %s)" % (name, ", ".join(game_names())))
    return name


def _fits_device(name):
    try:
        check_player_name(name)
        return True
    except DbError:
        return False


# ---------------------------------------------------------------- database

def start_scores(journal):
    """The scores before the first round, from the rules core (Shoot the
    Moon starts everyone on 2 chips, the others on 0)."""
    header = _decode(journal.split(b"\n", 1)[0])
    return list(get_game(header["game"]).new(header["players"], header.get("options") or {})["scores"])


class Database:
    """One open moontable database. Use `Database.open(path)`."""

    def __init__(self, conn, path):
        self.conn = conn
        self.path = path

    # ------------------------------------------------------------ opening

    @classmethod
    def open(cls, path, create=True):
        """Open (creating and migrating as needed) the database at `path`.

        DbError if it is not a moontable database or was written by a
        newer moontable."""
        path = os.fspath(path)
        if not create and not os.path.exists(path):
            raise DbError("no database at %s (sync or import a game first)" % path)
        parent = os.path.dirname(os.path.abspath(path))
        try:
            os.makedirs(parent, exist_ok=True)
        except OSError as e:
            raise DbError("cannot create the folder for %s: %s" % (path, e.strerror or e))
        if os.path.isdir(path):
            raise DbError("%s is a folder, not a database file" % path)
        try:
            conn = sqlite3.connect(path, timeout=BUSY_MS / 1000.0, isolation_level=None)
        except sqlite3.Error as e:
            raise DbError("cannot open database %s: %s" % (path, e))
        db = cls(conn, path)
        try:
            db._configure()
            db._migrate()
        except sqlite3.DatabaseError as e:
            conn.close()
            raise DbError("%s is not a usable moontable database: %s" % (path, e))
        except DbError:
            conn.close()
            raise
        return db

    def _configure(self):
        c = self.conn
        c.execute("PRAGMA busy_timeout=%d" % BUSY_MS)
        # Switching to WAL needs a moment alone with the file; another
        # process opening it at the same instant may hold it.
        for attempt in range(200):
            try:
                mode = c.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                break
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) and "busy" not in str(e):
                    raise
                time.sleep(0.05)
        else:
            raise DbError("%s stayed locked by another program" % self.path)
        if mode.lower() != "wal":
            raise DbError("%s cannot use write-ahead logging (journal mode %s)" % (self.path, mode))
        c.execute("PRAGMA synchronous=FULL")
        c.execute("PRAGMA foreign_keys=ON")

    def _migrate(self):
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise DbError("%s has schema version %d, newer than this moontable understands (%d): upgrade moontable"
                          % (self.path, version, SCHEMA_VERSION))
        if version == SCHEMA_VERSION:
            return
        with self.write() as c:
            # Another process may have migrated while we waited for the lock.
            version = c.execute("PRAGMA user_version").fetchone()[0]
            self._run_migrations(version, SCHEMA_VERSION)

    def _run_migrations(self, start, stop):
        c = self.conn
        for step in range(start, stop):
            for item in MIGRATIONS[step]:
                if callable(item):
                    item(c)
                else:
                    c.execute(item)
            c.execute("PRAGMA user_version=%d" % (step + 1))

    def schema_version(self):
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextlib.contextmanager
    def write(self):
        """A write transaction: BEGIN IMMEDIATE takes the write lock up
        front (waiting up to the busy timeout), so two writers queue rather
        than deadlock on a lock upgrade; any exception rolls back."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    @contextlib.contextmanager
    def read(self):
        """A read transaction: one consistent snapshot for a listing."""
        self.conn.execute("BEGIN")
        try:
            yield self.conn
        finally:
            self.conn.execute("COMMIT")

    # ------------------------------------------------------------ sync API

    def record_device(self, device_id, info):
        """Remember a device and what its hello said (firmware, rules and
        .mpy versions...), updating last_seen."""
        if not isinstance(info, dict):
            raise ValueError("device info must be a dict")
        now = _now()
        text = json.dumps(info, sort_keys=True)
        with self.write() as c:
            c.execute(
                "INSERT INTO devices(id, info, first_seen, last_seen) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET info=excluded.info, last_seen=excluded.last_seen",
                (str(device_id), text, now, now))

    def device(self, device_id):
        row = self.conn.execute("SELECT id, info, first_seen, last_seen FROM devices WHERE id=?",
                                (str(device_id),)).fetchone()
        if row is None:
            return None
        return {"id": row[0], "info": json.loads(row[1]), "first_seen": row[2], "last_seen": row[3]}

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

    def commit_game(self, device_id, game_id):
        """Verify the staged journal by replaying it with shared_rules and
        store it, all in one transaction.

        Returns (status, message): "stored" (new, or a longer journal of a
        game already stored), "unchanged" (nothing new), or "quarantined"
        (replay failed: the report names the line and the rule; staging is
        cleared and nothing else changes). ValueError if there is nothing
        to commit."""
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
            return self._verify_and_store(c, device_id, game_id, journal, row[0] if row else None)

    def _verify_and_store(self, c, device_id, game_id, journal, existing_pk):
        digest = hashlib.sha256(journal).hexdigest()
        try:
            rep = Replay().feed(io.BytesIO(journal))
        except LogError as e:
            return self._quarantine(c, device_id, game_id, journal, digest, e)
        game_pk = self._store(c, device_id, game_id, journal, digest, rep, existing_pk)
        words = "updated" if existing_pk else "stored"
        w = rep.match.winner()
        return "stored", "%s game %d (%s/%s): %s, %d events, %d rounds%s" % (
            words, game_pk, device_id, game_id, rep.match.header["game"], rep.events, len(rep.rounds),
            ", winner %s" % rep.match.header["players"][w] if w is not None else ", not finished")

    def _quarantine(self, c, device_id, game_id, journal, digest, err):
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
        c.execute(
            "INSERT OR IGNORE INTO quarantine(device_id, game_id, received, line, reason, excerpt, journal, digest) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (device_id, game_id, _now(), err.line, err.message, excerpt, journal, digest))
        where = "line %d" % err.line if err.line else "the log"
        msg = "quarantined %s/%s: %s breaks the rules: %s" % (device_id, game_id, where, err.message)
        if excerpt:
            msg += " (the line reads: %s)" % excerpt
        return "quarantined", msg

    def _player_id(self, c, name, now):
        row = c.execute("SELECT id FROM players WHERE name=?", (name,)).fetchone()
        if row is None:
            row = c.execute("SELECT player FROM player_aliases WHERE name=?", (name,)).fetchone()
        if row is not None:
            return row[0]
        return c.execute("INSERT INTO players(name, created) VALUES (?, ?)", (name, now)).lastrowid

    def _store(self, c, device_id, game_id, journal, digest, rep, existing_pk):
        match = rep.match
        header = match.header
        state = match.state
        now = _now()
        c.execute("INSERT OR IGNORE INTO devices(id, info, first_seen, last_seen) VALUES (?, '{}', ?, ?)",
                  (device_id, now, now))
        # Events, re-read from the verified journal (blank lines skipped as the reader does).
        events = []
        started = _epoch(header.get("t"))
        ended = started
        lineno = 0
        seq = 0
        for raw in journal.split(b"\n"):
            lineno += 1
            if not raw.strip():
                continue
            seq += 1
            if seq == 1:
                continue  # the header
            obj = _decode(raw)
            t = _epoch(obj.get("t"))
            if t is not None:
                if started is None:
                    started = t
                ended = t
            events.append((seq - 1, lineno, str(obj.get("type")), json.dumps(obj, sort_keys=True, separators=(",", ":"))))
        winner = match.winner()
        if existing_pk is not None:
            game_pk = existing_pk
            c.execute("DELETE FROM events WHERE game=?", (game_pk,))
            c.execute("DELETE FROM results WHERE game=?", (game_pk,))
            c.execute("DELETE FROM rounds WHERE game=?", (game_pk,))
            c.execute(
                "UPDATE games SET header=?, journal=?, digest=?, events=?, rounds=?, finished=?, started=?, ended=?, "
                "stored=? WHERE id=?",
                (json.dumps(header, sort_keys=True), journal, digest, rep.events, len(rep.rounds),
                 1 if winner is not None else 0, started, ended, now, game_pk))
        else:
            game_pk = c.execute(
                "INSERT INTO games(device_id, game_id, game, header, journal, digest, events, rounds, finished, "
                "started, ended, stored) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (device_id, game_id, header["game"], json.dumps(header, sort_keys=True), journal, digest,
                 rep.events, len(rep.rounds), 1 if winner is not None else 0, started, ended, now)).lastrowid
        c.executemany("INSERT INTO events(game, seq, line, type, body) VALUES (?, ?, ?, ?, ?)",
                      [(game_pk,) + e for e in events])
        scores = list(state["scores"])
        winners = _winning_seats(state, winner)
        for seat, name in enumerate(header["players"]):
            pid = self._player_id(c, name, now)
            rank = 1 + sum(1 for s in scores if s > scores[seat])
            c.execute("INSERT INTO results(game, seat, player, score, rank, winner) VALUES (?, ?, ?, ?, ?, ?)",
                      (game_pk, seat, pid, scores[seat], rank, 1 if seat in winners else 0))
        _insert_rounds(c, game_pk, rep.rounds)
        return game_pk

    def import_log(self, path_or_bytes, device_id="file", game_id=None):
        """Import a plain .jsonl game log (or a device journal) from a path
        or bytes. The game id is the header's "id" when it has one, else
        the first 16 hex digits of the content's SHA-256, so importing the
        same file twice is "unchanged". Returns (status, message, game_id).
        DbError for a file that cannot be read."""
        if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
            data = bytes(path_or_bytes)
        else:
            try:
                with open(path_or_bytes, "rb") as f:
                    data = f.read()
            except FileNotFoundError:
                raise DbError("no such file: %s" % path_or_bytes)
            except IsADirectoryError:
                raise DbError("%s is a folder, not a game log" % path_or_bytes)
            except OSError as e:
                raise DbError("cannot read %s: %s" % (path_or_bytes, e.strerror or e))
        if not data.strip():
            raise DbError("the log is empty: no header line")
        if game_id is None:
            game_id = _header_id(data) or hashlib.sha256(data).hexdigest()[:16]
        device_id, game_id = str(device_id), str(game_id)
        with self.write() as c:
            row = self._stored_journal(c, device_id, game_id)
            c.execute("DELETE FROM staging WHERE device_id=? AND game_id=?", (device_id, game_id))
            if row is not None:
                stored = bytes(row[1])
                if data == stored:
                    return "unchanged", "%s/%s is already stored" % (device_id, game_id), game_id
                if not data.startswith(stored):
                    err = LogError(0, "this log differs from game %s/%s already stored (it is not the same game continued)"
                                   % (device_id, game_id))
                    status, msg = self._quarantine(c, device_id, game_id, data, hashlib.sha256(data).hexdigest(), err)
                    return status, msg, game_id
            status, msg = self._verify_and_store(c, device_id, game_id, data, row[0] if row else None)
        return status, msg, game_id

    # ------------------------------------------------------------ players

    def roster(self):
        """Names to push to the device: every player whose name it can show
        (at most 10 printable ASCII characters), most-played first."""
        rows = self.conn.execute(
            "SELECT p.name, COUNT(r.game) AS n FROM players p LEFT JOIN results r ON r.player = p.id "
            "GROUP BY p.id ORDER BY n DESC, p.name COLLATE NOCASE").fetchall()
        return [name for name, _ in rows if _fits_device(name)]

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
                for pid, name, games, wins in rows]

    def find_player(self, name, c=None):
        """Player id for a name or alias; DbError naming the known players."""
        c = c or self.conn
        row = c.execute("SELECT id FROM players WHERE name=?", (name,)).fetchone()
        if row is None:
            row = c.execute("SELECT player FROM player_aliases WHERE name=?", (name,)).fetchone()
        if row is None:
            known = [r[0] for r in c.execute("SELECT name FROM players ORDER BY name COLLATE NOCASE")]
            raise DbError("unknown player %r (known: %s)" % (name, ", ".join(known) or "none yet"))
        return row[0]

    def _name_free(self, c, name, allow_pid=None):
        row = c.execute("SELECT id, name FROM players WHERE name=?", (name,)).fetchone()
        if row is not None and row[0] != allow_pid:
            raise DbError("there is already a player called %s" % row[1])
        row = c.execute("SELECT p.name FROM player_aliases a JOIN players p ON p.id = a.player WHERE a.name=? "
                        "AND a.player IS NOT ?", (name, allow_pid)).fetchone()
        if row is not None:
            raise DbError("%r is a former name of %s (renamed or merged); pick another name" % (name, row[0]))

    def add_player(self, name):
        check_player_name(name)
        with self.write() as c:
            self._name_free(c, name)
            return c.execute("INSERT INTO players(name, created) VALUES (?, ?)", (name, _now())).lastrowid

    def rename_player(self, old, new):
        """Rename; the old name stays as an alias, so games still on a
        device under the old name land on the same player."""
        check_player_name(new)
        with self.write() as c:
            pid = self.find_player(old, c)
            current = c.execute("SELECT name FROM players WHERE id=?", (pid,)).fetchone()[0]
            self._name_free(c, new, allow_pid=pid)
            c.execute("DELETE FROM player_aliases WHERE name=?", (new,))
            c.execute("UPDATE players SET name=? WHERE id=?", (new, pid))
            if current.lower() != new.lower():
                c.execute("INSERT OR REPLACE INTO player_aliases(name, player) VALUES (?, ?)", (current, pid))
            return pid

    def merge_players(self, source, target):
        """Move every result of `source` to `target` and delete `source`
        (its names become aliases of target). DbError if the two ever sat
        at the same table: one person cannot hold two seats."""
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

    # ------------------------------------------------------------ queries

    def game_pk(self, ref):
        """Resolve a GAME argument: the number `moontable games` lists, or
        DEVICE/GAME_ID. DbError for an unknown game."""
        ref = str(ref).strip()
        if ref.isdigit():
            row = self.conn.execute("SELECT id FROM games WHERE id=?", (int(ref),)).fetchone()
        elif "/" in ref:
            dev, gid = ref.split("/", 1)
            row = self.conn.execute("SELECT id FROM games WHERE device_id=? AND game_id=?", (dev, gid)).fetchone()
        else:
            raise DbError("game %r: give the number from `moontable games`, or DEVICE/GAME_ID" % ref)
        if row is None:
            n = self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            raise DbError("no game %s in the database (it holds %d game%s; see `moontable games`)"
                          % (ref, n, "" if n == 1 else "s"))
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
            sql += " ORDER BY COALESCE(started, 0), id"
            ids = [r[0] for r in c.execute(sql, params)]
            return [self._summary(c, pk) for pk in ids]

    def _summary(self, c, pk):
        row = c.execute("SELECT id, device_id, game_id, game, header, events, rounds, finished, started, ended, stored "
                        "FROM games WHERE id=?", (pk,)).fetchone()
        header = json.loads(row[4])
        res = c.execute("SELECT r.seat, p.name, r.score, r.rank, r.winner FROM results r JOIN players p "
                        "ON p.id = r.player WHERE r.game=? ORDER BY r.seat", (pk,)).fetchall()
        started, ended = row[8], row[9]
        duration = None
        if started is not None and ended is not None:
            duration = max(0, int(round((ended - started) / 60.0)))
        return {
            "id": row[0], "device": row[1], "game_id": row[2], "game": row[3],
            "options": header.get("options") or {},
            "players": [r[1] for r in res],
            "logged_players": list(header["players"]),
            "scores": [r[2] for r in res],
            "ranks": [r[3] for r in res],
            "winners": [r[1] for r in res if r[4]],
            "finished": bool(row[7]),
            "events": row[5], "rounds": row[6],
            "started": format_time(started), "ended": format_time(ended),
            "duration_min": duration,
            "stored": row[10],
            "date": format_time(started) or row[10],
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
        s["start_scores"] = start_scores(s["journal"])
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
               for name, n, w, _ in rows]
        out.sort(key=lambda r: (-r["win_rate"], -r["wins"], r["player"].lower()))
        return out

    def game_names(self):
        return [r[0] for r in self.conn.execute("SELECT DISTINCT game FROM games ORDER BY game")]

    def dump(self, skip=()):
        """Every row of every table as text, for comparing two states of
        a database (tests, and checking that a quarantine changed nothing)."""
        out = []
        tables = [r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for t in tables:
            if t in skip:
                continue
            out.append("-- %s" % t)
            for row in self.conn.execute("SELECT * FROM %s ORDER BY 1, 2" % t):
                out.append(repr(row))
        return "\n".join(out)


def _winning_seats(state, winner):
    """Seats that won: the winner's seat, plus partners where the game
    plays in teams (a state with "teams": a count of sides, seat s on side
    s % teams, or lists of seats)."""
    if winner is None:
        return set()
    teams = state.get("teams")
    n = len(state["players"])
    if isinstance(teams, int) and not isinstance(teams, bool) and teams > 0:
        # Shoot the Moon partnerships: seat s plays for side s % teams.
        return {s for s in range(n) if s % teams == winner % teams}
    if isinstance(teams, list):
        for team in teams:
            if isinstance(team, list) and winner in team:
                return set(team)
    return {winner}


def _header_id(data):
    """The "id" a log's header carries, if any (device journals name their game)."""
    first = data.split(b"\n", 1)[0]
    try:
        header = _decode(first)
    except ValueError:
        return None
    for key in ("id", "game_id"):
        value = header.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            return str(value)
    return None
