"""The journal's listing: pages that read games/ once and keep only their
own rows, a cursor that neither skips nor repeats a game when one is
started mid-listing, folders named like games skipped and reported once,
leftover .tmp/.new folders at boot, and the synced games kept as number
ranges (an earlier firmware's list of ids is read too). Plain test_*
functions: CPython (pytest) and MicroPython (test_journal_upy.py)."""

import os

from store import journal
from store import listing, recovery
from store.journal import Journal
from store.files import Store
from shared_rules.wire import encode
from test_journal_kit import HEADER, Folder, closed_games, exists, read, write


def _all_pages(j, count):
    rows = []
    start = 0
    pages = 0
    while start is not None:
        page, start, total = j.page(start, count)
        assert len(page) <= count
        rows.extend(page)
        pages += 1
    return rows, pages, total


def test_pages_give_every_game_once_in_order():
    with Folder() as root:
        j = Journal(Store(root))
        ids = closed_games(j, 30)
        for gid in ids[3:9]:
            j.mark_synced(gid)
        j.delete(ids[4])
        j.delete(ids[20], force=True)
        open_id = j.new_game(HEADER)
        rows, pages, total = _all_pages(j, 8)
        assert rows == j.list_games()
        assert [r["id"] for r in rows] == [g for g in ids if g not in (ids[4], ids[20])] + [open_id]
        assert total == 29 and pages == 4
        assert [r["id"] for r in rows if r["synced"]] == [ids[3]] + ids[5:9]
        assert [r["id"] for r in rows if r["open"]] == [open_id]
        assert all(r["size"] == os.stat(j.path(r["id"]))[6] for r in rows)
        # A page past the end is empty; a start inside a gap begins after it.
        assert j.page(10 ** 6, 8) == ([], None, 29)
        assert j.page(journal.game_number(ids[20]), 2)[0][0]["id"] == ids[21]


def test_a_game_started_mid_listing_is_listed_once():
    with Folder() as root:
        j = Journal(Store(root))
        ids = closed_games(j, 12)
        first, start, _ = j.page(0, 8)
        late = j.new_game(HEADER)  # a player starts a game during the sync
        rest, nxt, total = j.page(start, 8)
        got = [r["id"] for r in first + rest]
        assert got == ids + [late] and nxt is None and total == 13


def test_files_sharing_a_number_stay_on_one_page():
    with Folder() as root:
        j = Journal(Store(root))
        closed_games(j, 3)
        # Copied in by hand: the same numbers as games 2 and 3, another tag.
        for n in (2, 3):
            write(j.path("%05d-zzzz" % n), encode(HEADER))
        rows, pages, total = _all_pages(j, 2)
        assert total == 5
        assert [r["id"][:5] for r in rows] == ["00001", "00002", "00002", "00003", "00003"]
        assert len(set(r["id"] for r in rows)) == 5


def test_a_folder_named_like_a_game_is_skipped_and_reported_once():
    with Folder() as root:
        j = Journal(Store(root))
        ids = closed_games(j, 3)
        os.mkdir(j.path("00007-abcd"))
        os.mkdir(j.path("00002-qqqq"))
        j2 = Journal(Store(root))  # a reboot finds them
        rows, pages, total = _all_pages(j2, 8)
        assert [r["id"] for r in rows] == ids and total == 3
        assert len(j2.warnings) == 1 and "is a folder, not a game" in j2.warnings[0]
        assert "and 1 more" in j2.warnings[0]
        _all_pages(j2, 2)
        assert len(j2.warnings) == 1  # once, not per listing
        assert not j2.exists("00007-abcd") and j2.committed_size("00007-abcd") == -1
        new = j2.new_game(HEADER)
        assert journal.game_number(new) == 8  # never the folder's path
        assert exists(j2.path("00007-abcd"))  # left as it was


def test_leftover_tmp_and_new_folders_at_boot():
    with Folder() as root:
        st = Store(root)
        j = Journal(st)
        done = closed_games(j, 2)
        cur = j.new_game(HEADER)
        j.append({"type": "y"})
        os.mkdir(j.path(done[0]) + ".tmp")  # empty: removed
        os.mkdir(j.path(cur) + ".new")
        os.mkdir(j.path(cur) + ".tmp")
        write(j.path(cur) + ".tmp/keep", b"mine")  # not empty: left alone
        st2 = Store(root)
        j2 = Journal(st2)
        assert j2.current() == cur
        assert not exists(j.path(done[0]) + ".tmp") and not exists(j.path(cur) + ".new")
        assert read(j.path(cur) + ".tmp/keep") == b"mine"
        text = " ".join(st2.warnings)
        assert "empty folder" in text and "with files in it" in text
        header, events, warnings = j2.load(cur)
        assert header["id"] == cur and events == [{"type": "y"}] and warnings == []
        assert [r["id"] for r in j2.list_games()] == done + [cur]


def test_synced_ranges_merge_and_read_the_old_list():
    r = []
    for n in (5, 1, 3, 2, 9, 4, 10, 4):
        listing.add_range(r, n, n)
    assert r == [[1, 5], [9, 10]]
    assert listing.add_range(r, 6, 8) and r == [[1, 10]]
    assert not listing.add_range(r, 3, 7)
    assert recovery.clean_ranges(["00003-abcd", "00004-abcd", "bad", 7, [9, 9], [5, 2], "00001-x"]) == [
        [1, 1], [3, 4], [9, 9]]
    with Folder() as root:
        st = Store(root)
        j = Journal(st)
        ids = closed_games(j, 4)
        # The index as an earlier firmware wrote it: a list of game ids.
        st.write_json(journal.INDEX, {"vol": "abcd", "next": 5, "cur": None, "synced": ids[:2], "fork": None})
        j2 = Journal(Store(root))
        assert [r["synced"] for r in j2.list_games()] == [True, True, False, False]
        j2.mark_synced(ids[3])
        j2.mark_synced(ids[2])
        assert Store(root).read_json(journal.INDEX)["synced"] == [[1, 4]]


def test_reclaim_deletes_synced_games_only_page_by_page():
    with Folder() as root:
        j = Journal(Store(root))
        ids = closed_games(j, 20)
        for gid in ids[:15]:
            j.mark_synced(gid)
        assert j.reclaim(1 << 50) is False  # cannot free that much
        assert [r["id"] for r in j.list_games()] == ids[15:]
        assert j.unsynced() == ids[15:]


def test_games_that_is_a_file_is_kept_aside_and_games_go_on():
    with Folder() as root:
        st = Store(root)
        write(st.path("games"), b"a file named games")
        j = Journal(st)
        gid = j.new_game(HEADER)
        j.append({"type": "x"})
        assert [r["id"] for r in j.list_games()] == [gid]
        assert read(st.path("games.file1")) == b"a file named games"
        assert any("games was a file" in w for w in st.warnings)


def test_a_syncs_reads_load_no_code():
    """A sync asks for a page, each game's committed size and an ack,
    request after request. The listing's code stays with the journal, so
    none of them loads a module, and never store/recovery.py: on a Pico,
    loading recovery.py (5.6 KB of .mpy) for each request made a 70-83 ms
    pass."""
    import builtins
    import sys

    import loader

    with Folder() as root:
        j = Journal(Store(root))
        ids = closed_games(j, 3)
        held = {k: sys.modules[k] for k in ("store.recovery",) if k in sys.modules}
        loader.drop(list(held))  # as in a game: the rare code is not loaded
        loads = []
        real = builtins.__import__

        def counting(name, *args):
            before = set(sys.modules)
            try:
                return real(name, *args)
            finally:
                loads.extend(k for k in sys.modules if k not in before)

        builtins.__import__ = counting
        try:
            rows, nxt, total = j.page(0, 8)
            sizes = [j.committed_size(r["id"]) for r in rows]
            j.mark_synced(ids[0])
            left = [k for k in ("store.recovery", "store.listing") if k in sys.modules]
        finally:
            builtins.__import__ = real
            for k, mod in held.items():
                sys.modules[k] = mod
                setattr(sys.modules["store"], k.split(".")[1], mod)
        assert loads == [], loads  # a page, three sizes, an ack
        assert left == ["store.listing"]  # the journal's own
        assert [r["id"] for r in rows] == ids and nxt is None and total == 3
        assert sizes == [os.stat(j.path(g))[6] for g in ids]
        assert j.is_synced(ids[0]) and not j.is_synced(ids[1])


def test_a_boots_first_append_drops_a_torn_tail_and_sizes_skip_it():
    """A power cut mid-append leaves a torn last line: the listing's size
    stops before it (a PC never copies it), and the next boot's first
    append (without a load in between) cuts it off, with a warning, so
    the new line starts on a line of its own."""
    with Folder() as root:
        j = Journal(Store(root))
        gid = j.new_game(HEADER)
        j.append({"type": "x"})
        p = j.path(gid)
        whole = os.stat(p)[6]
        with open(p, "ab") as f:
            f.write(b'{"type": "y", "tor')  # the cut
        assert j.committed_size(gid) == whole
        rows, _, _ = j.page(0, 8)
        assert [(r["id"], r["size"]) for r in rows] == [(gid, whole)]
        j2 = Journal(Store(root))  # the next boot
        j2.append({"type": "z"})
        header, events, warnings = j2.load(gid)
        assert [e["type"] for e in events] == ["x", "z"] and warnings == []
        assert any("cut off mid-write" in w for w in j2.warnings), j2.warnings
        assert j2.committed_size(gid) == os.stat(p)[6]
