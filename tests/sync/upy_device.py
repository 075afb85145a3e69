"""Device-side harness for the sync tests: the firmware's Store, Journal and
Protocol on a folder, run by the real MicroPython (CPython works too).

    micropython upy_device.py serve DATA DEVICE_ID [HOOK_LOG]
        serve the protocol on stdin/stdout (a pty in the tests) until EOF;
        hook calls are appended to HOOK_LOG as JSON lines
    micropython upy_device.py boot DATA...
        for each folder, do what the app does at power-on (load the game in
        progress), then append {"type": "probe"}; print one JSON line each
    micropython upy_device.py resume DATA...
        the same without the probe event
    micropython upy_device.py churn DATA
        print what settings.json reads as (recovering a cut write), then
        write it atomically forever, alternating two values (the test
        kills it at random moments)
    micropython upy_device.py read DATA
        print what Store.read_json gives for settings.json
    micropython upy_device.py lsheap DATA
        list every game with `ls` and measure the live heap meanwhile
    micropython upy_device.py ops DATA
        run the journal's bookkeeping (synced, delete, reclaim, ids) on an
        empty folder and print what each step gave, as one JSON object
"""

import sys


def _setup_path():
    here = __file__ if "/" in __file__ else "./" + __file__
    tests = here[: here.rfind("/")]
    root = tests + "/../.."
    sys.path.insert(0, root)
    sys.path.insert(0, root + "/firmware")


_setup_path()

import json  # noqa: E402

from store.journal import Journal, Uptime

from store.layout import JournalError  # noqa: E402
from store.recovery import count_boot  # noqa: E402
from link.protocol import Protocol  # noqa: E402
from shared_rules.wire import encode  # noqa: E402
from shared_rules.wire_read import decode
from store.files import Store
from store.layout import SETTINGS  # noqa: E402


class Hooks:
    def __init__(self, device_id, log_path):
        self.device_id = device_id
        self.log_path = log_path
        self.stopped = False  # set by the "repl" command

    def _log(self, what, value):
        if self.log_path:
            f = open(self.log_path, "a")
            f.write(json.dumps({"hook": what, "value": value}) + "\n")
            f.close()

    def set_clock(self, t):
        self._log("clock", t)

    def roster_changed(self, names):
        self._log("roster", names)

    def settings_changed(self, settings):
        c = settings.get("contrast", 128)
        if not isinstance(c, int) or isinstance(c, bool) or c < 0 or c > 255:
            raise ValueError("contrast must be 0-255")
        self._log("settings", settings)

    def exit_to_repl(self):
        """The app stops, as on a board; the link stays up (`serve` ends
        the process once the PC has had time to read the reply)."""
        self._log("repl", None)
        self.stopped = True

    def device_info(self):
        return {"id": self.device_id, "fw": "harness-1", "board": "harness"}


def _ticks_ms():
    """The board's ms counter: time.ticks_ms under MicroPython, the same
    (a monotonic count wrapping at 2**30) under CPython."""
    import time

    if hasattr(time, "ticks_ms"):
        return time.ticks_ms
    return lambda: int(time.monotonic() * 1000) & ((1 << 30) - 1)


def serve(data, device_id, log_path):
    import select

    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    poller = select.poll()
    poller.register(stdin, select.POLLIN)

    def read_byte():
        ready = poller.poll(0)
        if not ready:
            return None
        if ready[0][1] & select.POLLIN == 0:
            raise SystemExit(0)  # hang-up: the PC side is gone
        b = stdin.read(1)
        if not b:
            raise SystemExit(0)
        return b[0]

    def write(data):
        stdout.write(data)
        if hasattr(stdout, "flush"):
            stdout.flush()

    store = Store(data)
    journal = Journal(store, Uptime(_ticks_ms(), count_boot(store)))  # each start is a boot, as on the board
    hooks = Hooks(device_id, log_path)
    proto = Protocol(journal, store, read_byte, write, hooks)
    while not hooks.stopped:
        if proto.poll(512) == 0:
            poller.poll(200)
    # A board's USB link outlives the app. Exiting at once would close the
    # pty's master end and, with it, flush the reply the PC has not read yet.
    poller.poll(2000)
    raise SystemExit(0)


def lsheap(data):
    """List every game with the protocol's own `ls`, page by page, and
    measure the live heap (gc.mem_alloc after a collection) while games/
    is being read (every 100 entries) and when each reply is sent. Prints
    each page's game ids on a line, then {"pages", "base", "warm",
    "steady", "peak"}: base is the live heap before the first request,
    with the index loaded; warm after one page served and dropped; steady
    the peak while listing every game after that; peak the peak of all."""
    import gc

    stats = {"peak": 0}

    def sample():
        gc.collect()
        used = gc.mem_alloc()
        if used > stats["peak"]:
            stats["peak"] = used

    class Sampled(Store):
        def scan(self, *parts):
            k = 0
            for entry in Store.scan(self, *parts):
                k += 1
                if k % 100 == 0:
                    sample()
                yield entry

    replies = []

    def write(b):
        replies.append(b)
        sample()

    inbox = [b"", 0]

    def read_byte():
        data, at = inbox
        if at >= len(data):
            return None
        inbox[1] = at + 1
        return data[at]

    store = Sampled(data)
    journal = Journal(store)
    journal.current()  # the index, as after boot
    proto = Protocol(journal, store, read_byte, write, Hooks("heap", None))
    pages = 0
    cursor = 0
    gc.collect()
    base = gc.mem_alloc()
    # One page asked for and thrown away: the first `ls` of a boot interns
    # the names of the code it loads for good, in qstr pools whose growth
    # steps fall wherever the folder paths' lengths put them. "warm" and
    # "steady" (the peak after it) are what the number of games can change.
    inbox[0] = encode({"s": 0, "c": "ls", "i": 0})
    proto.poll(512)
    replies.pop()
    gc.collect()
    warm = gc.mem_alloc()
    stats["cold_peak"] = stats["peak"]
    stats["peak"] = 0
    while cursor is not None:
        inbox[0] = encode({"s": pages, "c": "ls", "i": cursor})
        inbox[1] = 0
        proto.poll(512)
        assert len(replies) == 1
        reply = decode(replies.pop())
        if "ok" not in reply:
            raise SystemExit("ls refused: %r" % (reply,))
        print(" ".join(g[0] for g in reply["games"]))  # kept out of this heap
        cursor = reply["next"]
        pages += 1
    steady = stats["peak"]
    print(json.dumps({"pages": pages, "base": base, "warm": warm, "steady": steady,
                      "peak": max(steady, stats["cold_peak"])}))


def boot(folders, probe=True):
    for data in folders:
        j = Journal(Store(data))
        out = {"folder": data}
        cur = j.current()
        out["was"] = cur
        if cur is not None:
            header, events, warnings = j.load(cur)
            out["header"] = header
            out["events"] = events
            out["warnings"] = warnings
            out["now"] = j.current()
            if probe and j.current() is not None:
                j.append({"type": "probe"})
        print(json.dumps(out))


def churn(data):
    store = Store(data)
    # First what a boot would read after the previous kill (recovery included).
    value = store.read_json(SETTINGS, None)
    print(json.dumps({"value": value, "warnings": store.warnings}))
    k = 0
    while True:
        store.write_json(SETTINGS, {"k": k % 2, "pad": "x" * (200 + 300 * (k % 2))})
        k += 1


def ops(data):
    out = {}

    def attempt(name, fn, *args, **kw):
        try:
            out[name] = ["ok", fn(*args, **kw)]
        except JournalError as e:
            out[name] = [e.code, str(e)]

    store = Store(data)
    j = Journal(store)
    header = {"type": "header", "game": "moons", "players": ["A", "B"], "options": {}, "rules": 1}
    g1 = j.new_game(header)
    j.append({"type": "x", "i": 1})
    attempt("delete_open", j.delete, g1)
    attempt("ack_open", j.mark_synced, g1)
    j.finish(g1)
    attempt("delete_unsynced", j.delete, g1)
    g2 = j.new_game(header)
    j.finish()
    attempt("ack", j.mark_synced, g2)
    attempt("ack_again", j.mark_synced, g2)
    attempt("ack_missing", j.mark_synced, "00099-zzzz")
    out["list"] = j.list_games()
    out["unsynced"] = j.unsynced()
    out["reclaim_huge"] = j.reclaim(1 << 50)
    out["after_reclaim"] = [g["id"] for g in j.list_games()]
    out["space_low_huge"] = j.space_low(1 << 50)
    out["space_low_tiny"] = j.space_low(1)
    attempt("append_none", j.append, {"type": "x"})
    attempt("delete_forced", j.delete, g1, True)
    j2 = Journal(Store(data))  # a reboot: ids keep growing after deletes
    out["ids"] = [g1, g2, j2.new_game(header)]
    out["current"] = j2.current()
    print(json.dumps(out))


def main():
    mode = sys.argv[1]
    if mode == "serve":
        serve(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    elif mode == "boot":
        boot(sys.argv[2:])
    elif mode == "resume":
        boot(sys.argv[2:], probe=False)
    elif mode == "churn":
        churn(sys.argv[2])
    elif mode == "lsheap":
        lsheap(sys.argv[2])
    elif mode == "ops":
        ops(sys.argv[2])
    elif mode == "read":
        store = Store(sys.argv[2])
        print(json.dumps({"value": store.read_json(SETTINGS, "DEFAULT"), "warnings": store.warnings}))
    else:
        raise SystemExit("unknown mode " + mode)


main()
