"""The sync algorithm: bring a device's finished games into the database,
then tell the device which games are safe, and push the roster and clock.

Why it is safe to cut at any byte and run again:
- Journal bytes are staged in the database by offset as they arrive, each
  chunk checked (CRC32, length) before staging; the next sync asks the
  device for the rest from `db.staged_size`, so a cut transfer resumes.
- A game is replayed with shared_rules and stored (or quarantined) in one
  database transaction, and only after that commit is it marked synced on
  the device ("ack"). A cut between the two leaves a stored game the
  device still lists as unsynced: the next sync sees `is_stored` and only
  sends the ack.
- Every device command is idempotent, so a repeated request (a retry, a
  duplicated frame) changes nothing twice. Syncing twice pulls nothing the
  second time: the device lists every game as synced.
A game still in progress on the device is stored as it stands (the
complete lines the device lists), marked unfinished, and never acked (the
device refuses that); the next sync reads only its new tail and stores the
longer, re-verified journal, and acks it once the game is closed. So a
game on the table is backed up on the PC at every sync, and the sync says
which games it holds unfinished and how far they got.

Dates: the board has no battery clock. The hello names its boot counter,
the ms since that boot and the wall time at ms 0 of recent boots whose
clock a PC set; setting the clock makes the current boot's figure known to
the PC too. These go to the database (`db.record_clocks`) before any game
is stored, so every line of those boots gets its wall time.
"""

import calendar
import time

from shared_rules import RULES_VERSION, display_name
from shared_rules.boots import boot_key, plain_boot

from moontable.journals import MAX_LOG
from moontable.serial_link import READ_MAX, DeviceError

# Keys of the device's hello worth keeping in the database.
_INFO_KEYS = ("id", "fw", "rules", "mpy", "proto", "board", "chunk")


class Progress:
    """What `sync` reports progress to; the command wraps a progress bar."""

    def start(self, total_bytes, games):
        pass

    def advance(self, nbytes):
        pass

    def note(self, text):
        pass


class Result:
    """What a sync did, for the command's summary (and tests)."""

    def __init__(self):
        self.device = None
        self.info = {}
        self.stored = []       # (game id, message)
        self.unchanged = []    # game ids already in the database
        self.quarantined = []  # (game id, message)
        self.acked = []        # game ids marked synced on the device
        self.open = []         # game ids still in progress (stored as they stand, never acked)
        self.unfinished = []   # (game id, sentence): games the database holds unfinished
        self.problems = []     # (game id, message) left for the next sync
        self.warnings = []
        self.bytes = 0         # journal bytes received
        self.roster = None     # names pushed, or None
        self.roster_refused = None  # why the roster was not pushed, or None
        self.clock = None      # epoch seconds pushed, or None
        self.clocks = {}       # {"<boot>": epoch ms at ms 0 of that boot}, handed to the database

    def summary(self):
        parts = ["device %s" % self.device]
        parts.append("%d new game%s stored" % (len(self.stored), "" if len(self.stored) == 1 else "s"))
        if self.quarantined:
            parts.append("%d quarantined" % len(self.quarantined))
        if self.unchanged:
            parts.append("%d already stored" % len(self.unchanged))
        if self.open:
            parts.append("%d in progress on the device" % len(self.open))
        if self.problems:
            parts.append("%d with problems" % len(self.problems))
        return ", ".join(parts)


def local_epoch(now=None):
    """The PC's local wall-clock time as seconds since 1970-01-01 (what the
    device's clock shows and stamps events with: it has no time zones)."""
    if now is None:
        now = time.time()
    return calendar.timegm(time.localtime(now))


def local_epoch_ms(now=None):
    """local_epoch() in milliseconds (the time zone shift is whole seconds)."""
    if now is None:
        now = time.time()
    return local_epoch(now) * 1000 + int((now % 1.0) * 1000)


def clock_text(epoch):
    """Device seconds as the device shows them: 'YYYY-MM-DD HH:MM'."""
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(epoch))


def repeated_names(names):
    """[(name, earlier name)] for every name that repeats an earlier one
    when compared without case (the device tells players apart that way)."""
    first = {}
    out = []
    for name in names:
        key = name.casefold()
        if key in first:
            out.append((name, first[key]))
        else:
            first[key] = name
    return out


def device_clocks(info, pc_ms=None, warnings=None):
    """The boot clocks to hand to the database: {"<boot>": epoch ms at ms 0
    of that boot}, from the hello's "clocks" plus, when `pc_ms` (the PC's
    local time in ms when the hello came back) is given, the current boot
    from the hello's "boot" and "ms". The current boot's figure from the PC
    wins over the device's own: it is the clock just set, to the ms.
    Entries that are not whole numbers are left out (the database drops
    implausible ones), and so are boots not named by plain ASCII digits
    or past shared_rules.boots.BOOT_MAX (a damaged counter on the device):
    `warnings`, a list, gets one sentence saying what was left out."""
    out = {}
    odd = {}  # each boot left out, by its full text -> how it is shown: once, though the hello may name it twice

    def leave_out(text, shown=None):
        odd.setdefault(text, shown or text[:24])

    sent = info.get("clocks")
    if isinstance(sent, dict):
        for key, value in sent.items():
            if not _whole(value):
                continue
            boot = boot_key(key)
            if boot < 0:
                # plain digits, only too many: the number, as the hello's "boot" would show it
                leave_out(key if key.isdigit() and key.isascii() else repr(key))
                continue
            out[str(boot)] = value
    boot, ms = info.get("boot"), info.get("ms")
    if pc_ms is not None and _whole(ms) and ms >= 0 and boot is not None:
        if plain_boot(boot):
            out[str(boot)] = pc_ms - ms
        elif _whole(boot):
            leave_out(str(boot))
        else:
            text = "the current boot, which is %s, not a whole number" % describe(boot)
            leave_out(text, text)
    if odd and warnings is not None:
        warnings.append("the device names %d boot%s in a way no moontable firmware writes (%s): their clock is "
                        "not used, so games of those boots are dated approximately; the device's boot counter "
                        "may be damaged" % (len(odd), "" if len(odd) == 1 else "s",
                                            ", ".join(list(odd.values())[:3])))
    return out


def describe(value):
    """A value from the device as a person reads it, its type included:
    "the text '1'" is not the number 1, though repr() and %d blur them."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, str):
        return "the text %s" % repr(value)[:40]
    if isinstance(value, (int, float)):
        return "the number %s" % repr(value)[:40]
    if isinstance(value, list):
        return "a list"
    return "an object"  # what else JSON holds


def rules_warning(info):
    """A sentence when the device's rules version is not this PC's, saying
    what the device sent when it is no whole number (None otherwise)."""
    rules = info.get("rules")
    if "rules" not in info:
        said = "the device does not say which rules version it runs (this PC runs %d)" % RULES_VERSION
    elif not _whole(rules):
        said = "the device's rules version is %s, not a whole number (this PC runs %d)" % (describe(rules),
                                                                                           RULES_VERSION)
    elif rules != RULES_VERSION:
        said = "the device runs rules version %d, this PC %d" % (rules, RULES_VERSION)
    else:
        return None
    return said + ": its games may not replay here"


def _whole(v):
    return isinstance(v, int) and not isinstance(v, bool)


def push_roster(link, names, result):
    """Push the roster, dropping any name the device refuses (it says
    which and why) so one odd name cannot block the rest. A roster that
    repeats a name (compared without case) is not sent at all: the device
    would refuse it, and seats must never be mixed up."""
    names = list(names)
    twice = repeated_names(names)
    if twice:
        result.roster_refused = "roster not sent: %s (names are compared without case, so the device could " \
            "not tell them apart); rename one with `moontable players rename`" % "; ".join(
                "%r repeats %r" % pair for pair in twice)
        result.warnings.append(result.roster_refused)
        return
    for _ in range(len(names) + 3):
        try:
            link.push_roster(names)
            result.roster = names
            return
        except DeviceError as e:
            i = e.reply.get("i")
            if e.code == "name" and isinstance(i, int) and 0 <= i < len(names):
                result.warnings.append("roster: device refused %r: %s" % (names[i], e.message))
                names = names[:i] + names[i + 1:]
                continue
            if e.code == "name" and isinstance(i, int):
                result.warnings.append("roster: device holds at most %d names: %s" % (i, e.message))
                names = names[:i]
                continue
            if e.code == "arg":
                continue  # a part arrived out of order (a duplicated frame): start again
            raise
    result.warnings.append("roster: gave up after repeated refusals")


def describe_unfinished(db, dev, gid, state, fresh):
    """A sentence for a game the database holds unfinished (None if it is
    finished or not stored): which game, how far it got, and what happens
    to it next. `fresh`: this sync brought new bytes of it."""
    from moontable.dberror import DbError

    try:
        g = db.game(db.game_pk("%s/%s" % (dev, gid)))
    except DbError:
        return None
    if g.get("finished"):
        return None
    rounds = g.get("rounds") or 0
    far = "after round %d" % rounds if rounds else "before the end of its first round"
    scores = ", ".join("%s %s" % (p, s) for p, s in zip(g.get("players") or [], g.get("scores") or []))
    events = g.get("events") or 0
    what = "%s game %s (%s)" % (display_name(g["game"]), gid, scores or "no players")
    stand = "%s, %d event%s" % (far, events, "" if events == 1 else "s")
    if state == "open":
        if not fresh:
            return ("%s is still being played on the device, %s, nothing new since the last sync. It does not "
                    "count in the standings yet; a later sync updates it." % (what, stand))
        return ("%s is still being played on the device: stored as it stands, %s. It does not count in the "
                "standings yet; a later sync updates it, and completes it once the game is over." % (what, stand))
    return ("%s was closed on the device before its end: stored unfinished, %s. It does not count in the "
            "standings." % (what, stand))


def sync(link, db, progress=None, roster=True, clock=True, all_games=False, now=None, chunk=None, hello=None):
    """Run one sync over an open `Link` into an open `Database`. `hello`:
    the device's hello reply when the caller already asked for it (the
    command does, before it opens the database); `now`: a fixed PC time
    (tests).

    Raises LinkError if the link fails (the next sync resumes), DeviceError
    if the device refuses a command the sync cannot do without, BadReply
    if the device answers what the protocol does not allow."""
    progress = progress or Progress()
    result = Result()
    info = hello if hello is not None else link.hello()
    hello_ms = local_epoch_ms(now if now is not None else link.hello_time)
    dev = info["id"]
    result.device = dev
    result.info = {k: info[k] for k in _INFO_KEYS if k in info}
    warning = rules_warning(info)
    if warning:
        result.warnings.append(warning)
    db.record_device(dev, result.info)

    if clock:
        t = local_epoch(now)
        link.set_clock(t)
        result.clock = t
    # The boots' clocks go to the database before any game, so the games
    # stored below get their times from them.
    result.clocks = device_clocks(info, hello_ms if clock else None, result.warnings)
    if result.clocks:
        db.record_clocks(dev, result.clocks)
    if roster:
        names = db.roster()
        if names:  # an empty database must not wipe a roster set elsewhere
            push_roster(link, names, result)

    todo = []
    announce = []  # (game id, state): games to describe if the database holds them unfinished
    unsized = []
    games = link.list_games(unsized)
    for gid, size, state in unsized:
        if state != "synced" or all_games:
            result.warnings.append(
                "game %s skipped: the device lists its size as %s, not a size in bytes (a board lists -1 for a "
                "journal it cannot open); the device's other games are synced, and this one will be once the "
                "device gives its size" % (gid, describe(size)))
    for gid, size, state in games:
        if state == "open":
            result.open.append(gid)
        elif state == "synced" and not all_games:
            continue
        if size <= 0:
            if state != "open":  # a game just begun may not have a whole line yet
                result.problems.append((gid, "no complete line on the device yet"))
            continue
        if size > MAX_LOG:
            result.problems.append((gid, "the device lists it at %d bytes, more than any game log (%d MiB): not read"
                                         % (size, MAX_LOG >> 20)))
            continue
        have = db.staged_size(dev, gid)
        stored = db.is_stored(dev, gid)
        if have > size:
            if stored:
                result.problems.append((gid, "the database holds %d bytes of this game but the device only %d; "
                                              "left as it is" % (have, size)))
                continue
            db.discard_staged(dev, gid)  # staged from a journal that is gone
            have = 0
        if stored and have == size:
            result.unchanged.append(gid)
            if state == "done":
                link.ack(gid)  # stored by an earlier sync whose ack was cut off
                result.acked.append(gid)
            if state != "synced":
                announce.append((gid, state, False))
            continue
        todo.append((gid, size, have, state))

    progress.start(sum(size - have for _, size, have, _ in todo), len(todo))
    for gid, size, have, state in todo:
        progress.note(gid)
        off = have
        while off < size:
            # Never more than listed: bytes past it are not what the
            # device said it has, and a chunk past what was asked is
            # dropped by the link as a bad reply.
            reply, data = link.read(gid, off, min(chunk or READ_MAX, size - off))
            if not data:
                break  # the device has less than it listed (a tail was dropped)
            db.stage_chunk(dev, gid, off, data)
            off += len(data)
            result.bytes += len(data)
            progress.advance(len(data))
        if off < size:
            result.problems.append((gid, "device sent %d of %d bytes" % (off, size)))
            continue
        status, message = db.commit_game(dev, gid)
        if status == "stored":
            result.stored.append((gid, message))
        elif status == "partial":
            # kept up to the line the rules refuse; the rest in quarantine
            result.stored.append((gid, message))
            result.quarantined.append((gid, message))
        elif status == "unchanged":
            result.unchanged.append(gid)
        else:
            result.quarantined.append((gid, message))
        if status != "quarantined":
            announce.append((gid, state, status in ("stored", "partial")))
        if state == "open":
            continue  # still growing: the device keeps it, and a later sync brings the rest
        # Committed (stored or kept in quarantine with its report): only
        # now may the device count the game as safe on the PC.
        link.ack(gid)
        result.acked.append(gid)
    for gid, state, fresh in announce:
        text = describe_unfinished(db, dev, gid, state, fresh)
        if text:
            result.unfinished.append((gid, text))
    return result
