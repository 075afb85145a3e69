"""The database's schema, as the steps that build it: MIGRATIONS[k] takes
a file from version k (PRAGMA user_version) to k+1, in one transaction
(Database._migrate). A step is SQL statements and callables(conn); the
callables fill what a new column or table needs from the games stored
before, by replaying their journals. Never edit a released step: add a
new one."""

import io

from moontable import times as timesmod
from moontable.journals import Verify, canonical_lines, decoded, digest, index_game, insert_rounds, placed, \
    prefix_digests
from moontable.names import is_label
from shared_rules.errors import LogError
from shared_rules.log import Replay


def _backfill_rounds(conn):
    """Version 3 keeps each round's scores; rebuild them for games stored
    before, by replaying their journals (they all passed replay once)."""
    rows = conn.execute("SELECT id, journal FROM games").fetchall()
    for game_pk, journal in rows:
        try:
            rep = Replay().feed(io.BytesIO(journal))
        except LogError:
            continue  # rules changed since; the game keeps its results, no round table
        insert_rounds(conn, game_pk, rep.rounds)

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
            start = Verify().feed(io.BytesIO(journal)).first
        except Exception:  # noqa: BLE001 - rules changed since: the game keeps what it has
            pass
        t = timesmod.game_times(decoded(journal))
        conn.execute("UPDATE games SET identity=?, head=?, start_seat=?, duration=?, approx=? WHERE id=?",
                     (digest(canon), digest(canon[:1]), start, t["seconds"], 1 if started is None else 0, game_pk))

def _backfill_v5(conn):
    """Version 5's boots and prefix hashes for games stored before."""
    rows = conn.execute("SELECT id, device_id, journal FROM games").fetchall()
    for game_pk, device_id, journal in rows:
        journal = bytes(journal)
        index_game(conn, game_pk, device_id, decoded(journal), prefix_digests(canonical_lines(journal)))

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
        ranks_now, won = placed(rep.match)
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

# MIGRATIONS[k] takes a database from version k to k+1: a list of SQL
# statements and/or callables(conn).
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
