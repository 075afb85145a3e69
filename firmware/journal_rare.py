"""The journal's code that runs rarely: at boot (counting the boot, the
first look at games/, reading the synced ranges), when a PC lists or
acknowledges games, when the Games menu lists them, when space runs low.
It lives outside journal.py so that the code resident during a game (the
journal's append path) stays small: Journal imports this module for one
call and unloads it again (journal.py, _rare). The layout and the
guarantees are described in journal.py."""

from journal import GAMES, _EXT, _FIX, _in_ranges, _is_int, game_number, valid_id
from storage import BOOT, CLOCKS


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


def clean_ranges(value):
    """The index's "synced" as ranges, whatever was stored: ranges, the
    list of game ids an earlier firmware kept, or garbage (nothing)."""
    out = []
    if not isinstance(value, list):
        return out
    for r in value:
        if isinstance(r, str):
            n = game_number(r) if valid_id(r) else -1
            if n >= 0:
                add_range(out, n, n)
        elif isinstance(r, list) and len(r) == 2 and _is_int(r[0]) and _is_int(r[1]) and 0 <= r[0] <= r[1]:
            add_range(out, r[0], r[1])
    return out


# --- boot -----------------------------------------------------------------
def count_boot(store):
    """Count this boot in flash (atomically) and return its number, 1 on a
    fresh data folder; None if it cannot be stored (lines then carry no
    "b"/"ms": an uncounted boot number could be given twice)."""
    n = store.read_json(BOOT, None)
    if not _is_int(n) or n < 0:
        # Missing or damaged: never go below a boot the PC may already
        # know from the clocks file.
        n = 0
        clocks = store.read_json(CLOCKS, None)
        if isinstance(clocks, dict):
            for k in clocks:
                if isinstance(k, str) and k.isdigit() and int(k) > n:
                    n = int(k)
    n += 1
    try:
        store.write_json(BOOT, n)
    except OSError as e:
        store.warnings.append("boot counter not saved (%s): times of this boot are not recorded" % e)
        return None
    return n


def survey(journal):
    """The boot-time look at games/: the highest game number, leftovers of
    interrupted writes settled, folders named like games reported (in
    journal.warnings). Files are changed only after the folder was read."""
    st = journal.store
    top = 0
    fix = []
    strays = 0
    first = None
    for name, is_dir in st.scan(GAMES):
        if name.endswith(".tmp") or name.endswith(".new"):
            if len(fix) < _FIX:
                fix.append((name, is_dir))
            continue
        if not name.endswith(_EXT):
            continue
        gid = name[: -len(_EXT)]
        if not valid_id(gid):
            continue
        n = game_number(gid)
        if n > top:
            top = n  # a folder's number too: new_game must never need its path
        if is_dir:
            strays += 1
            if first is None:
                first = name
    for name, is_dir in fix:
        p = st.path(GAMES, name)
        if is_dir:
            st.clear_folder(p)
        elif name.endswith(".tmp"):
            # A tail repair cut short by a power cut: finish or undo it.
            st.recover(p[:-4])
        else:
            # A continuation copy cut short: current() goes back to the
            # damaged game, whose next load copies it again.
            st.remove(p)
    if strays:
        journal.warnings.append("games/%s%s is a folder, not a game: skipped" % (
            first, "" if strays == 1 else " (and %d more)" % (strays - 1)))
    return top


# --- listing ----------------------------------------------------------------
def _numbered(journal):
    """(number, id) of every game file, in folder order, one at a time."""
    for name, is_dir in journal.store.scan(GAMES):
        if is_dir or not name.endswith(_EXT):
            continue
        gid = name[: -len(_EXT)]
        if valid_id(gid):
            yield game_number(gid), gid


def _rows(journal, found):
    idx = journal._idx()
    rows = []
    for n, gid in found:
        rows.append({
            "id": gid,
            "size": journal.committed_size(gid),
            "open": gid == idx["cur"],
            "synced": _in_ranges(idx["synced"], n),
        })
    return rows


def page(journal, start, count):
    """Journal.page (see there): one pass over games/ keeping only the
    page's (number, id) pairs, sorted as they come."""
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


def reclaim(journal, need):
    """Journal.reclaim (see there), a page at a time."""
    free = journal.store.free_bytes
    start = 0
    while free() < need and start is not None:
        rows, start, _ = page(journal, start, 8)
        for g in rows:
            if g["synced"] and not g["open"]:
                journal.delete(g["id"])
                if free() >= need:
                    return True
    return free() >= need
