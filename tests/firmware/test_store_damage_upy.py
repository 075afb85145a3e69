"""The store's repairs of a damaged data folder (issue 43, item 11), on the
firmware's own store modules under the real MicroPython unix port with a
capped heap (and under CPython): an index rebuilt from the game files
takes the newest back as the game in progress; a next game number no id
can carry is set past the games on flash; a journal longer than the heap
is read one line at a time, forking at the first line it may not pass;
a listing never serves a size of -1, nor an empty page with more to
follow. The checks are plain check_* functions run by both interpreters
(tests/sim/test_store_damage.py boots the whole firmware on the same
damage)."""

from store.files import Store
from store.journal import Journal
from shared_rules.wire import encode
from test_journal_kit import HEADER, Folder, closed_games

HEAP = "160K"  # the modules are compiled from source here; the longest journal (190 KB) is more than the heap


def check_a_missing_index_takes_the_newest_game_back_and_is_written_once():
    with Folder() as root:
        j = Journal(Store(root))
        ids = closed_games(j, 3)
        cur = j.new_game(HEADER)
        j.append({"type": "x"})
        j.store.remove(j.store.path("index.json"))
        j2 = Journal(Store(root))
        assert j2.current() == cur and j2.rebuilt == cur
        assert len(j2.warnings) == 1 and "rebuilt from the game files" in j2.warnings[0] and cur in j2.warnings[0]
        again = Journal(Store(root))  # written back: repaired, and told, once
        assert again.current() == cur and again.warnings == [] and again.rebuilt is None
        new = again.new_game(HEADER)
        assert new not in ids + [cur] and [g["id"] for g in again.list_games()] == ids + [cur, new]


def check_a_fresh_data_folder_is_no_repair():
    with Folder() as root:
        j = Journal(Store(root))
        assert j.current() is None and j.warnings == [] and j.store.warnings == []


def check_a_next_number_no_id_can_carry_is_set_past_the_games():
    with Folder() as root:
        j = Journal(Store(root))
        ids = closed_games(j, 2)
        for gid in ids:
            j.mark_synced(gid)
        idx = j.store.read_json("index.json")
        vol = idx["vol"]
        idx["next"] = 10000000000
        idx["synced"] = [[1, 2], [7, 10000000009]]  # the ranges of such a next: none may mark a new game synced
        j.store.write_json("index.json", idx)
        j2 = Journal(Store(root))
        gid = j2.new_game(HEADER)
        assert any("10000000000" in w and "names no game" in w for w in j2.warnings), j2.warnings
        assert gid.startswith("00003-") and gid[6:] != vol, gid  # a new tag: no id given twice
        j2.append({"type": "x"})
        rows = j2.list_games()
        assert [r["id"] for r in rows] == ids + [gid] and rows[2]["open"] and not rows[2]["synced"]
        assert rows[0]["synced"] and rows[1]["synced"]
        for bad in (-3, 1000000000):
            idx = j2.store.read_json("index.json")
            idx["next"] = bad
            j2.store.write_json("index.json", idx)
            j3 = Journal(Store(root))
            assert j3.new_game(HEADER).startswith("%05d-" % (4 if bad < 0 else 5))
            assert any("names no game" in w for w in j3.warnings), (bad, j3.warnings)


def _long_journal(j, events, refused_at, damaged=()):
    """A game in progress of `events` events, written at once; event
    `refused_at` (1-based) is one the check refuses, and the lines
    numbered in `damaged` (1-based, the header is line 1) have a byte
    changed."""
    gid = j.new_game(HEADER)
    f = open(j.path(gid), "ab")
    try:
        for k in range(1, events + 1):
            line = encode({"type": "bad" if k == refused_at else "x", "k": k, "pad": "p" * 24})
            if k + 1 in damaged:
                line = line[:8] + b"Z" + line[9:]
            f.write(line)
    finally:
        f.close()
    return gid


def check_a_journal_longer_than_the_heap_forks_at_its_first_refused_line():
    with Folder() as root:
        j = Journal(Store(root))
        gid = _long_journal(j, 3000, 66)
        seen = []

        def take(line):
            seen.append(line["type"] if len(seen) < 70 else None)
            return "no such event" if line["type"] == "bad" else None

        header, taken, warnings = j.load(gid, take)
        assert taken == 65 and len(seen) == 67 and seen[0] == "header"  # the header, 65 events, the refused one
        new = j.current()
        assert new != gid and header["continues"] == gid and header["id"] == new
        assert len(warnings) == 1 and "event 66 of game %s is refused by the rules (no such event)" % gid in warnings[0]
        kept = []
        header2, taken2, w2 = j.load(new, lambda line: kept.append(1))
        assert taken2 == 65 and w2 == [] and header2["continues"] == gid


def check_many_damaged_lines_are_told_in_one_warning():
    with Folder() as root:
        j = Journal(Store(root))
        gid = _long_journal(j, 2000, 0, damaged=range(30, 1500, 2))
        header, taken, warnings = j.load(gid, lambda line: None)
        assert taken == 28, taken
        told = [w for w in warnings if "is damaged" in w]
        assert len(told) == 1 and "line 30 is damaged" in told[0] and "(and 734 more damaged lines)" in told[0], warnings
        assert any("resumed from the 28 events before line 30" in w for w in warnings), warnings


class _Vanishing(Store):
    """games/ as a folder listing names whose files are gone when opened
    (deleted between the listing and the read, or never openable)."""

    def scan(self, *parts):
        kind = None
        for entry in Store.scan(self, *parts):
            if entry[0].endswith(".jsonl"):
                kind = entry[1]  # what the scan says of a journal file
            yield entry
        if parts == ("games",):
            for n in range(2, 7):
                yield "%05d-gone.jsonl" % n, kind


def check_a_listing_leaves_out_what_cannot_be_opened_and_never_serves_an_empty_page():
    with Folder() as root:
        j = Journal(Store(root))
        first = closed_games(j, 1)[0]
        idx = j._idx()
        idx["next"] = 7
        last = j.new_game(HEADER)
        assert last.startswith("00007-")
        j = Journal(_Vanishing(root))  # games 2-6 listed by the folder, not there
        rows, nxt, total = j.page(2, 4)  # games 2-5: none opens; the next page is served instead
        assert [r["id"] for r in rows] == [last] and nxt is None
        got = []
        start = 0
        while start is not None:
            rows, start, total = j.page(start, 4)
            assert rows or start is None
            got.extend(rows)
        assert [r["id"] for r in got] == [first, last] and all(r["size"] > 0 for r in got)


CHECKS = [name for name in sorted(globals()) if name.startswith("check_")]


def test_the_checks_under_cpython():
    for name in CHECKS:
        globals()[name]()


def test_the_checks_under_micropython():
    import os
    import re
    import subprocess

    from test_journal_upy import ROOT, micropython

    code = ("import gc, sys, test_store_damage_upy as m\n"
            "for name in m.CHECKS:\n"
            "    gc.collect()\n"
            "    getattr(m, name)()\n"
            "    print('ok', name)\n")
    env = dict(os.environ, MICROPYPATH="firmware:.:tests/firmware")
    proc = subprocess.run([micropython(), "-X", "heapsize=" + HEAP, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and len(re.findall(r"^ok check_", out, re.M)) == len(CHECKS) == 6, out
