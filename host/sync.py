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
Games still in progress on the device are left alone: their journal is
still growing, and they sync once finished.
"""

import calendar
import time

from shared_rules import RULES_VERSION

from host.serial_link import DeviceError

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
        self.open = []         # game ids still in progress (not synced)
        self.problems = []     # (game id, message) left for the next sync
        self.warnings = []
        self.bytes = 0         # journal bytes received
        self.roster = None     # names pushed, or None
        self.clock = None      # epoch seconds pushed, or None

    def summary(self):
        parts = ["device %s" % self.device]
        parts.append("%d new game%s stored" % (len(self.stored), "" if len(self.stored) == 1 else "s"))
        if self.quarantined:
            parts.append("%d quarantined" % len(self.quarantined))
        if self.unchanged:
            parts.append("%d already stored" % len(self.unchanged))
        if self.open:
            parts.append("%d in progress left on the device" % len(self.open))
        if self.problems:
            parts.append("%d with problems" % len(self.problems))
        return ", ".join(parts)


def local_epoch(now=None):
    """The PC's local wall-clock time as seconds since 1970-01-01 (what the
    device's clock shows and stamps events with: it has no time zones)."""
    if now is None:
        now = time.time()
    return calendar.timegm(time.localtime(now))


def push_roster(link, names, result):
    """Push the roster, dropping any name the device refuses (it says
    which and why) so one odd name cannot block the rest."""
    names = list(names)
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


def sync(link, db, progress=None, roster=True, clock=True, all_games=False, now=None, chunk=None):
    """Run one sync over an open `Link` into an open `Database`.

    Raises LinkError if the link fails (the next sync resumes), DeviceError
    if the device refuses a command the sync cannot do without."""
    progress = progress or Progress()
    result = Result()
    info = link.hello()
    dev = str(info["id"])
    result.device = dev
    result.info = {k: info[k] for k in _INFO_KEYS if k in info}
    if info.get("rules") != RULES_VERSION:
        result.warnings.append(
            "device runs rules version %r, this PC %d: its games may not replay here" % (info.get("rules"), RULES_VERSION))
    db.record_device(dev, result.info)

    if clock:
        t = local_epoch(now)
        link.set_clock(t)
        result.clock = t
    if roster:
        names = db.roster()
        if names:  # an empty database must not wipe a roster set elsewhere
            push_roster(link, names, result)

    todo = []
    for gid, size, state in link.list_games():
        if state == "open":
            result.open.append(gid)
            continue
        if state == "synced" and not all_games:
            continue
        if size <= 0:
            result.problems.append((gid, "no complete line on the device yet"))
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
            if state != "synced":
                link.ack(gid)  # stored by an earlier sync whose ack was cut off
                result.acked.append(gid)
            continue
        todo.append((gid, size, have))

    progress.start(sum(size - have for _, size, have in todo), len(todo))
    for gid, size, have in todo:
        progress.note(gid)
        off = have
        while off < size:
            reply, data = link.read(gid, off, chunk)
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
        elif status == "unchanged":
            result.unchanged.append(gid)
        else:
            result.quarantined.append((gid, message))
        # Committed (stored or kept in quarantine with its report): only
        # now may the device count the game as safe on the PC.
        link.ack(gid)
        result.acked.append(gid)
    return result
