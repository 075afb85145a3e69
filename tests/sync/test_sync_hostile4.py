"""`moontable sync` against the hostile devices of issue 44: a listing
with one journal the device cannot size, a chunk that runs past the size
listed or the bytes asked for, a device whose id holds a "/", and a hello
whose fields have the wrong type. Each ends in a sync that stores what it
can and names what it left, or in one line saying what was wrong; nothing
is lost, and nothing is stored wrongly.

The device is the real firmware protocol under the real MicroPython
behind a real pty (synckit.Device); where it must say what the firmware
never says, a relay rewrites its replies (or the PC's requests) on the
way. The PC side is the real pyserial and the real SQLite file."""

import json
import os
import random
import shutil

import pytest

import synckit
from moontable.cli import main
from moontable.db import Database
from moontable.dberror import DbError
from moontable.names import check_device_name
from shared_rules import RULES_VERSION
from shared_rules.wire import encode

SOUND = "10"
GAMES = 6  # two pages of `ls` (4 games a page)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("hostile4") / "data")
    synckit.make_device(folder, games=GAMES, open_game=False, seed=44, max_events=30)
    return folder


def device_copy(pristine, tmp_path, name="data"):
    folder = str(tmp_path / name)
    shutil.copytree(pristine, folder)
    return folder


def sync_through(folder, db_path, capsys, rewrite=None, ask=None, as_json=True):
    """`moontable sync --json` through a relay that rewrites the device's
    replies (`rewrite`) and the PC's requests (`ask`): (exit status,
    stderr, the JSON outcome or None). as_json=False: the plain output."""
    dev = synckit.Device(folder, device_id="dev-4")
    faults = synckit.Faults(random.Random(1), rewrite=rewrite or (lambda r: r), ask=ask)
    relay = synckit.Relay(dev, faults)
    try:
        status = main(["sync", "--port", relay.path, "--db", str(db_path), "--quiet", "--timeout", SOUND]
                      + (["--json"] if as_json else []))
    finally:
        relay.close()
        dev.close()
    out = capsys.readouterr()
    if not as_json:
        return status, out.err, out.out
    return status, out.err, json.loads(out.out) if out.out.strip() else None


def one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def game_ids(folder):
    return sorted(name[:-6] for name in os.listdir(os.path.join(folder, "games")) if name.endswith(".jsonl"))


def listed_at(gid, size):
    """A rewrite of `ls` replies: game `gid` listed with this size."""
    def rewrite(reply):
        for entry in reply.get("games") or []:
            if entry[0] == gid:
                entry[1] = size
        return reply
    return rewrite


# --- one journal the device cannot size -------------------------------------------------
@pytest.mark.parametrize("size, shown", [(-1, "the number -1"), ("812", "the text '812'"), (True, "true"),
                                         (1.5, "the number 1.5"), (None, "null")])
def test_a_game_listed_without_a_usable_size_is_skipped_and_named(pristine, tmp_path, capsys, size, shown):
    """Before: the PC refused the whole listing ("malformed entry ... the
    size is not a whole number of bytes"), so every sync exited 2 and no
    game was ever synced. Now that game is left out with one warning line
    naming it, and the rest are synced; it syncs once the device lists a
    size for it."""
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"
    bad = game_ids(folder)[1]
    status, err, res = sync_through(folder, db_path, capsys, rewrite=listed_at(bad, size))
    assert status == 0 and "Traceback" not in err, err
    assert sorted(res["stored"]) == [g for g in game_ids(folder) if g != bad]
    assert bad not in res["acked"]
    named = [w for w in res["warnings"] if bad in w]
    assert len(named) == 1 and "skipped" in named[0], res["warnings"]
    assert "the device lists its size as %s, not a size in bytes" % shown in named[0]
    # The next sync, with the device sizing it again, brings it.
    status, err, res = sync_through(folder, db_path, capsys)
    assert status == 0 and res["stored"] == [bad] and res["warnings"] == [], err


def test_the_skipped_game_is_one_warning_line_in_the_plain_output(pristine, tmp_path, capsys):
    folder = device_copy(pristine, tmp_path)
    bad = game_ids(folder)[0]
    status, err, out = sync_through(folder, tmp_path / "m.db", capsys, rewrite=listed_at(bad, -1), as_json=False)
    assert status == 0 and err == ""
    lines = [line for line in out.splitlines() if bad in line]
    assert len(lines) == 1 and lines[0].startswith("warning: game %s skipped: " % bad), out
    assert "%d new games stored" % (GAMES - 1) in out


# --- a chunk past the size listed, or past what was asked -----------------------------------
def with_a_trailing_undo(folder):
    """One more game on the device, played to its end (some 100 events:
    several reads), its journal then given one more sound line
    ({"type": "undo"}): (game id, the size it had before, its events)."""
    from store.journal import Journal

    j = Journal(synckit.fast_store(folder))
    header, played = synckit.moonstar_game(["Ann", "Bob", "Cy"], 4401)
    gid = j.new_game(header)
    for ev in played:
        j.append(ev)
    j.finish(gid)
    path = j.path(gid)
    size = os.path.getsize(path)
    with open(path, "ab") as f:
        f.write(encode({"type": "undo"}))
    with open(path, "rb") as f:
        events = len(f.read()[:size].splitlines()) - 1  # the header is no event
    assert events == len(played) and size > 2 * 2048
    return gid, size, events


def stored_game(db_path, dev, gid):
    db = Database.open(str(db_path))
    try:
        return db.game(db.game_pk("%s/%s" % (dev, gid)))
    finally:
        db.close()


def test_bytes_past_the_listed_size_are_never_stored(pristine, tmp_path, capsys):
    """The device lists a game at the size of its finished journal, and
    holds one more line ({"type":"undo"}) after it. Before: the PC asked
    for up to 2048 bytes and took the undo too (checks matching), storing
    one event more and the game "not finished". Now it asks only for the
    listed bytes: the game as listed, finished, with its winner."""
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"
    gid, size, events = with_a_trailing_undo(folder)
    status, err, res = sync_through(folder, db_path, capsys, rewrite=listed_at(gid, size))
    assert status == 0 and gid in res["stored"], err
    g = stored_game(db_path, "dev-4", gid)
    assert g["finished"] is True and g["events"] == events and g["winners"]
    assert len(g["journal"]) == size


@pytest.mark.parametrize("times", [1, 99], ids=["once", "every-time"])
def test_a_chunk_past_what_was_asked_is_a_bad_reply(pristine, tmp_path, capsys, times):
    """A device that ignores the "n" of a read (the relay strips it on
    the way: the firmware then sends up to 2048 bytes) answers the last
    read with the undo line the PC did not ask for. That reply is dropped
    and asked again, as a garbled one is: once, and the sync ends as a
    sound one does; every time, and the sync stops (exit 1) saying so,
    with nothing stored wrongly, and the next sound sync gets the game
    right."""
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"
    gid, size, events = with_a_trailing_undo(folder)
    left = [times]

    def ignore_n(request):
        if request.get("c") == "rd" and request.get("g") == gid and left[0]:
            left[0] -= 1
            request.pop("n", None)
        return request

    status, err, res = sync_through(folder, db_path, capsys, rewrite=listed_at(gid, size), ask=ignore_n)
    if times == 1:
        assert status == 0 and gid in res["stored"], err
    else:
        assert status == 1
        line = err.strip().splitlines()[0]
        assert "'rd'" in line and "past the" in line and "asked for" in line, err
        assert "Nothing received so far is lost" in err
        db = Database.open(str(db_path))
        try:
            assert not db.is_stored("dev-4", gid) and db.staged_size("dev-4", gid) <= size
        finally:
            db.close()
        status, err, res = sync_through(folder, db_path, capsys, rewrite=listed_at(gid, size))
        assert status == 0 and res["stored"] == [gid], err
    g = stored_game(db_path, "dev-4", gid)
    assert g["finished"] is True and g["events"] == events and g["winners"]
    assert len(g["journal"]) == size


# --- a device id with "/" --------------------------------------------------------------------
@pytest.mark.parametrize("dev_id", ["club/pico", " pico", "pico\u200b", "p" * 65])
def test_a_device_id_import_would_refuse_is_refused_by_sync(pristine, tmp_path, capsys, dev_id):
    """Before: `import --device club/pico` was refused but a hello naming
    club/pico was taken, the game stored as club/pico/00001-..., and
    `show` could never find it. Now the sync's id goes through import's
    own check (names.check_device_name), with its words, and nothing is
    made."""
    folder = device_copy(pristine, tmp_path)
    db_path = tmp_path / "m.db"
    status, err, res = sync_through(folder, db_path, capsys,
                                    rewrite=lambda r: dict(r, id=dev_id) if "proto" in r else r)
    assert status == 2 and res is None
    line = one_line(err)
    with pytest.raises(DbError) as why:
        check_device_name(dev_id)
    assert str(why.value) in line and "hello" in line and "Nothing received so far is lost" in line
    assert not db_path.exists()


# --- hello fields of the wrong type ----------------------------------------------------------
@pytest.mark.parametrize("rules, words", [
    (str(RULES_VERSION), "the device's rules version is the text '%d', not a whole number" % RULES_VERSION),
    (True, "the device's rules version is true, not a whole number"),
    (float(RULES_VERSION), "the device's rules version is the number %r, not a whole number" % float(RULES_VERSION)),
    (RULES_VERSION + 1, "the device runs rules version %d, this PC %d" % (RULES_VERSION + 1, RULES_VERSION)),
    (None, "the device's rules version is null, not a whole number"),
])
def test_the_rules_version_warning_says_what_the_device_sent(pristine, tmp_path, capsys, rules, words):
    """Before: "device runs rules version '1', this PC 1" for the text
    '1' (and nothing at all for true or 1.0, which Python takes for 1)."""
    folder = device_copy(pristine, tmp_path)
    status, err, res = sync_through(folder, tmp_path / "m.db", capsys,
                                    rewrite=lambda r: dict(r, rules=rules) if "proto" in r else r)
    assert status == 0 and len(res["stored"]) == GAMES, err
    said = [w for w in res["warnings"] if "rules version" in w]
    assert len(said) == 1 and said[0].startswith(words), res["warnings"]


def test_a_boot_in_both_the_hello_and_its_clocks_is_named_once(pristine, tmp_path, capsys):
    """Before: "names 2 boots ... ('2147483648', 2147483648)": the hello's
    boot and its clocks key for that same boot, listed twice."""
    folder = device_copy(pristine, tmp_path)
    ms0 = synckit.T0 * 1000

    def huge(reply):
        if "proto" in reply:
            reply.update(boot=2147483648, clocks={"2147483648": ms0, "3": ms0})
        return reply

    status, err, res = sync_through(folder, tmp_path / "m.db", capsys, rewrite=huge)
    assert status == 0, err
    said = [w for w in res["warnings"] if "boot" in w]
    assert len(said) == 1 and "names 1 boot " in said[0] and said[0].count("2147483648") == 1, said
    assert res["clocks"] == {"3": ms0}


def test_a_boot_of_the_wrong_type_is_called_that(pristine, tmp_path, capsys):
    folder = device_copy(pristine, tmp_path)

    def text_boot(reply):
        if "proto" in reply:
            reply.update(boot="7", ms=1000)
        return reply

    status, err, res = sync_through(folder, tmp_path / "m.db", capsys, rewrite=text_boot)
    assert status == 0, err
    said = [w for w in res["warnings"] if "boot" in w]
    assert len(said) == 1 and "the text '7', not a whole number" in said[0], said
