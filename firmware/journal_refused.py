"""Resuming a game whose journal holds an event its rules refuse (a
journal an older firmware wrote: it skipped such an event at resume and
appended on). Runs at most once, at a boot that finds such a journal, so
it is a module of its own: journal_rare, loaded at every new game, does
not carry it (bench/memory.py --bits 32)."""

from journal import JournalError
from modules import call


def continue_before(journal, game_id, header, count):
    """The game in progress holds an event its rules refuse (a journal
    written by an older firmware, which skipped such an event at resume
    and appended on): close it, kept byte for byte for the PC, and
    continue as a new game holding its header and the first `count`
    events, so nothing the rules refuse is ever appended after. Returns
    the new id. Lines are counted as load() counts them (blank lines
    skipped)."""
    p = journal.path(game_id)
    header_end = -1
    end = -1
    seen = -1  # events passed (the header is -1)
    pos = 0
    f = open(p, "rb")
    try:
        while True:
            raw = f.readline()
            if not raw:
                break
            start = pos
            pos += len(raw)
            if not raw.strip():
                continue
            if seen == count:
                end = start
                break
            seen += 1
            if seen == 0:
                header_end = pos
    finally:
        f.close()
    if header_end < 0 or end < 0:
        raise JournalError("game", "game %s has no event %d" % (game_id, count + 1))
    return call("journal_rare", "_continue", journal, game_id, header, header_end, end)
