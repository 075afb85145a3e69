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
import stat
import sys
import time
import urllib.parse

from moontable import times as timesmod
from moontable.bgstats import first_seat
from moontable.words import count
from shared_rules import display_name, game_names, get_game, ranks
from shared_rules.places import seat_ranks
from shared_rules.errors import LogError
from shared_rules.log import Replay
from shared_rules.wire_read import decode as _decode

APP = "moontable"
BUSY_MS = 30000
# Device font: the SSD1306 framebuf font covers printable ASCII only, and the
# roster screen has room for 10 characters.
ROSTER_NAME_MAX = 10
# The most bytes of one game log read, from a file or a device: a long
# evening's journal is a few hundred KB, so more is junk (or /dev/zero),
# and it is neither read on nor kept in quarantine.
MAX_LOG = 8 << 20
# A device name (`import --device`, a board's id): what `show DEVICE/GAME`
# can name and a terminal prints as it is.
DEVICE_NAME_MAX = 64


class DbError(Exception):
    """A problem for the person at the keyboard (unknown game, unknown
    player, a file that is not a moontable database, ...). Commands print
    it and exit with status 2; it never carries a traceback."""


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


def _backfill_v4(conn):
    """Version 4 keys games by what they mean, not their bytes, and keeps
    the first setter/dealer and the duration: work them out for games
    stored before, from their journals."""
    rows = conn.execute("SELECT id, journal, started, ended FROM games").fetchall()
    for game_pk, journal, started, ended in rows:
        journal = bytes(journal)
        canon = canonical_lines(journal)
        start = None
        try:
            start = _Verify().feed(io.BytesIO(journal)).first
        except Exception:  # noqa: BLE001 - rules changed since: the game keeps what it has
            pass
        t = timesmod.game_times(_decoded(journal))
        conn.execute("UPDATE games SET identity=?, head=?, start_seat=?, duration=?, approx=? WHERE id=?",
                     (_digest(canon), _digest(canon[:1]), start, t["seconds"], 1 if started is None else 0, game_pk))


def _backfill_v5(conn):
    """Version 5's boots and prefix hashes for games stored before."""
    rows = conn.execute("SELECT id, device_id, journal FROM games").fetchall()
    for game_pk, device_id, journal in rows:
        journal = bytes(journal)
        _index_game(conn, game_pk, device_id, _decoded(journal), prefix_digests(canonical_lines(journal)))


def game_boots(lines):
    """The boot counters ("b") a game's decoded lines were written in."""
    out = set()
    for obj in lines:
        if isinstance(obj, dict):
            b = obj.get("b")
            if isinstance(b, int) and not isinstance(b, bool) and abs(b) < 1 << 62:
                out.add(b)
    return sorted(out)


def prefix_digests(canon):
    """_digest(canon[:i]) for i = 1 .. len(canon), in one pass."""
    h = hashlib.sha256()
    out = []
    for line in canon:
        h.update(line.encode("utf-8", "surrogatepass"))
        h.update(b"\n")
        out.append(h.copy().hexdigest())
    return out


def _indexed_lengths(n):
    """The prefix lengths kept per game: 1, 2, 4, 8, ... up to n."""
    k = 1
    while k <= n:
        yield k
        k <<= 1


def _index_game(c, game_pk, device_id, lines, prefixes):
    """(Re)write a game's rows in game_boots and game_prefixes."""
    c.execute("DELETE FROM game_boots WHERE game=?", (game_pk,))
    c.execute("DELETE FROM game_prefixes WHERE game=?", (game_pk,))
    c.executemany("INSERT OR IGNORE INTO game_boots(device_id, boot, game) VALUES (?, ?, ?)",
                  [(device_id, b, game_pk) for b in game_boots(lines)])
    c.executemany("INSERT OR IGNORE INTO game_prefixes(digest, lines, game) VALUES (?, ?, ?)",
                  [(bytes.fromhex(prefixes[k - 1])[:16], k, game_pk) for k in _indexed_lengths(len(prefixes))])


def _backfill_places(conn):
    """Version 5 ranks every game by its win rule (the rules core's
    placings), not by score: re-rank the games stored before from their
    journals (a Moon bidder who went out with a lower total was ranked
    below a higher total; partners were ranked by seat)."""
    rows = conn.execute("SELECT id, journal FROM games").fetchall()
    for game_pk, journal in rows:
        try:
            rep = Replay().feed(io.BytesIO(bytes(journal)))
        except Exception:  # noqa: BLE001 - rules changed since: the game keeps what it has
            continue
        ranks_now, won = _placed(rep.match)
        for seat, rank in enumerate(ranks_now):
            conn.execute("UPDATE results SET rank=?, winner=? WHERE game=? AND seat=?",
                         (rank, 1 if seat in won else 0, game_pk, seat))
        conn.execute("UPDATE games SET finished=? WHERE id=?", (1 if won else 0, game_pk))


def _drop_label_aliases(conn):
    """A label renamed into a person (`players rename P1 Ann`) made every
    later P1 seat Ann's; the games stored so far stay hers, later ones
    are not."""
    for (name,) in conn.execute("SELECT name FROM player_aliases").fetchall():
        if is_label(name):
            conn.execute("DELETE FROM player_aliases WHERE name=?", (name,))


def source_id_for(name):
    """The BG Stats sourcePlayerId of a person first stored under `name`:
    "moontable-" + the folded name, the scheme the web page uses too
    (host/bgstats.source_player_id), so one person is one BG Stats player
    from either. Kept in the row: a rename keeps it."""
    from moontable.bgstats import source_player_id

    return source_player_id("moontable", name)


def _placed(match):
    """(rank by seat, winning seats) of a replayed game, by its win rule."""
    return seat_ranks(match.placings(), len(match.state["players"])), match.winners()


def canonical_lines(journal):
    """A journal's records as canonical JSON text (sorted keys, no spaces),
    one string a record: what a game *means*, whatever its line ends, CRC
    suffixes or blank lines. Lines that do not decode are kept as their
    stripped text (a game that replayed has none)."""
    out = []
    for raw in journal.split(b"\n"):
        if not raw.strip():
            continue
        try:
            obj = _decode(raw.rstrip(b"\r"))
        except (ValueError, RecursionError):
            out.append(raw.strip().decode("utf-8", "replace"))
            continue
        out.append(json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    return out


def _decoded(journal):
    """The journal's records as dicts (undecodable lines skipped)."""
    out = []
    for raw in journal.split(b"\n"):
        if raw.strip():
            try:
                out.append(_decode(raw.rstrip(b"\r")))
            except (ValueError, RecursionError):
                pass
    return out


def _digest(lines):
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


class _Verify(Replay):
    """The replay that verifies a journal, also noting who started: the
    first setter/dealer is whoever holds the job until round 1 is over
    (an undo before then may change it)."""

    def __init__(self):
        super().__init__()
        self.first = None

    def start(self, header, lineno=1):
        super().start(header, lineno)
        self.first = first_seat(self.match.state)

    def step(self, event, lineno):
        super().step(event, lineno)
        state = self.match.state
        if state["round"] == 0 or self.first is None:
            seat = first_seat(state)
            if seat is not None or state["round"] == 0:
                self.first = seat


def printable(text):
    """Text safe to print on a terminal: control characters (escape
    sequences, CR, ...) and lone surrogates shown as escapes instead of
    acting on the terminal."""
    out = []
    for ch in str(text):
        o = ord(ch)
        if o < 32 or o == 127 or 0x80 <= o < 0xA0:
            out.append("\\x%02x" % o)
        elif 0xD800 <= o < 0xE000:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return "".join(out)


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
    # 3 -> 4: game identity independent of the bytes (CRLF, CRC, blank
    # lines), the first setter/dealer, wall times from the device's boot
    # clocks (approx when only the sync time dates a game), ranks shared
    # on ties, and the file marked as ours.
    [
        """CREATE TABLE device_clocks(
            device_id TEXT NOT NULL,
            boot INTEGER NOT NULL,
            epoch_ms INTEGER NOT NULL,
            PRIMARY KEY(device_id, boot)) WITHOUT ROWID""",
        "ALTER TABLE games ADD COLUMN identity TEXT",
        "ALTER TABLE games ADD COLUMN head TEXT",
        "ALTER TABLE games ADD COLUMN start_seat INTEGER",
        "ALTER TABLE games ADD COLUMN duration INTEGER",
        "ALTER TABLE games ADD COLUMN approx INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX games_head ON games(head)",
        lambda conn: _backfill_v4(conn),
        "PRAGMA application_id=%d" % 0x4D6F6F6E,
    ],
    # 4 -> 5: a club's ten thousand games. Which boots each game spans, so
    # a sync's new clock re-dates only the games of its boots; hashes of
    # each game's first 1, 2, 4, 8, ... records and an index on the whole
    # game's hash, so an import finds the stored game it repeats or
    # continues without re-reading every game that shares its header; and
    # no per-event copy of every journal (the events table was half the
    # file and no command read it: the journal itself is kept).
    [
        """CREATE TABLE game_boots(
            device_id TEXT NOT NULL,
            boot INTEGER NOT NULL,
            game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            PRIMARY KEY(device_id, boot, game)) WITHOUT ROWID""",
        """CREATE TABLE game_prefixes(
            digest BLOB NOT NULL,
            lines INTEGER NOT NULL,
            game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            PRIMARY KEY(digest, lines, game)) WITHOUT ROWID""",
        "CREATE INDEX games_identity ON games(identity)",
        "CREATE INDEX game_prefixes_game ON game_prefixes(game)",
        "CREATE INDEX game_boots_game ON game_boots(game)",
        lambda conn: _backfill_v5(conn),
        "DROP TABLE events",
    ],
    # 5 -> 6: ranks and winners by each game's win rule (placings); each
    # player's BG Stats id kept in the row (the ids sent before stay); a
    # seat label (P1, ...) is no longer a former name of anyone.
    [
        lambda conn: _backfill_places(conn),
        "ALTER TABLE players ADD COLUMN source_id TEXT",
        "UPDATE players SET source_id = 'moontable-player-' || id",
        lambda conn: _drop_label_aliases(conn),
        # the PC's UTC offset when it set a boot's clock (seconds east of
        # UTC), and the one that dates each game: BG Stats wants UTC
        "ALTER TABLE device_clocks ADD COLUMN utc_offset INTEGER",
        "ALTER TABLE games ADD COLUMN utc_offset INTEGER",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)
APPLICATION_ID = 0x4D6F6F6E  # "Moon": set by migration 4, marks the file as ours
# The tables every moontable database has had since version 1 (and still
# has: version 5 dropped "events"): a file that claims a version but lacks
# them is someone else's.
CORE_TABLES = ("players", "devices", "games", "results")


def _now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")


def _insert_rounds(conn, game_pk, rounds):
    conn.executemany(
        "INSERT INTO rounds(game, round, seat, score) VALUES (?, ?, ?, ?)",
        [(game_pk, r, seat, score) for r, scores in enumerate(rounds, 1) for seat, score in enumerate(scores)])


def _epoch(value):
    """A device timestamp (local wall-clock seconds since 1970, set by the
    PC's clock push) or None when the value is not a plausible wall-clock
    time (a device whose clock was never set counts from 2000 or from boot)."""
    return timesmod.plausible_epoch(value)


def format_time(epoch):
    """Device seconds -> 'YYYY-MM-DD HH:MM:SS'. The device has no time
    zones: sync sets its clock to the PC's local wall time counted as if it
    were UTC (moontable.sync.local_epoch), so the stamp reads back unshifted."""
    return timesmod.format_epoch(epoch)


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
    if is_label(name):
        raise DbError("%s is a seat label the device gives a seat nobody named, not a person's name; "
                      "to say who sat there in one game: moontable players link GAME %s NAME" % (name, name))
    return name


def check_typed_name(name):
    """A name typed at the PC, composed as the rules want it (NFC: the
    board cannot compose, so it refuses a lone accent; the PC composes
    what a keyboard sent decomposed). DbError for what the rules refuse
    in a name (an invisible character, a special space, ...)."""
    import unicodedata

    from shared_rules.names import why_not

    name = unicodedata.normalize("NFC", name)
    why = why_not(name) if name else None
    if why is not None:
        raise DbError(why)
    return name


def check_device_name(name):
    """A device name given on the command line, checked; DbError saying
    why not. 1 to DEVICE_NAME_MAX printable characters, no "/" (games
    are named DEVICE/GAME_ID), no space at either end."""
    if not isinstance(name, str) or not name:
        raise DbError("the device name is empty: give one such as `--device paper` (or leave --device out)")
    if len(name) > DEVICE_NAME_MAX:
        raise DbError("the device name is %d characters long; at most %d" % (len(name), DEVICE_NAME_MAX))
    if not _is_text(name):
        raise DbError("the device name %s is not valid text" % _quoted(name))
    if not name.isprintable():
        raise DbError("the device name %s holds a control or invisible character; use letters, digits, - or _"
                      % _quoted(name))
    if "/" in name:
        raise DbError("the device name %s holds a \"/\", which separates the device from the game in "
                      "DEVICE/GAME_ID; use letters, digits, - or _" % _quoted(name))
    if name != name.strip():
        raise DbError("the device name %s starts or ends with a space" % _quoted(name))
    return name


def _quoted(name):
    return '"%s"' % printable(name)


def check_game_name(name):
    """A --game filter -> the game's id: the id or the box's name, any
    case ("Shoot the Moon" and "shoot-the-moon" both work); None passes.
    DbError naming the games for anything else."""
    if name is None:
        return None
    for gid in game_names():
        if name.casefold() in (gid, display_name(gid).casefold()):
            return gid
    raise DbError("unknown game %s (known: %s)" % (
        ascii(name) if not name.isprintable() else repr(name),
        ", ".join("%s (%s)" % (display_name(g), g) for g in game_names())))


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
        # fold(name): the rules core's case folding (shared_rules.names), so
        # a name finds its person by every letter, not by SQLite's NOCASE
        # (A-Z only).
        conn.create_function("fold", 1, _fold_sql, deterministic=True)

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
        if os.path.exists(path) and not _writable(path):
            raise DbError("the database %s is read-only (file permissions): nothing can be stored in it" % path)
        if not _writable(parent):
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
            left = _left_mid_write(path, e)
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
                      (device_id, _now(), _now()))
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
                    self._set_times(c, pk, device_id, bytes(journal), _parse_now(stored))
        return len(clean)

    def device_clocks(self, device_id, c=None):
        """{boot: epoch seconds at ms 0} known for a device."""
        c = c or self.conn
        return {boot: ms / 1000.0 for boot, ms in c.execute(
            "SELECT boot, epoch_ms FROM device_clocks WHERE device_id=?", (str(device_id),))}

    def _set_times(self, c, pk, device_id, journal, fallback, lines=None):
        if lines is None:
            lines = _decoded(journal)
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
            rep = _Verify().feed(io.BytesIO(journal))
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
        broken = [n for n in names if not _is_text(n)]
        if broken:  # the rules core refuses these too; SQLite could not store them
            return self._quarantine(c, device_id, game_id, journal, digest, LogError(
                1, "the player name %s is not valid text (half a character left by a broken encoding)"
                % printable(broken[0])))
        clash = _same_names(names)
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
        wrong = timesmod.doubts(_decoded(journal))
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
            _Verify().feed(io.BytesIO(prefix))
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
            (device_id, game_id, _now(), err.line, printable(err.message), excerpt, journal, digest))
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
        now = _now()
        c.execute("INSERT OR IGNORE INTO devices(id, info, first_seen, last_seen) VALUES (?, '{}', ?, ?)",
                  (device_id, now, now))
        seat_rank, winners = _placed(match)
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
        lines = _decoded(journal)
        self._set_times(c, game_pk, dev, journal, _parse_now(now), lines)
        _index_game(c, game_pk, dev, lines, prefixes)
        scores = list(state["scores"])
        pids, notes = self._seat_players(c, header["players"], now)
        for seat, rank in enumerate(seat_rank):
            c.execute("INSERT INTO results(game, seat, player, score, rank, winner) VALUES (?, ?, ?, ?, ?, ?)",
                      (game_pk, seat, pids[seat], scores[seat], rank, 1 if seat in winners else 0))
        _insert_rounds(c, game_pk, rep.rounds)
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
            game_id = _header_id(data) or _digest(canonical_lines(data))[:16]
        device_id, game_id = str(device_id), str(game_id)
        with self.write() as c:
            row = self._stored_journal(c, device_id, game_id)
            c.execute("DELETE FROM staging WHERE device_id=? AND game_id=?", (device_id, game_id))
            if row is not None and data == bytes(row[1]):
                return "unchanged", "%s/%s is already stored" % (device_id, game_id), game_id
            status, msg = self._verify_and_store(c, device_id, game_id, data, row)
        return status, msg, game_id

    # ------------------------------------------------------------ players

    def roster(self):
        """Names to push to the device: every player whose name it can show
        (at most 10 printable ASCII characters), most-played first."""
        rows = self.conn.execute(
            "SELECT p.name, COUNT(r.game) AS n FROM players p LEFT JOIN results r ON r.player = p.id "
            "GROUP BY p.id ORDER BY n DESC, p.name COLLATE NOCASE").fetchall()
        return [name for name, _ in rows if _fits_device(name) and not is_label(name)]

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
            return self._new_player(c, name, _now())

    def rename_player(self, old, new):
        """Rename; the old name stays as an alias, so games still on a
        device under the old name land on the same player."""
        check_player_name(new)
        _not_a_label(old, "rename")
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
        _not_a_label(source, "merge")
        _not_a_label(target, "merge")
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
                pid = self._new_player(c, name, _now())
            person = c.execute("SELECT name FROM players WHERE id=?", (pid,)).fetchone()[0]
            other = c.execute("SELECT seat FROM results WHERE game=? AND player=? AND seat<>?", (pk, pid, k)).fetchone()
            if other is not None:
                raise DbError("%s already sat at seat %d (%s) of game %d; one person holds one seat"
                              % (printable(person), other[0] + 1, printable(logged[other[0]]), pk))
            c.execute("UPDATE results SET player=? WHERE game=? AND seat=?", (pid, pk, k))
            return logged[k], person

    # ------------------------------------------------------------ queries

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
            "game_name": display_name(row[3]),
            "options": header.get("options") or {},
            "players": [r[1] for r in res],
            "player_ids": [r[5] for r in res],
            # BG Stats ids: the person's (kept through renames), or a seat
            # label's own for this one play (host/bgstats.source_player_id)
            "source_player_ids": [_seat_source_id(r, row[1], row[2]) for r in res],
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
            "stored": row[10],
            # When the game ended; "approx." when only the sync dates it.
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


def _is_text(value):
    """True for a str SQLite can store (no lone surrogates)."""
    try:
        str(value).encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def pc_utc_offset(now=None):
    """This PC's UTC offset in seconds east (local = UTC + offset), as the
    device's clock takes it (moontable.sync.local_epoch counts local as UTC)."""
    import calendar

    if now is None:
        now = time.time()
    return calendar.timegm(time.localtime(int(now))) - int(now)


def _not_a_label(name, verb):
    if is_label(name):
        raise DbError("%s is a seat label shared by every game played without names, not a person: "
                      "cannot %s it; say who sat there in one game with: moontable players link GAME %s NAME"
                      % (printable(name), verb, printable(name)))


def _fold_sql(name):
    from shared_rules.names import fold

    return None if name is None else fold(str(name))


def is_label(name):
    """A seat label the device gives a seat nobody named (P1, P2, ...):
    a place at one table, never a person (shared_rules.names)."""
    from shared_rules.names import is_seat_label

    return is_seat_label(name)


def header_location(header):
    """Where a game was played, from its log's header ("location"), or
    None when the header names no place (or not as text)."""
    loc = header.get("location") if isinstance(header, dict) else None
    return loc.strip() if isinstance(loc, str) and loc.strip() else None


def _seat_source_id(r, device, game_id):
    from moontable.bgstats import source_player_id

    if is_label(r[1]):
        return source_player_id("moontable", r[1], "%s/%s" % (device, game_id))
    return r[6] or "moontable-player-%d" % r[5]


def _same_names(names):
    """The first group of seat names that differ only in case ("Ann",
    "ann", "ANN"), or None: by the rules core's fold (shared_rules.names),
    which refuses these itself, so replay and import agree."""
    from shared_rules.names import fold

    seen = {}
    for name in names:
        seen.setdefault(fold(str(name)), []).append(name)
    for group in seen.values():
        if len(group) > 1:
            return group
    return None


def _parse_now(text):
    """A _now() text back to device-convention epoch seconds (local wall
    time counted as UTC), the fallback date of a game with no clock."""
    try:
        d = datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
    except (TypeError, ValueError):
        return None
    return int(d.replace(tzinfo=datetime.timezone.utc).timestamp())


def _writable(path):
    """May we write here? The permission bits count even for root, who could
    write anyway: a file or folder made read-only was made so on purpose."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return os.access(path, os.W_OK) and bool(mode & 0o222)


def not_a_regular_file(path):
    """What `path` is when it exists but is not a regular file (after
    following symbolic links): "a named pipe (FIFO)", "a device file",
    "a socket"; None for a regular file, a folder or nothing at all.
    Opening a FIFO blocks until someone writes to it, and a device file
    can be endless or replaced: neither is ever a database or a log."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device file"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return None


def _left_mid_write(path, e):
    """The sentence for a read-only open refused because a writer stopped
    mid-write (killed, or the power went) and left a journal SQLite must
    replay first: a hot `-journal`, or a `-wal` whose index needs
    rebuilding. SQLite calls that "attempt to write a readonly database"
    though the file is writable; the user needs to hear what happened
    and how to finish it. None when that is not the case."""
    text = str(e)
    if "readonly" not in text and "read-only" not in text:
        return None
    if not _writable(path) or not _writable(os.path.dirname(os.path.abspath(path))):
        return None  # truly read-only: sqlite_problem says so
    left = [path + ext for ext in ("-journal", "-wal") if os.path.exists(path + ext)]
    if not left:
        return None
    return ("the database %s was left mid-write: a moontable command was stopped (killed, or the power went) while "
            "writing it, and %s holds the unfinished change. The file is writable and what was stored before is "
            "whole, but a command that only reads never writes, so it cannot finish the repair: the next command "
            "that writes (`moontable sync` or `moontable import`) rolls the unfinished change back first. Do not "
            "delete %s."
            % (path, " and ".join(left), os.path.basename(left[0])))


def sqlite_problem(path, e):
    """SQLite's complaint about a file, in the user's terms."""
    text = str(e)
    if "readonly" in text or "read-only" in text:
        return "the database %s is read-only: nothing can be stored in it (%s)" % (path, text)
    if "full" in text:
        return "the disk holding %s is full (%s)" % (path, text)
    if "unable to open" in text:
        return "cannot open the database %s: %s (check that its folder can be read)" % (path, text)
    return "%s is not a usable moontable database: %s" % (path, text)


def _header_id(data):
    """The "id" a log's header carries, if any (device journals name their game)."""
    first = data.split(b"\n", 1)[0]
    try:
        header = _decode(first)
    except (ValueError, RecursionError):
        return None
    for key in ("id", "game_id"):
        value = header.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            text = str(value)
            if text.isprintable() and len(text) <= 64 and _is_text(text):
                return text
    return None
