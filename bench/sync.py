"""Sync benchmark: a 10,000-event history pulled from a device over a pty.

    .venv/bin/python bench/sync.py                 # MicroPython harness (firmware protocol) on a pty
    .venv/bin/python bench/sync.py --events 20000
    .venv/bin/python bench/sync.py --port /dev/pts/7   # any live device, e.g. the simulator's pty

Without --port it writes the history with the firmware's own Journal
(Moonstar games played with random legal moves, as many as it takes to
reach --events), serves it from the real `micropython` running
firmware/link/protocol.py behind a pty, and syncs it into a fresh SQLite file
with the real pyserial, exactly as `moontable sync` does.

Prints events per second (the whole sync: transfer, replay verification
and storing) and the transfer alone, and the wire overhead: every byte on
the wire in both directions (requests, replies, retries) divided by the
bytes of compact JSON of the journal lines (headers and events, without
their CRC trailers). Target: overhead <= 1.3.

Last, how long `moontable sync --port X` takes to say that nothing speaks
moontable on X (a pty with nothing on its other end), with the default
reply timeout: the hello's patience, not six full timeouts.
"""

import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests", "sync")]

from moontable.db import Database  # noqa: E402
from moontable.serial_link import HELLO_PATIENCE, Link, PortError  # noqa: E402
from moontable.sync import sync  # noqa: E402
from shared_rules.wire import dumps  # noqa: E402
from shared_rules.wire_read import decode


def payload_bytes(journal):
    """Bytes of compact JSON in a journal (each line without TAB+CRC+LF)."""
    total = lines = 0
    for raw in journal.split(b"\n"):
        if raw.strip():
            total += len(dumps(decode(raw)).encode())
            lines += 1
    return total, lines


def make_history(folder, events):
    import synckit

    from store.journal import Journal

    j = Journal(synckit.fast_store(folder))
    done = 0
    seed = 1
    while done < events:
        header, evs = synckit.moonstar_game(synckit.PLAYERS[seed % 3], seed, max_events=events - done)
        gid = j.new_game(header)
        for ev in evs:
            j.append(ev)
        j.finish(gid)
        done += len(evs)
        seed += 1
    return seed - 1, done


def measure(path, db_path, chunk=None):
    db = Database.open(db_path)
    try:
        with Link.open(path, timeout=5.0) as link:
            t0 = time.perf_counter()
            res = sync(link, db, roster=False, clock=False, chunk=chunk)
            elapsed = time.perf_counter() - t0
            wire = link.bytes_in + link.bytes_out
            resends = link.resends
        journal_total = payload = lines = 0
        for (gid, _msg) in res.stored:
            row = db.conn.execute("SELECT journal FROM games WHERE device_id=? AND game_id=?",
                                  (res.device, gid)).fetchone()
            data = bytes(row[0])
            journal_total += len(data)
            p, n = payload_bytes(data)
            payload += p
            lines += n
    finally:
        db.close()
    return res, elapsed, wire, resends, journal_total, payload, lines


def transfer_only(path, res):
    """Read every stored game again without the database: the link alone."""
    with Link.open(path, timeout=5.0) as link:
        t0 = time.perf_counter()
        total = 0
        for gid, size, state in link.list_games():
            off = 0
            while off < size:
                _, data = link.read(gid, off)
                off += len(data)
                total += len(data)
        return time.perf_counter() - t0, total


def silent_port():
    """Seconds from opening a port where nothing answers to the PortError
    saying so, and the number of hellos sent."""
    import pty
    import tty

    master, slave = pty.openpty()
    tty.setraw(slave)
    try:
        t0 = time.perf_counter()
        with Link.open(os.ttyname(slave), timeout=2.0) as link:
            try:
                link.hello()
            except PortError:
                pass
            else:
                raise AssertionError("a silent port answered hello")
            return time.perf_counter() - t0, link.tries
    finally:
        os.close(master)
        os.close(slave)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, default=10000, help="events in the history (default 10000)")
    ap.add_argument("--port", help="sync from this live device instead of the MicroPython harness")
    ap.add_argument("--chunk", type=int, default=None, help="journal bytes per read (default: the device's)")
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="moontable-bench-sync-")
    db_path = os.path.join(tmp, "bench.db")
    device = None
    try:
        if args.port:
            path = args.port
            print("device: %s" % path)
        else:
            import synckit

            folder = os.path.join(tmp, "data")
            t0 = time.perf_counter()
            games, events = make_history(folder, args.events)
            print("history: %d events in %d games, written by firmware/store/journal.py in %.1f s"
                  % (events, games, time.perf_counter() - t0))
            device = synckit.Device(folder, device_id="bench", direct=True)
            path = device.path
            print("device: firmware/link/protocol.py under %s, behind pty %s" % (synckit.micropython(), path))
        res, elapsed, wire, resends, journal_total, payload, lines = measure(path, db_path, args.chunk)
        events = lines - len(res.stored)  # every line but the headers
        print("synced: %d games, %d events, %d journal bytes, %d quarantined, %d resends"
              % (len(res.stored), events, journal_total, len(res.quarantined), resends))
        print("sync (transfer + replay + store): %.2f s, %.0f events/s" % (elapsed, events / elapsed if elapsed else 0))
        t_link, nbytes = transfer_only(path, res)
        print("transfer alone: %.2f s, %.0f events/s, %.0f journal bytes/s"
              % (t_link, events / t_link if t_link else 0, nbytes / t_link if t_link else 0))
        print("wire bytes (both ways): %d; compact JSON payload: %d; overhead %.3f (target <= 1.3)"
              % (wire, payload, wire / payload if payload else 0))
        print("journal bytes / payload (the CRC trailers alone): %.3f" % (journal_total / payload if payload else 0))
        took, tries = silent_port()
        print("a port where nothing answers: named after %.2f s, %d hellos (patience %.1f s; six 2 s timeouts "
              "took 12.4 s before)" % (took, tries, HELLO_PATIENCE))
    finally:
        if device is not None:
            device.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
