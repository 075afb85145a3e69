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
import json
import os
import sqlite3
import sys
import time
import urllib.parse

from moontable import times as timesmod
from moontable.clock import now_text, parse_now_text, pc_utc_offset
from moontable.dberror import DbError
from moontable.dbfiles import left_mid_write, not_a_regular_file, sqlite_problem, writable
from moontable.migrations import APPLICATION_ID, CORE_TABLES, MIGRATIONS, SCHEMA_VERSION
from moontable.names import fold_sql
from moontable.people import People
from moontable.queries import Queries
from moontable.store import Store

APP = "moontable"
BUSY_MS = 30000


# ---------------------------------------------------------------- location

def default_path():
    """moontable.db in the user's data folder (host/places.py: platformdirs,
    so $XDG_DATA_HOME/moontable on Linux, a relative one ignored as the XDG
    rule says, and the native folder on macOS and Windows)."""
    from moontable.places import data_dir

    return str(data_dir() / (APP + ".db"))


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


def open_for(args, create=True, readonly=False):
    """The Database named by `args.db` (or the default one). Commands that
    only read pass readonly=True: the file is then never written."""
    return Database.open(getattr(args, "db", None) or default_path(), create=create, readonly=readonly)



# ---------------------------------------------------------------- database

class Database(Store, People, Queries):
    """One open moontable database. Use `Database.open(path)`."""

    def __init__(self, conn, path):
        self.conn = conn
        self.path = path
        # fold(name): the rules core's case folding (shared_rules.names), so
        # a name finds its person by every letter, not by SQLite's NOCASE
        # (A-Z only).
        conn.create_function("fold", 1, fold_sql, deterministic=True)

    # ------------------------------------------------------------ opening

    @classmethod
    def open(cls, path, create=True, readonly=False):
        """Open the database at `path`; unless `readonly`, create and
        migrate it as needed.

        DbError if it is not a moontable database (another program's SQLite
        file is refused, never converted), was written by a newer
        moontable, or cannot be written when a write is needed. A read-only
        open never writes to the file: an older schema is upgraded in a
        private in-memory copy."""
        path = os.fspath(path)
        if os.path.isdir(path):
            raise DbError("%s is a folder, not a database file" % path)
        odd = not_a_regular_file(path)
        if odd:
            raise DbError("%s is %s, not a database file: refusing to open it (a database is a regular file; "
                          "a symbolic link to one is fine)" % (path, odd))
        if (readonly or not create) and not os.path.exists(path):
            raise DbError("no database at %s (sync or import a game first)" % path)
        if readonly:
            return cls._open_readonly(path)
        parent = os.path.dirname(os.path.abspath(path))
        try:
            os.makedirs(parent, exist_ok=True)
        except OSError as e:
            raise DbError("cannot create the folder for %s: %s" % (path, e.strerror or e))
        if os.path.exists(path) and not writable(path):
            raise DbError("the database %s is read-only (file permissions): nothing can be stored in it" % path)
        if not writable(parent):
            raise DbError("the folder %s is read-only: the database needs to write its journal files "
                          "(%s-wal, %s-shm) beside it" % (parent, os.path.basename(path), os.path.basename(path)))
        try:
            conn = sqlite3.connect(path, timeout=BUSY_MS / 1000.0, isolation_level=None)
        except sqlite3.Error as e:
            raise DbError("cannot open database %s: %s" % (path, e))
        db = cls(conn, path)
        try:
            db._check_ours_waiting()
            db._configure()
            db._migrate()
        except sqlite3.DatabaseError as e:
            conn.close()
            raise DbError(sqlite_problem(path, e))
        except DbError:
            conn.close()
            raise
        return db

    @classmethod
    def _open_readonly(cls, path):
        uri = "file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(path))
        conn = None
        try:
            try:
                conn = sqlite3.connect(uri, uri=True, timeout=BUSY_MS / 1000.0, isolation_level=None)
                db = cls(conn, path)
                db._check_ours(allow_empty=False)
            except sqlite3.OperationalError:
                # A WAL database in a folder we cannot write: SQLite cannot
                # make the shared-memory file, so read the file as it is.
                if conn is not None:
                    conn.close()
                if os.access(os.path.dirname(os.path.abspath(path)), os.W_OK):
                    raise
                conn = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
                db = cls(conn, path)
                db._check_ours(allow_empty=False)
            conn.execute("PRAGMA busy_timeout=%d" % BUSY_MS)
            version = db.schema_version()
            if version < SCHEMA_VERSION:
                # Older moontable: upgrade a private copy, leave the file be.
                mem = sqlite3.connect(":memory:", isolation_level=None)
                conn.backup(mem)
                conn.close()
                conn = mem
                db = cls(mem, path)
                with db.write():
                    db._run_migrations(version, SCHEMA_VERSION)
            return db
        except sqlite3.DatabaseError as e:
            if conn is not None:
                conn.close()
            left = left_mid_write(path, e)
            if left:
                raise DbError(left)
            raise DbError(sqlite_problem(path, e))
        except DbError:
            if conn is not None:
                conn.close()
            raise

    def _check_ours_waiting(self):
        """_check_ours for a writer: another process creating the same file
        this instant (switching it to WAL) may hold it for a moment."""
        for attempt in range(200):
            try:
                return self._check_ours(allow_empty=True)
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) and "busy" not in str(e):
                    raise
                time.sleep(0.05)
        raise DbError("%s stayed locked by another program" % self.path)

    def _check_ours(self, allow_empty):
        """DbError unless the file is a moontable database (or, when
        `allow_empty`, an empty one a write may set up). Reads only."""
        c = self.conn
        # One read transaction: another process creating the file may
        # commit its tables between two separate reads (version 0, then
        # tables: "another program's database").
        c.execute("BEGIN")
        try:
            version = c.execute("PRAGMA user_version").fetchone()[0]
            app = c.execute("PRAGMA application_id").fetchone()[0]
            names = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            c.execute("COMMIT")
        if app not in (0, APPLICATION_ID):
            raise DbError("%s belongs to another program (SQLite application id %d), not moontable: "
                          "refusing to touch it" % (self.path, app))
        if version == 0:
            if names:
                raise DbError("%s is another program's SQLite database (tables: %s), not moontable's: "
                              "refusing to touch it" % (self.path, ", ".join(sorted(names)[:6])))
            if not allow_empty:
                raise DbError("%s is an empty database: nothing stored yet (sync or import a game first)" % self.path)
            return
        if version > SCHEMA_VERSION:
            raise DbError("%s has schema version %d, newer than this moontable understands (%d): upgrade moontable"
                          % (self.path, version, SCHEMA_VERSION))
        missing = [t for t in CORE_TABLES if t not in names]
        if missing:
            raise DbError("%s is not a moontable database (it has no %s table): refusing to touch it"
                          % (self.path, missing[0]))

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
        now = now_text()
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


    def record_clocks(self, device_id, clocks, utc_offset=None):
        """Remember when each recent boot of a device started, as its hello
        reports: {"<boot>": epoch_ms at ms 0 of that boot} for boots whose
        clock a PC set. Games of those boots already stored get their
        exact times now (events before the sync in that boot included).
        Entries that are not plausible are ignored; returns how many were
        kept. The device counts the PC's local time as if it were UTC, so
        the PC's UTC offset (seconds east; this PC's now, at the sync, by
        default) is kept with a boot the first time it is recorded: a
        later sync from another time zone does not move the past."""
        device_id = str(device_id)
        clean = timesmod.clean_clocks(clocks)
        if not clean:
            return 0
        if utc_offset is None:
            utc_offset = pc_utc_offset()
        with self.write() as c:
            c.execute("INSERT OR IGNORE INTO devices(id, info, first_seen, last_seen) VALUES (?, '{}', ?, ?)",
                      (device_id, now_text(), now_text()))
            known = {boot: ms for boot, ms in c.execute(
                "SELECT boot, epoch_ms FROM device_clocks WHERE device_id=?", (device_id,))}
            dated = []
            for boot, seconds in clean.items():
                ms = int(round(seconds * 1000))
                if known.get(boot) != ms:
                    dated.append(boot)
                c.execute("INSERT INTO device_clocks(device_id, boot, epoch_ms, utc_offset) VALUES (?, ?, ?, ?) "
                          "ON CONFLICT(device_id, boot) DO UPDATE SET epoch_ms=excluded.epoch_ms, "
                          "utc_offset=COALESCE(device_clocks.utc_offset, excluded.utc_offset)",
                          (device_id, boot, ms, int(utc_offset)))
            # Only the games of the boots a new clock dates that are undated
            # or have no UTC offset yet: the others would come out as they
            # are (a hello repeats the clocks of recent boots at every sync).
            for i in range(0, len(dated), 500):
                part = dated[i:i + 500]
                for pk, journal, stored in c.execute(
                        "SELECT g.id, g.journal, g.stored FROM games g WHERE (g.approx=1 OR g.utc_offset IS NULL) "
                        "AND g.id IN (SELECT game FROM game_boots WHERE device_id=? AND boot IN (%s))"
                        % ",".join("?" * len(part)), [device_id] + part).fetchall():
                    self._set_times(c, pk, device_id, bytes(journal), parse_now_text(stored))
        return len(clean)

    def device_clocks(self, device_id, c=None):
        """{boot: epoch seconds at ms 0} known for a device."""
        c = c or self.conn
        return {boot: ms / 1000.0 for boot, ms in c.execute(
            "SELECT boot, epoch_ms FROM device_clocks WHERE device_id=?", (str(device_id),))}


    # ------------------------------------------------------------ players


    # ------------------------------------------------------------ queries


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
