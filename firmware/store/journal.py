"""Game journals on flash: one append-only file per game, one line per event.

Layout under the data folder:
    games/<id>.jsonl   the header line, then one line per accepted event,
                       each a `shared_rules.wire` line (JSON, TAB, CRC32, LF)
    index.json         {"vol", "next", "cur", "synced", "fork"}, written atomically;
                       rebuilt from the game files when damaged or missing
                       (store.recovery.load_index)
    boot.json          the boot counter (store.recovery.count_boot), written atomically

Game ids look like "00012-k3f9": a counter that only grows (the index keeps
it, and it is never below the highest id on flash) and a volume tag drawn
when the data folder is first used. The tag keeps ids unique for the PC even
if the flash is wiped and the counter starts again. Because a number is
never used twice on one device, the index keeps the synced games as ranges
of numbers ([[1, 130], [132, 140]]): a sync acknowledges every finished
game, so the list stays a few pairs long however many games are on flash.

Nothing here holds a list of every game: games/ is read one entry at a
time (Store.scan) and the serial protocol lists it in pages (`page`), so a
board with thousands of games lists them in the same memory as one with
ten. Something in games/ that is not a game file (a folder named like one,
a name no open reaches, a stray name) is skipped and reported once, at boot.

Times: a Pico has no battery-backed clock. Every line written (header and
events) records "b", the boot counter, and "ms", milliseconds since the app
started in that boot (Uptime: monotonic, it counts the wraps of ticks_ms).
The protocol stores, per boot, the epoch time at ms 0 once a PC sets the
clock, so the PC dates every line, even those written before the clock was
set. Events also get "t" (epoch seconds) from the app when the clock is
known.

Power can be cut at any moment:
- `append` writes one whole line, flushes and syncs before returning, so an
  event the screen confirmed is on flash.
- A torn or corrupt LAST line (cut mid-write) is dropped by `load` (and before
  the first append after boot): the file is cut back to the last good line
  end, so later appends start clean, and a warning says so.
- A corrupt EARLIER line is never fixed. The file stays byte for byte as it
  is, for the PC (which quarantines it, naming the line). If it is the game
  in progress, `load` resumes from the events before the first bad line, in
  a new game that continues it: the damaged file is closed and kept, and the
  new one starts with the same header and a copy of the good lines. Events
  after the bad line cannot be trusted in order, so they are not replayed.
- A game is closed by `finish` or by starting another. Closed games stay
  until a PC has synced them: `delete` refuses an unsynced game unless
  forced, and `reclaim` frees space from synced games only.
"""

from shared_rules.ticks import const
from loader import Moment
from store import listing, newgame
from shared_rules.wire import encode
from store.layout import GAMES, INDEX, JournalError, _EXT, _in_ranges, _is_int, game_number, valid_id  # noqa: F401

# Below this many free bytes the app should warn and offer to free space.
_LOW_SPACE = const(16384)


def _recovery(name, *args):
    """store.recovery's function `name` called with `args`: the journal's
    rare code (reading a game back, the index's rebuild, a torn tail,
    deleting, reclaiming) loads for the one call and goes after it
    (store/recovery.py says why)."""
    with Moment():
        from store import recovery

        return getattr(recovery, name)(*args)


# --- time ------------------------------------------------------------------
class Uptime:
    """Monotonic time within one boot: `boot` (this power-up's number from
    store.recovery.count_boot, None when it could not be counted) and ms(), milliseconds
    since the app started. ticks_ms wraps every 2**30 ms (12.4 days); each
    reading counts a wrap it sees, so ms() keeps growing as long as it is
    read at least once per wrap period (every journal line and every
    `hello` reads it; the app's loop should too)."""

    def __init__(self, ticks_ms, boot):
        self.boot = boot
        self._ticks = ticks_ms
        self._start = self._last = ticks_ms()
        self._wraps = 0

    def ms(self):
        t = self._ticks()
        if t < self._last:
            self._wraps += 1
        self._last = t
        return (self._wraps << 30) + t - self._start


class Journal:
    """Games on flash. All writes go through here; readers (the serial
    protocol) use `path`, `committed_size` and `page`.

    clock: an Uptime; when given, every line written gets "b" and "ms"."""

    def __init__(self, store, clock=None):
        self.store = store
        self.clock = clock
        self.warnings = []  # found outside load() (which returns its own): for the app to show
        self._index = None
        self._clean = None  # id of the game whose tail was checked this boot
        self.rebuilt = None  # the game a rebuilt index took as in progress (store/recovery.load_index)

    # --- index -----------------------------------------------------------
    def _idx(self):
        if self._index is not None:
            return self._index
        return _recovery("load_index", self)

    def _save(self):
        self.store.write_json(INDEX, self._index)

    # --- paths and sizes -------------------------------------------------
    def path(self, game_id):
        return self.store.path(GAMES, game_id + _EXT)

    def exists(self, game_id):
        return valid_id(game_id) and self.store.is_file(self.path(game_id))

    def committed_size(self, game_id):
        """Bytes up to the end of the last complete line (what a PC may
        copy: a torn tail is never served). -1 if there is no such game."""
        return listing.committed_size(self, game_id)

    # --- games -----------------------------------------------------------
    def current(self):
        """Id of the game in progress, or None."""
        idx = self._idx()
        cur = idx["cur"]
        if cur is not None and not self.exists(cur):
            # Power was cut after the index named the game, before its file:
            # a new game had nothing in it yet; a continuation falls back to
            # the damaged game it was being copied from.
            back = idx.get("fork")
            idx["cur"] = back if back and self.exists(back) else None
            idx["fork"] = None
            self._save()
            return idx["cur"]
        return cur

    def _stamp(self, obj):
        """Add this boot's "b" and "ms" to a line about to be written."""
        c = self.clock
        if c is not None and c.boot is not None:
            obj["b"] = c.boot
            obj["ms"] = c.ms()

    def new_game(self, header):
        """Start a game (closing any game in progress); returns its id.

        The index reserves the id before the file exists, so a power cut
        between the two can waste an id but never reuse one. (Once a game:
        store/newgame.py.)"""
        return newgame.new_game(self, header)

    def append(self, event):
        """Append one event to the game in progress, on flash on return.
        The event gets this boot's "b" and "ms" (see the module docstring)."""
        game_id = self.current()
        if game_id is None:
            raise JournalError("game", "no game in progress")
        if self._clean != game_id:
            _recovery("drop_torn_tail", self, game_id)
            self._clean = game_id
        self._stamp(event)
        line = encode(event)
        f = open(self.path(game_id), "ab")
        try:
            try:
                f.write(line)
                f.flush()
            finally:
                f.close()
        except Exception:
            self._clean = None  # a partial line may be there: check again
            raise
        self.store.sync()

    def finish(self, game_id=None):
        """Close the game in progress (it can then be synced). Passing an id
        that is no longer current (it was replaced by a continuation at
        load) does nothing."""
        idx = self._idx()
        if idx["cur"] is not None and (game_id is None or game_id == idx["cur"]):
            idx["cur"] = None
            self._save()

    # --- listing (store/listing.py) -----------------------------------------
    def newest(self):
        """The number the newest game was given (0 before any): a start
        closes the game before it, so only this one can have been in play."""
        return self._idx()["next"] - 1

    def page(self, start=0, count=8):
        """One page of the games, oldest first, in memory that does not
        grow with the number of games: (rows, next, total).

        rows: [{"id", "size", "open", "synced"}] for up to `count` games
        numbered `start` or more (size counts complete lines only, see
        committed_size); next: the `start` of the following page, None
        after the last; total: every game on flash. games/ is read once,
        keeping only the page's entries. Game numbers are unique on a
        device; should files copied in share one, they stay on one page
        (which holds more than `count` only if more than `count` share it)."""
        return listing.page(self, start, count)

    def list_games(self):
        """Every game as page() rows, oldest first. Memory grows with the
        number of games: for a screen of the device; the protocol pages."""
        return listing.list_games(self)

    def is_synced(self, game_id):
        return _in_ranges(self._idx()["synced"], game_number(game_id))

    def mark_synced(self, game_id):
        """Record that a PC has stored the game (idempotent)."""
        listing.mark_synced(self, game_id)

    def delete(self, game_id, force=False):
        """Remove a game from flash. Refuses a game no PC has synced, and
        the game in progress, unless `force` (the app asks the player).
        Its number stays in the synced ranges: it is never used again."""
        _recovery("delete", self, game_id, force)

    # --- space -----------------------------------------------------------
    def space_low(self, threshold=_LOW_SPACE):
        return self.store.free_bytes() < threshold

    def unsynced(self):
        """Ids of closed games no PC has synced (oldest first)."""
        return [g["id"] for g in self.list_games() if not g["open"] and not g["synced"]]

    def reclaim(self, need=_LOW_SPACE):
        """Delete synced games, oldest first, until `need` bytes are free.
        Returns True if that much is free; never touches an unsynced game,
        so on False the app must ask the player what to delete."""
        return _recovery("reclaim", self, need)

    # --- reading back ----------------------------------------------------
    def load(self, game_id, take=None):
        """(header, events, warnings) for a game, as far as it can be trusted.

        A torn or corrupt last line is cut off the file (reported). Earlier
        corrupt lines are reported and left in place; events are returned
        up to the first of them, and if the game is the one in progress it
        continues as a new game (see the module docstring): call current()
        afterwards for its id. header is None when no header line is sound.

        take: instead of a list of events (a journal may be longer than
        the heap), take(line) is called with the header line, then with
        each event in turn, and `events` is how many it took. It returns
        None, or why it refuses an event: none after it is passed, and
        the game in progress continues as a new game from the events
        before it, as it does at a damaged line. The file is read one
        line at a time either way."""
        return _recovery("load", self, game_id, take)
