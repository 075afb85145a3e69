"""The serial protocol the PC speaks to the device over the USB serial link
(the same link as the REPL), served from the app's main loop while a game
goes on. See docs/protocol.md for frames, commands and error codes.

Each frame is one `shared_rules.wire` line: compact JSON, TAB, CRC32, LF.
A request carries "s" (sequence number) and "c" (command); every request
gets exactly one reply with the same "s": {"ok": 1, ...} or {"e": code,
"m": message}. A request that cannot be read (bad CRC, not JSON, 256 bytes
or more) gets an error reply with "s": null. Nothing a request says can
crash the loop or touch the game in progress.

`poll()` never blocks: it reads at most `max_bytes` bytes, one at a time,
and handles at most one complete frame per call; the app calls it again
while bytes keep coming, within a time budget per loop pass (app.py,
SERIAL_MS), so the timer and buttons keep their pace during a sync. Exceptions derived from Exception are caught
and answered; KeyboardInterrupt (Ctrl-C from the PC) and SystemExit (from
the exit_to_repl hook) pass through on purpose.
"""

from shared_rules.ticks import const
import sys

from shared_rules import RULES_VERSION
from shared_rules.wire import LineError, crc32, encode
from shared_rules.wire_read import decode

from loader import Moment
from store.layout import JournalError, valid_id
from names import MAX_NAMES, check_name, repeated
from store.layout import CLOCKS, ROSTER, SETTINGS

_PROTOCOL = const(1)
_MAX_FRAME = const(256)      # a PC->device frame, LF included, is shorter than this
_MAX_CHUNK = const(2048)     # journal bytes per read reply
PAGE = const(4)             # games per list reply: each row's committed size reads its file (12-15 ms on a Pico), and a reply is one loop pass
KEEP_CLOCKS = const(32)     # boots whose clock offset the device remembers
_T_MIN = const(946684800)   # 2000-01-01
_T_MAX = const(4102444800)  # 2100-01-01

_MISSING = object()

_FIELDS = {
    "hello": (),
    "ls": ("i",),
    "rd": ("g", "o", "n"),
    "ack": ("g",),
    "roster": ("i", "names", "end"),
    "clock": ("t",),
    "get": (),
    "set": ("v",),
    "repl": (),
}


class Reject(Exception):
    """A request refused with an error code and a message for the PC."""

    def __init__(self, code, message, extra=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _printable(s):
    for ch in s:
        o = ord(ch)
        if o < 32 or o > 126:
            return False
    return True


def encode_chunk(data):
    """Journal bytes -> the body of a read reply (docs/protocol.md).

    A line whose trailer is the canonical TAB + 8 lower-case hex CRC of its
    JSON is sent without the trailer (the PC recomputes it, byte for byte):
    that keeps the wire near the size of the JSON itself. Anything else
    (a damaged line kept for the PC, a piece of an over-long line) goes as
    a raw segment "!<hex length>:<bytes>"."""
    out = bytearray()
    mv = memoryview(data)
    n = len(data)
    i = 0
    while i < n:
        j = data.find(b"\n", i)
        if j < 0:
            j = n  # the rest of an over-long line
        else:
            j += 1
        k = j - 10  # where the TAB would be
        ok = j - i > 10 and data[j - 1] == 10 and data[k] == 9 and data[i] == 123
        if ok:
            ok = data[k + 1:j - 1] == (b"%08x" % crc32(mv[i:k]))
        if ok:
            out.extend(mv[i:k])
            out.append(10)
        else:
            out.extend(b"!%x:" % (j - i))
            out.extend(mv[i:j])
        i = j
    return out


class Protocol:
    """Serves the PC from the app's main loop (see the module docstring).

    hooks: set_clock(epoch_s), roster_changed(names),
    settings_changed(settings) (called before the settings are stored;
    raising ValueError rejects them with its message), exit_to_repl()
    (called after the reply is sent), device_info() -> dict with at least
    "id" and "fw". An optional hooks.settings() gives the settings in
    force (defaults included) for "get"; without it the stored file is
    returned."""

    def __init__(self, journal, store, read_byte, write, hooks):
        self.journal = journal
        self.store = store
        self._read = read_byte
        self._write = write
        self.hooks = hooks
        self._buf = bytearray(_MAX_FRAME)
        self._n = 0
        self._over = False
        self._roster = None  # names received so far in a multi-part push
        self.frames = 0      # frames answered (for a "PC connected" mark)
        self.errors = 0      # of which error replies

    # --- main loop entry -------------------------------------------------
    def poll(self, max_bytes=64):
        """Read up to max_bytes waiting bytes; answer at most one frame.
        Returns how many bytes were read (0: nothing was waiting)."""
        count = 0
        try:
            while count < max_bytes:
                try:
                    b = self._read()
                except Exception:  # noqa: BLE001 - a flaky port: try next loop
                    break
                if b is None:
                    break
                count += 1
                if b == 10:
                    if self._frame_end():
                        break
                elif self._over:
                    pass
                elif self._n >= _MAX_FRAME - 1:
                    self._over = True
                else:
                    self._buf[self._n] = b
                    self._n += 1
        except Exception as e:  # noqa: BLE001 - the loop must go on
            self._n = 0
            self._over = False
            self._safe_error(None, "internal", "device error: %s" % e)
        return count

    def _frame_end(self):
        """A LF arrived: answer the frame; True if a reply was sent."""
        n = self._n
        self._n = 0
        if self._over:
            self._over = False
            self._error(None, "long", "frame is longer than %d bytes" % (_MAX_FRAME - 1))
            return True
        if n and self._buf[n - 1] == 13:
            n -= 1
        if n == 0:
            return False  # a blank line is not a frame (the PC sends one to resync)
        self._handle(bytes(self._buf[:n]))
        return True

    # --- replies ---------------------------------------------------------
    def _send(self, obj, body=None):
        data = encode(obj)
        if body is not None and len(body):
            data = data + body
        self._write(data)
        self.frames += 1

    def _error(self, seq, code, message, extra=None):
        reply = {"s": seq, "e": code, "m": message}
        if extra:
            for k in extra:
                reply[k] = extra[k]
        self.errors += 1
        self._send(reply)

    def _safe_error(self, seq, code, message):
        try:
            self._error(seq, code, message)
        except Exception:  # noqa: BLE001 - the link itself failed
            pass

    # --- dispatch --------------------------------------------------------
    def _handle(self, line):
        try:
            req = decode(line, need_crc=True)
        except LineError as e:
            self._error(None, e.kind, str(e))
            return
        seq = req.get("s", _MISSING)
        if not _is_int(seq) or seq < 0 or seq > 0x7FFFFFFF:
            self._error(None, "shape", "request needs \"s\", a sequence number 0-2147483647")
            return
        cmd = req.get("c")
        if not isinstance(cmd, str):
            self._error(seq, "shape", "request needs \"c\", the command name")
            return
        fields = _FIELDS.get(cmd)
        if fields is None:
            self._error(seq, "cmd", "unknown command %r" % cmd[:24])
            return
        for key in req:
            if key != "s" and key != "c" and key not in fields:
                self._error(seq, "arg", "%s takes no field %r" % (cmd, key[:24]))
                return
        try:
            getattr(self, "_c_" + cmd)(seq, req)
        except Reject as r:
            self._error(seq, r.code, r.message, r.extra)
        except JournalError as e:
            self._error(seq, e.code, str(e))
        except OSError as e:
            self._error(seq, "io", "storage error: %s" % e)
        except Exception as e:  # noqa: BLE001 - reply rather than crash
            self._error(seq, "internal", "device error: %s" % e)

    # --- argument helpers ------------------------------------------------
    def _int(self, req, key, lo, hi, default=None):
        """req[key], a whole number lo..hi; `default` when the field is
        absent (None: the field is required)."""
        if key not in req:
            if default is None:
                raise Reject("arg", "missing field %r" % key)
            return default
        v = req[key]
        if not _is_int(v) or v < lo or v > hi:
            raise Reject("arg", "%r must be a whole number from %d to %d" % (key, lo, hi))
        return v

    def _game(self, req):
        g = req.get("g")
        if not valid_id(g):
            raise Reject("arg", "\"g\" must be a game id")
        if not self.journal.exists(g):
            raise Reject("game", "no game %s on this device" % g)
        return g

    # --- commands --------------------------------------------------------
    def _c_hello(self, seq, req):
        info = self.hooks.device_info() or {}
        reply = {}
        for k in info:
            reply[k] = info[k]
        reply["s"] = seq
        reply["ok"] = 1
        reply["id"] = str(info.get("id", "unknown"))
        reply["fw"] = str(info.get("fw", "unknown"))
        reply["rules"] = RULES_VERSION
        reply["mpy"] = getattr(sys.implementation, "_mpy", None)
        reply["proto"] = _PROTOCOL
        reply["max"] = _MAX_FRAME - 1
        reply["chunk"] = _MAX_CHUNK
        c = self.journal.clock
        reply["boot"] = c.boot if c is not None else None
        reply["ms"] = c.ms() if c is not None and c.boot is not None else None
        reply["clocks"] = self._clocks()
        self._send(reply)

    def _clocks(self):
        """{"<boot>": epoch ms at that boot's ms 0} as stored (a damaged
        or missing file reads as none known)."""
        v = self.store.read_json(CLOCKS, {})
        return v if isinstance(v, dict) else {}

    def _c_ls(self, seq, req):
        # "i" is a cursor, not a position: the games numbered i or more.
        # A game started during a sync gets a higher number, so pages
        # neither skip nor repeat a game, and each page reads games/ once
        # keeping only its own rows (Journal.page).
        start = self._int(req, "i", 0, 1 << 30, 0)
        rows, nxt, total = self.journal.page(start, PAGE)
        page = []
        for g in rows:
            state = "open" if g["open"] else ("synced" if g["synced"] else "done")
            page.append([g["id"], g["size"], state])
        self._send({"s": seq, "ok": 1, "games": page, "next": nxt, "n": total})

    def _c_rd(self, seq, req):
        g = self._game(req)
        o = self._int(req, "o", 0, 1 << 30)
        n = self._int(req, "n", 1, _MAX_CHUNK, _MAX_CHUNK)
        size = self.journal.committed_size(g)
        if o > size:
            raise Reject("arg", "offset %d is past the end of game %s (%d bytes)" % (o, g, size), {"z": size})
        want = size - o if size - o < n else n
        data = b""
        if want:
            f = open(self.journal.path(g), "rb")
            try:
                f.seek(o)
                data = f.read(want)
            finally:
                f.close()
            if len(data) != want:
                raise Reject("io", "game %s is shorter than listed" % g)
            if o + want < size:
                # End the chunk at a line end unless one line fills it.
                cut = data.rfind(b"\n") + 1
                if cut > 0:
                    data = data[:cut]
        body = encode_chunk(data)
        self._send({"s": seq, "ok": 1, "g": g, "o": o, "x": o + len(data), "z": size,
                    "b": len(body), "k": crc32(data)}, body)

    def _c_ack(self, seq, req):
        g = self._game(req)
        self.journal.mark_synced(g)
        self._send({"s": seq, "ok": 1, "g": g})

    def _c_roster(self, seq, req):
        i = self._int(req, "i", 0, MAX_NAMES)
        names = req.get("names")
        end = req.get("end", False)
        if not isinstance(names, list):
            raise Reject("arg", "\"names\" must be a list of names")
        if not isinstance(end, bool):
            raise Reject("arg", "\"end\" must be true or false")
        pending = self._roster or []
        if i > len(pending):
            self._roster = None
            raise Reject("arg", "roster part starts at %d but %d names came before; start again at 0" % (i, len(pending)))
        if i + len(names) > MAX_NAMES:
            self._roster = None
            raise Reject("name", "the roster holds at most %d names" % MAX_NAMES, {"i": MAX_NAMES})
        merged = pending[:i]
        for k in range(len(names)):
            why = check_name(names[k])
            if why is None and repeated(names[k], merged):
                why = "%r is on the roster twice (names are compared without case)" % names[k]
            if why is not None:
                self._roster = None
                raise Reject("name", "name %d: %s" % (i + k, why), {"i": i + k})
            merged.append(names[k])
        if not end and len(merged) < len(pending) and pending[:len(merged)] == merged:
            merged = pending  # a repeated earlier part: keep what followed it
        self._roster = None if end else merged
        if end:
            if self.store.read_json(ROSTER, None) != merged:
                self.store.write_json(ROSTER, merged)
            self.hooks.roster_changed(list(merged))
        self._send({"s": seq, "ok": 1, "n": len(merged), "end": end})

    def _c_clock(self, seq, req):
        t = self._int(req, "t", _T_MIN, _T_MAX)
        c = self.journal.clock
        if c is not None and c.boot is not None:
            self._record_clock(c.boot, t * 1000 - c.ms())  # first: a flash error changes nothing
        self.hooks.set_clock(t)
        self._send({"s": seq, "ok": 1, "t": t})

    def _record_clock(self, boot, at_zero):
        """Keep this boot's epoch ms at ms 0 in the clocks file (the last
        KEEP_CLOCKS boots), so the PC can date every journal line of the
        boot, those written before the clock was set too. Rewritten only
        when it moves by a second or more (each sync sets the clock)."""
        clocks = self._clocks()
        key = str(boot)
        old = clocks.get(key)
        if isinstance(old, int) and -1000 < old - at_zero < 1000:
            return
        clocks[key] = at_zero
        if len(clocks) > KEEP_CLOCKS:
            with Moment():  # the boots' checks: loaded for this only
                from shared_rules.boots import boot_key  # plain ASCII digits: " 2", "+5" are no boot

                while len(clocks) > KEEP_CLOCKS:
                    low = None
                    for k in clocks:
                        if low is None or boot_key(k) < boot_key(low):
                            low = k
                    del clocks[low]
        self.store.write_json(CLOCKS, clocks)

    def _settings(self):
        fn = getattr(self.hooks, "settings", None)
        if fn is not None:
            return fn()
        s = self.store.read_json(SETTINGS, {})
        return s if isinstance(s, dict) else {}

    def _c_get(self, seq, req):
        self._send({"s": seq, "ok": 1, "v": self._settings()})

    def _c_set(self, seq, req):
        v = req.get("v")
        if not isinstance(v, dict) or not v:
            raise Reject("arg", "\"v\" must be an object of settings to change")
        for key in v:
            if not isinstance(key, str) or not key or len(key) > 16 or not _printable(key):
                raise Reject("setting", "bad setting name %r" % (key[:24] if isinstance(key, str) else key,))
            val = v[key]
            if isinstance(val, str):
                if len(val) > 16 or not _printable(val):
                    raise Reject("setting", "%s: text values are at most 16 printable characters" % key)
            elif not isinstance(val, bool) and not (_is_int(val) and -1000000 <= val <= 1000000):
                raise Reject("setting", "%s: a value must be true/false, a whole number or short text" % key)
        merged = {}
        old = self._settings()
        for key in old:
            merged[key] = old[key]
        for key in v:
            merged[key] = v[key]
        try:
            self.hooks.settings_changed(merged)
        except ValueError as e:
            raise Reject("setting", str(e))
        self.store.write_json(SETTINGS, merged)
        self._send({"s": seq, "ok": 1, "v": merged})

    def _c_repl(self, seq, req):
        self._send({"s": seq, "ok": 1})
        self.hooks.exit_to_repl()
