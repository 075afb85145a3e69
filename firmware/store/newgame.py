"""A game's start in the journal: the index's next id taken, the header
written. Split from store/recovery.py (which continues a damaged game
with the same two steps) so that a start loads only these: on a Pico the
start's pass that loaded all of recovery.py took 106 ms in the evening
(its code 46 ms of it). It loads with the journal and stays. The layout
is described in store/journal.py."""

from shared_rules.wire import encode


def reserve(journal, fork):
    """Take the next game id, make it the current game in the index
    (`fork`: the damaged game it continues, or None) and save the index."""
    idx = journal._idx()
    n = idx["next"]
    game_id = name(n, idx["vol"])
    idx["next"] = n + 1
    idx["cur"] = game_id
    idx["fork"] = fork
    journal._save()
    return game_id


def name(n, vol):
    """The id game number n gets on volume `vol` (store/recovery.py
    checks the index's next number by it at boot)."""
    return "%05d-%s" % (n, vol)


def new_game(journal, header):
    """Journal.new_game (see there)."""
    game_id = reserve(journal, None)
    head = named(header, game_id)
    journal._stamp(head)
    line = encode(head)
    f = open(journal.path(game_id), "wb")
    try:
        f.write(line)
        f.flush()
    finally:
        f.close()
    journal.store.sync()
    journal._clean = game_id
    return game_id


def named(header, game_id, origin=None):
    """The header as written: a copy carrying the game id (so a journal
    copied off the device still says which game it is) and, for a
    continuation, the id of the damaged game it continues."""
    out = {}
    for key in header:
        out[key] = header[key]
    out["id"] = game_id
    if origin is not None:
        out["continues"] = origin
    return out
