"""What a PC's sync and the Games menu read of the journal: the games
listed a page at a time, each one's committed size (a torn tail is never
served) and the synced ranges an `ack` extends. Split from store/
recovery.py because a sync asks for these request after request: this
module loads with the journal and stays, where all of recovery.py (which
loads for its call) would take a 70-83 ms pass to load on a Pico. The
layout is described in store/journal.py."""

from shared_rules.ticks import const

from store.layout import GAMES, _EXT, _FILE, JournalError, _in_ranges, game_number, valid_id

_COPY = const(512)  # bytes per step when scanning back for a line end


# --- synced game numbers, as sorted disjoint [lo, hi] ranges -----------------
def add_range(ranges, lo, hi):
    """Add lo..hi to `ranges`, merging what overlaps or touches it.
    True if anything changed."""
    n = len(ranges)
    i = 0
    while i < n and ranges[i][1] < lo - 1:
        i += 1
    j = i
    while j < n and ranges[j][0] <= hi + 1:
        j += 1
    if j == i:
        ranges.insert(i, [lo, hi])
        return True
    new = [min(lo, ranges[i][0]), max(hi, ranges[j - 1][1])]
    if j == i + 1 and ranges[i] == new:
        return False
    ranges[i] = new
    for _ in range(j - i - 1):
        ranges.pop(i + 1)
    return True


# --- listing ----------------------------------------------------------------
def _numbered(journal):
    """(number, id) of every game file, in folder order, one at a time.
    Only files: a folder or anything else named like a journal is no game
    (store/recovery.survey names it at boot)."""
    for name, kind in journal.store.scan(GAMES):
        if kind != _FILE or not name.endswith(_EXT):
            continue
        gid = name[: -len(_EXT)]
        if valid_id(gid):
            yield game_number(gid), gid


def _rows(journal, found):
    idx = journal._idx()
    rows = []
    for n, gid in found:
        size = committed_end(journal.path(gid))
        if size < 0:
            continue  # a file the scan listed that cannot be opened: no size to serve, no game to sync
        rows.append({
            "id": gid,
            "size": size,
            "open": gid == idx["cur"],
            "synced": _in_ranges(idx["synced"], n),
        })
    return rows


def page(journal, start, count):
    """Journal.page (see there). A page whose every file failed to open
    is not served empty with more to follow (a PC stops at such a page):
    the next one is read instead."""
    while True:
        rows, nxt, total = _page(journal, start, count)
        if rows or nxt is None:
            return rows, nxt, total
        start = nxt


def _page(journal, start, count):
    """One pass over games/ keeping only the page's (number, id) pairs,
    sorted as they come."""
    best = []
    total = 0
    more = False
    for n, gid in _numbered(journal):
        total += 1
        if n < start:
            continue
        if len(best) >= count and n > best[-1][0]:
            more = True
            continue
        k = len(best)
        while k > 0 and (best[k - 1][0] > n or (best[k - 1][0] == n and best[k - 1][1] > gid)):
            k -= 1
        best.insert(k, (n, gid))
        while len(best) > count and best[-1][0] != best[count - 1][0]:
            best.pop()
            more = True
    if len(best) > count and best[0][0] != best[-1][0]:
        # The last number's files straddle the page end: next page.
        last = best[-1][0]
        while best[-1][0] == last:
            best.pop()
        return _rows(journal, best), last, total
    return _rows(journal, best), (best[-1][0] + 1 if more else None), total


def list_games(journal):
    found = []
    for pair in _numbered(journal):
        found.append(pair)
    found.sort()
    return _rows(journal, found)


def mark_synced(journal, game_id):
    """Journal.mark_synced (see there)."""
    idx = journal._idx()
    if not journal.exists(game_id):
        raise JournalError("game", "no game %r on this device" % (game_id,))
    if game_id == idx["cur"]:
        raise JournalError("open", "game %s is still in progress" % game_id)
    n = game_number(game_id)
    if add_range(idx["synced"], n, n):
        journal._save()


def committed_size(journal, game_id):
    """Journal.committed_size (see there)."""
    if not valid_id(game_id):
        return -1
    p = journal.path(game_id)
    if journal.store.size(p) < 0:
        return -1  # (a folder named like a game is no game)
    return committed_end(p)


def committed_end(p):
    """The committed size of the file p: up to the end of its last
    complete line (-1 if it is gone). Also what a boot's first append
    keeps of a torn tail (store/recovery.drop_torn_tail). Opened once, its
    size from the seek to its end: each path lookup in littlefs costs a
    Pico some 5 ms, and a page of `ls` asks this for each of its rows."""
    try:
        f = open(p, "rb")
    except OSError:
        return -1
    try:
        size = f.seek(0, 2)
        if size <= 0:
            return size
        f.seek(size - 1)
        if f.read(1) == b"\n":
            return size
        return _last_line_end(f, size)
    finally:
        f.close()


def _last_line_end(f, size):
    """The offset just past the last newline in the first `size` bytes of
    the open file `f` (0 if none), read back a block at a time."""
    end = size
    while end > 0:
        start = end - _COPY if end > _COPY else 0
        f.seek(start)
        block = f.read(end - start)
        i = block.rfind(b"\n")
        if i >= 0:
            return start + i + 1
        end = start
    return 0
