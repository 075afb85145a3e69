"""The journal's code that runs rarely: at boot (counting the boot, the
first look at games/, reading the synced ranges), when a game is deleted,
when space runs low.
Reading a game back (load) and the repairs a power cut calls for (cutting
a torn tail, continuing a damaged game) are here too: they run at boot and
at a resume. It lives outside store/journal.py so that the code resident
during a game stays small: Journal imports this module for one call and
unloads it again (loader.Moment; held all the time, it took the 32-bit
heap's peak in a Game 7 round from 117.7 to 123.2 KB at 9963f65). What a sync reads
(store/listing.py) and a game's start (store/newgame.py), which run in a
loop pass the player waits on, are split from it and stay with the
journal. The layout and the
guarantees are described in store/journal.py."""

from shared_rules.ticks import const
import os

from store.layout import GAMES, INDEX, _DIR, _EXT, _FILE, _FIX, JournalError, _is_int, game_number, valid_id
from shared_rules.wire import LineError, encode
from store.layout import BOOT, CLOCKS
from store.listing import add_range, committed_end, page
from store.newgame import name as game_name, named, reserve

_COPY = const(512)  # bytes per step when copying or scanning a file


# --- synced game numbers (store/listing.py's ranges) -------------------------
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
    "b"/"ms": an uncounted boot number could be given twice). A stored
    count past shared_rules.boots.BOOT_MAX (a damaged file: no board boots
    that often) is treated as missing, so no line ever carries a number
    the PC cannot store. (Called by startup.py at boot: the app lets this
    module go after the boot.)"""
    from shared_rules.boots import BOOT_MAX, boot_key, plain_boot

    n = store.read_json(BOOT, None)
    if not plain_boot(n) or n >= BOOT_MAX:
        if n is not None:
            store.warnings.append("boot counter damaged (%s); counting on from the boots the clocks file knows"
                                  % (str(n)[:12],))
        # Missing or damaged: never go below a boot the PC may already
        # know from the clocks file.
        n = 0
        clocks = store.read_json(CLOCKS, None)
        if isinstance(clocks, dict):
            for k in clocks:
                b = boot_key(k)
                if b > n and b < BOOT_MAX:
                    n = b
    n += 1
    try:
        store.write_json(BOOT, n)
    except OSError as e:
        store.warnings.append("boot counter not saved (%s): times of this boot are not recorded" % e)
        return None
    return n


_TAG_CHARS = const("abcdefghjkmnpqrstuvwxyz23456789")
_TAG_LEN = const(4)


def _volume_tag():
    raw = os.urandom(_TAG_LEN)
    tag = ""
    for b in raw:
        tag += _TAG_CHARS[b % 31]
    return tag


def own_tag(tag):
    """True for a volume tag of the form _volume_tag draws (4 of its
    letters and digits). Anything else in index.json (a tag written by
    hand, "TAG", "../../x") would name files `ls` cannot list or a path
    outside games/, so it is replaced."""
    if not isinstance(tag, str) or len(tag) != _TAG_LEN:
        return False
    for ch in tag:
        if ch not in _TAG_CHARS:
            return False
    return True


def settle_index(journal, idx):
    """The first look at the index this boot (Journal._idx): a volume tag
    drawn if there is none (or a new one if the stored one is not of the
    firmware's own form), the synced ranges cleaned, games/ surveyed.
    Returns survey()'s (highest game number, newest game file)."""
    vol = idx.get("vol")
    if not own_tag(vol):
        if vol is not None:
            journal.warnings.append("journal index: volume tag %s is not one this firmware draws; new games get "
                                    "a new tag" % (repr(vol)[:24],))
        idx["vol"] = _volume_tag()
    idx["synced"] = clean_ranges(idx.get("synced"))
    return survey(journal)


def survey(journal):
    """The boot-time look at games/: (the highest game number, the id of
    the newest game file), leftovers of interrupted writes settled, what
    is named like a game but is no file (a folder; in a simulator's
    folder a link to nothing, which no open reaches) reported in
    journal.warnings, as `ls` leaves it out. Files are changed only after
    the folder was read."""
    st = journal.store
    top = 0
    newest = None
    best = -1
    fix = []
    strays = 0
    first = None
    first_dir = False
    odd = 0  # journals whose names are not game ids: never listed, so never synced
    odd_first = ""
    for name, kind in st.scan(GAMES):
        if name.endswith(".tmp") or name.endswith(".new"):
            if len(fix) < _FIX:
                fix.append((name, kind == _DIR))
            continue
        if not name.endswith(_EXT):
            continue
        gid = name[: -len(_EXT)]
        if not valid_id(gid):
            odd += 1
            if not odd_first:
                odd_first = name
            continue
        n = game_number(gid)
        if n > top:
            top = n  # a stray's number too: new_game must never need its path
        if kind != _FILE:
            strays += 1
            if first is None:
                first = name
                first_dir = kind == _DIR
        elif n > best or (n == best and gid > newest):
            best = n
            newest = gid
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
        journal.warnings.append("games/%s%s %s: skipped" % (
            first, "" if strays == 1 else " (and %d more)" % (strays - 1),
            "is a folder, not a game" if first_dir else "cannot be opened as a file, so it is no game"))
    if odd:
        journal.warnings.append("games/%s%s is not named like a game (NNNNN-tag.jsonl): not listed, so a PC "
                                "cannot sync it" % (str(odd_first)[:40], "" if odd == 1 else " (and %d more)" % (odd - 1)))
    return top, newest


# --- the Games menu and low space --------------------------------------------
def reclaim(journal, need):
    """Journal.reclaim (see there), a page at a time."""
    free = journal.store.free_bytes
    start = 0
    while free() < need and start is not None:
        rows, start, _ = page(journal, start, 8)
        for g in rows:
            if g["synced"] and not g["open"]:
                delete(journal, g["id"])
                if free() >= need:
                    return True
    return free() >= need


def delete(journal, game_id, force=False):
    """Journal.delete (see there)."""
    idx = journal._idx()
    if not journal.exists(game_id):
        raise JournalError("game", "no game %r on this device" % (game_id,))
    if not force:
        if game_id == idx["cur"]:
            raise JournalError("open", "game %s is still in progress" % game_id)
        if not journal.is_synced(game_id):
            raise JournalError("unsynced", "game %s has not been synced to a PC yet" % game_id)
    journal.store.remove(journal.path(game_id))
    if game_id == idx["cur"]:
        idx["cur"] = None
        journal._save()


# --- reading back, and the repairs a power cut calls for ----------------------
def load(journal, game_id, take=None):
    """Journal.load (see there). One line in memory at a time: with
    `take`, no event is kept at all."""
    # (imported here: a boot's first append, a deletion and a low flash
    # load this module too, and need no line reader)
    from shared_rules.wire_read import decode

    warnings = []
    if not journal.exists(game_id):
        raise JournalError("game", "no game %r on this device" % (game_id,))
    p = journal.path(game_id)
    header = None
    header_end = 0
    events = []  # (left empty with `take`)
    n = 0  # events passed on
    bad = None  # (lineno, start offset, reason) of the first damaged line
    more = 0  # damaged lines after it
    stop = None  # (lineno, start) of the first line not passed on: damaged, or refused
    refused = None  # why `take` refused it
    last = None  # the last line's (lineno, start, reason), when it is damaged
    pos = 0
    lineno = 0
    f = open(p, "rb")
    try:
        while True:
            raw = f.readline()
            if not raw:
                break
            lineno += 1
            start = pos
            pos += len(raw)
            if not raw.strip():
                continue
            last = None
            try:
                if not raw.endswith(b"\n"):
                    raise LineError("truncated", "line ends mid-record")
                obj = decode(raw, need_crc=True)
            except LineError as e:
                last = (lineno, start, str(e))
                if bad is None:
                    bad = last
                else:
                    more += 1
                if stop is None:
                    stop = last
                continue
            if stop is not None:
                continue  # read on only to find damage: nothing past here is passed on
            if header is None:
                header = obj
                header_end = pos
                if take is not None:
                    take(obj)
                continue
            if take is None:
                events.append(obj)
            else:
                refused = take(obj)
                if refused is not None:
                    stop = (lineno, start)
                    continue
            n += 1
    finally:
        f.close()
    if last is not None:
        _cut(journal, game_id, last[1])
        warnings.append("game %s: last line %d was cut off or damaged (%s) and was dropped" % (game_id, last[0], last[2]))
        if last is bad:
            bad = None
        else:
            more -= 1
        if stop is last:
            stop = None
    if bad is not None:
        warnings.append("game %s: line %d is damaged (%s); kept for the PC%s"
                        % (game_id, bad[0], bad[2], " (and %d more damaged lines)" % more if more else ""))
    is_current = game_id == journal._idx()["cur"]
    if journal.store.size(p) == 0:
        # At most a torn header was there: nothing was ever committed.
        journal.store.remove(p)
        if is_current:
            journal.finish(game_id)
        warnings.append("game %s held no complete line and was removed" % game_id)
        header = None
    elif is_current:
        journal._clean = game_id  # tail checked: appends start clean
        if bad and header is None:
            journal.finish(game_id)
            warnings.append("game %s cannot be resumed: its header is damaged" % game_id)
        elif stop is not None:
            # Never append after a line that cannot be trusted or replayed:
            # the game goes on as a new one from the events before it.
            new_id = _continue(journal, game_id, header, header_end, stop[1])
            if refused is not None:
                warnings.append("event %d of game %s is refused by the rules (%s): resumed from the %d events before "
                                "it, as game %s; the rest stays in game %s for the PC"
                                % (n + 1, game_id, refused, n, new_id, game_id))
            else:
                warnings.append("resumed from the %d events before line %d, as game %s" % (n, stop[0], new_id))
            header = named(header, new_id, game_id)
    elif refused is not None:
        warnings.append("event %d of game %s is refused by the rules (%s): read up to it" % (n + 1, game_id, refused))
    return header, (events if take is None else n), warnings


def _copy_prefix(journal, src, dst, length, start=0, lead=b""):
    """Write lead + bytes [start, length) of src to dst, flushed."""
    fi = open(src, "rb")
    try:
        fi.seek(start)
        fo = open(dst, "wb")
        try:
            fo.write(lead)
            left = length - start
            while left > 0:
                block = fi.read(_COPY if left > _COPY else left)
                if not block:
                    break
                fo.write(block)
                left -= len(block)
            fo.flush()
        finally:
            fo.close()
    finally:
        fi.close()
    journal.store.sync()


def _cut(journal, game_id, length):
    """Shorten a game file to `length` bytes (MicroPython files have no
    truncate): copy the prefix to a tmp file and rename it over. A power
    cut leaves the old file (tmp removed at boot) or the new one."""
    p = journal.path(game_id)
    _copy_prefix(journal, p, p + ".tmp", length)
    journal.store.replace(p + ".tmp", p)


def drop_torn_tail(journal, game_id):
    """Before the first append of a boot: a last line cut off mid-write is
    dropped, so the new line starts on a line of its own."""
    p = journal.path(game_id)
    size = journal.store.size(p)
    if size <= 0:
        return
    keep = committed_end(p)
    if keep < 0 or keep == size:
        return
    _cut(journal, game_id, keep)
    journal.warnings.append("game %s: a line cut off mid-write was dropped" % game_id)


def _continue(journal, game_id, header, header_end, length):
    """Close a damaged game in progress and start its continuation: its
    header (naming the new id and the game it continues), then a byte
    copy of the good event lines [header_end, length)."""
    # Name the continuation current before its file exists, remembering
    # where it comes from: a power cut during the copy falls back to the
    # damaged game (see Journal.current), never leaves a second half-copy.
    new_id = reserve(journal, game_id)
    dst = journal.path(new_id)
    lead = encode(named(header, new_id, game_id))
    _copy_prefix(journal, journal.path(game_id), dst + ".new", length, header_end, lead)
    os.rename(dst + ".new", dst)
    journal.store.sync()
    journal._idx()["fork"] = None
    journal._save()
    journal._clean = new_id
    return new_id


def load_index(journal):
    """Journal._idx's first call this boot: the index read (or rebuilt from
    the game files when it is damaged or missing), settled, and its next
    game number set past every game on flash. A repair is written back at
    once, so that it is made, and reported, once.

    A rebuilt index takes the newest game file as the game in progress:
    starting a game closes the one before, so only the newest can have
    been open. It may have been closed at its end: resume.py closes it
    again if so (Journal.rebuilt). Its synced ranges are lost with it:
    the PC is offered every game again, and acks those it has."""
    st = journal.store
    st.ensure_dir(GAMES)
    idx = st.read_json(INDEX, None)
    damaged = idx is not None
    rebuild = not isinstance(idx, dict) or not _is_int(idx.get("next"))
    if rebuild:
        idx = {"vol": None, "next": 1, "cur": None, "synced": [], "fork": None}
    top, newest = settle_index(journal, idx)
    repaired = rebuild and (newest or damaged)
    if repaired:
        idx["cur"] = journal.rebuilt = newest
        journal.warnings.append("journal index rebuilt from the game files%s" % (
            "; the newest, %s, is resumed unless it had ended" % newest if newest else ""))
    n = idx["next"]
    if not valid_id(game_name(n, idx["vol"])):
        # A number the next game cannot be named by (its file would be no
        # game: never listed, never appended to). Games go on past the
        # highest on flash, with a new tag so that no id a PC may hold is
        # given again, and no synced range reaches them.
        journal.warnings.append("journal index: next game number %s names no game; new games go on from %d"
                                % (str(n)[:14], top + 1))
        idx["vol"] = _volume_tag()
        ranges = idx["synced"]
        while ranges and ranges[-1][0] > top:
            ranges.pop()
        if ranges and ranges[-1][1] > top:
            ranges[-1][1] = top
        n = 0
        repaired = True
    if n <= top:
        n = top + 1
    idx["next"] = n
    journal._index = idx
    if repaired:
        try:
            journal._save()
        except OSError:
            pass  # (a flash too full for it: repaired again at the next boot)
    return idx
