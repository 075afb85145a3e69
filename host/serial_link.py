"""The PC end of the device's serial protocol (docs/protocol.md): finding
the board's port by its USB ids, and one request/reply exchange at a time
with timeouts, retries and checks, over pyserial.

A reply is trusted only if its line CRC is right, its sequence number is
the one just sent, and (for journal reads) the rebuilt bytes match the
length and CRC32 the device announced. Anything else is dropped, and the
request is sent again: every command is safe to repeat.
"""

import errno
import math
import random
import time

import serial
from serial.tools import list_ports

from shared_rules.wire import LineError, crc32, encode

from shared_rules.wire_read import decode

from moontable.dberror import DbError
from moontable.names import check_device_name

try:  # a pulled cable can surface as termios.error (not an OSError) on POSIX
    import termios
    _IO_ERRORS = (serial.SerialException, OSError, termios.error)
except ImportError:  # Windows
    _IO_ERRORS = (serial.SerialException, OSError)

MAX_FRAME = 256  # a PC->device frame (LF included) stays below this
DEFAULT_BAUD = 115200
# How long `hello` may go unanswered before the port is judged not to be a
# moontable device. A running app answers within milliseconds, so a port
# that says nothing sound for this long is the wrong port (or no app).
HELLO_PATIENCE = 2.5
GAME_STATES = ("open", "done", "synced")
LINE_MAX = 4096  # the longest reply line read; a hello or a listing page stays under 1 KB
MAX_BODY = 1 << 16  # a read reply's body: a 2048-byte chunk and its segment marks fit many times over
READ_MAX = 2048  # the most journal bytes one read may ask for, and what a read without "n" asks for

# (vendor id, product id or None for any, what it is)
KNOWN_IDS = (
    (0x2E8A, 0x0005, "MicroPython on a Raspberry Pi Pico (rp2)"),
    (0x303A, None, "ESP32 with native USB (Espressif)"),
    (0x10C4, 0xEA60, "ESP32 board with a CP210x USB-serial bridge"),
    (0x1A86, 0x7523, "ESP32 board with a CH340 USB-serial bridge"),
    (0x1A86, 0x55D4, "ESP32 board with a CH9102 USB-serial bridge"),
)


class LinkError(Exception):
    """The link failed: port gone, or no sound reply after every retry. A
    sync stopped by this resumes where it left off next time."""


class NoReply(LinkError):
    """Every attempt at a request went without a sound reply."""


class PortError(LinkError):
    """The port cannot be used at all: it does not exist, cannot be opened,
    or nothing that speaks moontable answers on it. Running again will not
    help until the user names another port or fixes the board."""


class BadReply(Exception):
    """The device answered, with a sound frame, something the protocol does
    not allow (a hello without an id, a malformed game listing, a listing
    that does not move on). Retrying would get the same answer, so the
    sync stops; nothing staged so far is lost."""


class DeviceError(Exception):
    """The device understood the request and refused it."""

    def __init__(self, code, message, reply=None):
        super().__init__("%s: %s" % (code, message))
        self.code = code
        self.message = message
        self.reply = reply or {}


# --- port discovery ------------------------------------------------------
def describe_ids(vid, pid):
    """What a USB vendor/product id pair is, or None if it is no known board."""
    for kvid, kpid, what in KNOWN_IDS:
        if vid == kvid and (kpid is None or pid == kpid):
            return what
    return None


def find_ports(ports=None):
    """[(device path, description)] of serial ports that look like a board."""
    if ports is None:
        ports = list_ports.comports()
    found = []
    for p in ports:
        what = describe_ids(getattr(p, "vid", None), getattr(p, "pid", None))
        if what:
            found.append((p.device, what))
    return sorted(found)


def port_listing(ports=None):
    """Every serial port, for `moontable sync --list`: [{"port", "usb"
    ("VID:PID" in hex, or None without USB ids), "description", "board"
    (what known board its ids belong to, or None)}], sorted by port."""
    if ports is None:
        ports = list_ports.comports()
    rows = []
    for p in ports:
        vid, pid = getattr(p, "vid", None), getattr(p, "pid", None)
        rows.append({
            "port": p.device,
            "usb": "%04X:%04X" % (vid, pid) if vid is not None and pid is not None else None,
            "description": getattr(p, "description", None),
            "board": describe_ids(vid, pid),
        })
    return sorted(rows, key=lambda r: r["port"])


def no_port_message():
    ids = ", ".join(
        "%04X:%s" % (v, "%04X" % p if p is not None else "*") for v, p, _ in KNOWN_IDS
    )
    return (
        "no moontable board found: no serial port has the USB ids of MicroPython's "
        "rp2 or an ESP32 (%s). Plug the board in, or name its port with --port, "
        "e.g. --port /dev/ttyACM0 (Linux), --port /dev/cu.usbmodem1101 (macOS), "
        "--port COM3 (Windows); the simulator prints its pty path when it starts." % ids
    )


def choose_port(port=None, ports=None):
    """The port to use: `port` if given, else the only board found.
    LinkError with a clear message when there is none or several."""
    if port:
        return port
    found = find_ports(ports)
    if not found:
        raise LinkError(no_port_message())
    if len(found) > 1:
        listing = "; ".join("%s (%s)" % f for f in found)
        raise LinkError("several boards found: %s. Choose one with --port." % listing)
    return found[0][0]


def _missing(e):
    """True when opening a port failed because it does not exist."""
    if getattr(e, "errno", None) == errno.ENOENT:
        return True
    text = str(e)
    return "FileNotFoundError" in text or "No such file or directory" in text


# --- checking replies -------------------------------------------------------
def _whole(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v, default):
    return v if _whole(v) else default


def _secs(x):
    return ("%.1f" % x).rstrip("0").rstrip(".")


def _shorten(obj, limit=120):
    text = repr(obj)
    return text if len(text) <= limit else text[:limit] + "..."


def _game_entry(entry, index):
    """A listing entry [id, size, state] -> (id, size, state), the size
    None when it is no number of bytes: a board lists -1 for a journal it
    cannot open, and that one game must not keep the others from the PC.
    BadReply naming what is wrong for an entry without a usable id or
    state: a listing that garbles those cannot be trusted at all."""
    why = None
    if not isinstance(entry, list) or len(entry) != 3:
        why = "it is not [id, size, state]"
    elif not isinstance(entry[0], str) or not entry[0] or len(entry[0]) > 64 or not entry[0].isprintable():
        why = "the game id is not a short printable text"
    elif entry[2] not in GAME_STATES:
        why = "the state is not one of %s" % ", ".join(GAME_STATES)
    if why:
        raise BadReply("the device's game listing (page from index %d) has a malformed entry %s: %s"
                       % (index, _shorten(entry, 80), why))
    size = entry[1] if _whole(entry[1]) and entry[1] >= 0 else None
    return entry[0], size, entry[2]


def check_timeout(value):
    """A reply timeout in seconds from the command line: a finite number
    above 0 and at most an hour. ValueError saying why otherwise."""
    try:
        t = float(value)
    except (TypeError, ValueError):
        raise ValueError("%r is not a number of seconds" % (value,))
    if math.isnan(t) or math.isinf(t):
        raise ValueError("%r is not a number of seconds; give a finite time such as 2" % (value,))
    if t <= 0:
        raise ValueError("%s s: the time to wait for each reply must be more than 0" % (value,))
    if t > 3600:
        raise ValueError("%s s is more than an hour; give at most 3600" % (value,))
    return t


# --- journal chunks ------------------------------------------------------
def decode_chunk(body):
    """The body of a read reply -> the journal bytes it stands for (the
    inverse of firmware/link/protocol.py encode_chunk). ValueError if malformed."""
    out = bytearray()
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c == 0x7B:  # "{": a line sent without its canonical CRC trailer
            j = body.find(b"\n", i)
            if j < 0:
                raise ValueError("line without end in chunk")
            line = body[i:j]
            out += line
            out += b"\t%08x\n" % crc32(line)
            i = j + 1
        elif c == 0x21:  # "!": a raw segment "!<hex length>:<bytes>"
            colon = body.find(b":", i, i + 12)
            if colon < 0:
                raise ValueError("raw segment without length")
            try:
                length = int(body[i + 1:colon], 16)
            except ValueError:
                raise ValueError("raw segment length is not hex")
            start = colon + 1
            if length <= 0 or start + length > n:
                raise ValueError("raw segment runs past the chunk")
            out += body[start:start + length]
            i = start + length
        else:
            raise ValueError("unexpected byte 0x%02x in chunk" % c)
    return bytes(out)


# --- the link ------------------------------------------------------------
class Link:
    """Request/reply over an open serial port (or any object with pyserial's
    read/write/in_waiting/reset_input_buffer/close)."""

    def __init__(self, ser, timeout=1.0, retries=6):
        self.ser = ser
        self.timeout = timeout
        self.retries = retries
        self.seq = random.randrange(1, 1 << 20)
        self._rx = bytearray()
        self.bytes_out = 0   # every byte written, retries included
        self.bytes_in = 0    # every byte read
        self.resends = 0     # requests sent again after a bad or missing reply
        self.spoke = False   # the last exchange heard something shaped like a reply
        self.tries = 0       # attempts the last failed exchange made
        self.hello_time = None  # time.time() when the last hello reply came
        self.overlong = 0    # length of the longest line dropped for being longer than LINE_MAX
        self._dropping = 0   # bytes dropped so far of the over-long line coming in
        self.port = getattr(ser, "port", None) or "the port"

    @classmethod
    def open(cls, port, baudrate=DEFAULT_BAUD, timeout=1.0, retries=6):
        """Open `port`. PortError "no such port: X" when it does not exist,
        "cannot open X: why" for any other refusal."""
        try:
            ser = serial.Serial(port, baudrate=baudrate, timeout=0.05, write_timeout=max(timeout, 2.0))
        except (serial.SerialException, OSError, ValueError) as e:
            if _missing(e):
                raise PortError("no such port: %s" % port)
            raise PortError("cannot open %s: %s" % (port, e))
        link = cls(ser, timeout=timeout, retries=retries)
        link.port = port
        return link

    def close(self):
        try:
            self.ser.close()
        except _IO_ERRORS:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- raw I/O ---------------------------------------------------------
    def _send(self, data):
        try:
            self.ser.write(data)
            self.ser.flush()
        except _IO_ERRORS as e:
            raise LinkError("serial link lost while sending: %s" % e)
        self.bytes_out += len(data)

    def _fill(self, deadline):
        """Read what is waiting (or wait briefly); False once past deadline."""
        if time.monotonic() > deadline:
            return False
        try:
            waiting = self.ser.in_waiting
            data = self.ser.read(waiting if waiting > 0 else 1)
        except _IO_ERRORS as e:
            raise LinkError("serial link lost while reading: %s" % e)
        if data:
            self.bytes_in += len(data)
            self._rx += data
        return True

    def _readline(self, deadline, limit=None):
        """The next whole line, or None once past deadline. A line longer
        than `limit` (LINE_MAX) is dropped as it comes (no reply is that
        long: holding it would let a babbling port fill the memory), and
        its length is kept in self.overlong so the caller can say what
        happened rather than call it silence."""
        if limit is None:
            limit = LINE_MAX
        while True:
            i = self._rx.find(b"\n")
            if i >= 0:
                line = bytes(self._rx[:i + 1])
                del self._rx[:i + 1]
                if self._dropping:
                    # the end of an over-long line: not a reply either
                    self.overlong = max(self.overlong, self._dropping + len(line))
                    self._dropping = 0
                    continue
                return line
            if len(self._rx) > limit:
                self._dropping += len(self._rx)
                del self._rx[:]  # noise with no line end: drop it
            if not self._fill(deadline):
                return None

    def _read_exact(self, n, deadline):
        while len(self._rx) < n:
            if not self._fill(deadline):
                return None
        data = bytes(self._rx[:n])
        del self._rx[:n]
        return data

    def _drain(self):
        """Drop whatever is in flight before sending a request again."""
        end = time.monotonic() + min(0.05, self.timeout)
        while self._fill(end):
            pass
        del self._rx[:]

    # --- requests --------------------------------------------------------
    def frame(self, cmd, fields):
        """The bytes of one request (new sequence number each call)."""
        self.seq = (self.seq + 1) & 0x7FFFFFFF
        req = {"s": self.seq, "c": cmd}
        req.update(fields)
        data = encode(req)
        if len(data) >= MAX_FRAME:
            raise ValueError("request %r is %d bytes; frames must stay under %d" % (cmd, len(data), MAX_FRAME))
        return data

    def request(self, cmd, **fields):
        """Send one command; return (reply, journal bytes or None).

        Retries on silence, garbage, a frame the device could not read, or
        a chunk that does not check out. DeviceError if the device refuses
        the request itself; LinkError when the retries run out."""
        return self._exchange(cmd, fields, self.timeout, self.retries, None)

    def _exchange(self, cmd, fields, timeout, attempts, budget):
        """request() with its own wait per attempt, number of attempts and
        (budget, seconds, or None) an overall limit on the whole exchange.
        Sets self.spoke when anything shaped like a reply came back."""
        last = "no reply"
        self.spoke = False
        self.overlong = 0
        self._dropping = 0
        sent = set()  # every attempt's sequence number: a slow device's answer to an earlier one is as good
        give_up = None if budget is None else time.monotonic() + budget
        for attempt in range(attempts):
            if attempt:
                if give_up is not None and time.monotonic() >= give_up:
                    break
                self.resends += 1
                self._drain()
                prefix = b"\n"  # ends any partial frame the device holds
            else:
                prefix = b""
            data = self.frame(cmd, fields)
            sent.add(self.seq)
            self._send(prefix + data)
            deadline = time.monotonic() + timeout
            if give_up is not None:
                deadline = min(deadline, give_up)
            while True:
                line = self._readline(deadline)
                if line is None:
                    break
                try:
                    reply = decode(line, need_crc=True)
                except LineError as e:
                    last = "garbled reply (%s)" % e
                    continue
                if not isinstance(reply, dict) or ("ok" not in reply and "e" not in reply):
                    continue  # not a reply (an echo of our own request, say)
                self.spoke = True
                if reply.get("s") is None and "e" in reply:
                    last = "device could not read the request (%s)" % reply.get("m")
                    break  # our frame was damaged on the way: send it again
                if not _whole(reply.get("s")) or reply["s"] not in sent:
                    continue  # a late reply to an earlier request
                # (the same request asked again: every command is safe to
                # repeat, so the first answer to any attempt will do)
                if "e" in reply:
                    raise DeviceError(reply["e"], reply.get("m", ""), reply)
                if "b" not in reply:
                    return reply, None
                size = reply["b"]
                body = self._read_exact(size, deadline) if _whole(size) and 0 <= size <= MAX_BODY else None
                if body is None:
                    last = "chunk cut short"
                    break
                try:
                    chunk = decode_chunk(body)
                except ValueError as e:
                    last = "bad chunk (%s)" % e
                    break
                if len(chunk) != _num(reply.get("x"), -1) - _num(reply.get("o"), 0) or crc32(chunk) != reply.get("k"):
                    last = "chunk does not match its length or CRC"
                    break
                asked = fields.get("n") or READ_MAX
                if len(chunk) > asked:
                    # Sound checks, but bytes the PC did not ask for (past
                    # the size the device listed): never staged.
                    last = ("the device sent %d bytes from offset %s, past the %d asked for"
                            % (len(chunk), reply.get("o"), asked))
                    break
                return reply, chunk
        self.tries = attempt + 1
        if self.overlong and last == "no reply":
            last = ("the device sent a line of %d bytes, longer than any reply (at most %d), and it was not read"
                    % (self.overlong, LINE_MAX))
        raise NoReply("no sound reply to %r after %d attempts: %s" % (cmd, attempt + 1, last))

    # --- commands --------------------------------------------------------
    def hello(self, patience=None):
        """The device's hello reply, checked: it names the device ("id").

        Gives up after `patience` seconds (default: HELLO_PATIENCE, or the
        reply timeout if that is longer) with PortError when nothing shaped
        like a moontable reply came back: the port is not a moontable
        device. A device that speaks but garbles gets the usual LinkError.
        BadReply when the reply has no usable "id"."""
        if patience is None:
            patience = max(HELLO_PATIENCE, self.timeout)
        per_try = min(self.timeout, patience / 3.0)
        before = self.bytes_in
        try:
            reply = self._exchange("hello", {}, per_try, max(self.retries, 3), patience)[0]
            self.hello_time = time.time()
        except NoReply:
            if self.spoke:
                raise
            if self.overlong:
                raise BadReply(
                    "the device on %s answered hello with a line of %d bytes; no moontable reply is longer than %d "
                    "(a hello is under 1 KB), so it was not read. The board speaks but not as this moontable "
                    "expects: update its firmware with `moontable flash`, or check that the port is the board's"
                    % (self.port, self.overlong, LINE_MAX))
            got = self.bytes_in - before
            heard = ("nothing came back" if not got else
                     "only %d byte%s came back, none of them a moontable reply" % (got, "" if got == 1 else "s"))
            raise PortError(
                "no moontable device answered on %s: in %s s, %s (asked %d time%s). It may be the wrong port "
                "(`moontable sync --list` shows the candidates), or the board is not running the moontable app "
                "(at the REPL or in safe mode: restart it, or deploy with `moontable flash`)."
                % (self.port, _secs(patience), heard, self.tries, "" if self.tries == 1 else "s"))
        dev = reply.get("id")
        if not isinstance(dev, str) or not dev.strip():
            raise BadReply("the device's hello reply names no device: %s %r; a moontable app always sends "
                           "its id (update the firmware with `moontable flash`)"
                           % ("no \"id\" in" if "id" not in reply else "unusable \"id\" in", _shorten(reply)))
        try:
            # The games are filed as DEVICE/GAME_ID: an id `import --device`
            # refuses would store games that `show` can never name.
            check_device_name(dev)
        except DbError as e:
            raise BadReply("the device's hello reply gives an id the PC cannot file games under: %s (a board's id "
                           "is its chip's serial number; a simulator's is MOONSIM_ID)" % e)
        return reply

    def list_games(self, unsized=None):
        """[(game id, size, state)] for every game on the device, in the
        device's order. A game listed without a usable size is left out,
        and added to the list `unsized` (when given) as (game id, the size
        as sent, state), so the caller can name it. BadReply when a page is
        malformed, does not move the listing on ("next" must be null or
        past the index asked for), or lists a game an earlier page listed:
        either would otherwise loop for ever."""
        games = []
        seen = set()
        i = 0
        while i is not None:
            reply = self.request("ls", i=i)[0]
            page = reply.get("games")
            if not isinstance(page, list):
                raise BadReply("the device's game listing (from index %d) has no list of games: %s"
                               % (i, _shorten(reply)))
            for entry in page:
                gid, size, state = _game_entry(entry, i)
                if gid in seen:
                    # The cursor names games by number, so pages never
                    # overlap: a repeat means the device ignores the
                    # cursor, and paging on would never end.
                    raise BadReply("the device's game listing repeats game %s on the page from index %d (it was "
                                   "listed already): the device does not page by the cursor it is given; stopped "
                                   "rather than loop for ever" % (gid if gid.isprintable() and len(gid) <= 40 else _shorten(gid, 40), i))
                seen.add(gid)
                if size is None:
                    if unsized is not None:
                        unsized.append((gid, entry[1], state))
                    continue
                games.append((gid, size, state))
            nxt = reply.get("next")
            if nxt is not None and not _whole(nxt):
                raise BadReply("the device's game listing (from index %d) has a \"next\" that is not a whole "
                               "number: %s" % (i, _shorten(nxt)))
            if nxt is not None and not page:
                raise BadReply("the device's game listing gave no game from index %d yet says more follow from %d; "
                               "stopped rather than page through nothing" % (i, nxt))
            if nxt is not None and nxt <= i:
                raise BadReply("the device's game listing does not move on: asked from index %d, it says the "
                               "next page starts at %r (it must be past %d, or null at the end); stopped "
                               "rather than loop for ever" % (i, nxt, i))
            i = nxt
        return games

    def read(self, game_id, offset, n=None):
        """(reply, journal bytes from offset); bytes are b"" at the end."""
        fields = {"g": game_id, "o": offset}
        if n:
            fields["n"] = n
        reply, chunk = self.request("rd", **fields)
        if reply.get("o") != offset or reply.get("g") != game_id:
            raise LinkError("device answered a different read than asked")
        return reply, chunk or b""

    def ack(self, game_id):
        return self.request("ack", g=game_id)[0]

    def set_clock(self, epoch_s):
        return self.request("clock", t=int(epoch_s))[0]

    def get_settings(self):
        return self.request("get")[0]["v"]

    def set_settings(self, values):
        return self.request("set", v=values)[0]["v"]

    def push_roster(self, names):
        """Send the roster in parts that each fit one frame."""
        parts = []
        part = []
        for name in names:
            trial = part + [name]
            if len(self._frame_bytes("roster", {"i": 0, "names": trial, "end": False})) >= MAX_FRAME - 8:
                parts.append(part)
                part = [name]
            else:
                part = trial
        parts.append(part)
        i = 0
        reply = None
        for k, part in enumerate(parts):
            reply = self.request("roster", i=i, names=part, end=k == len(parts) - 1)[0]
            i += len(part)
        return reply

    def _frame_bytes(self, cmd, fields):
        req = {"s": 0x7FFFFFFF, "c": cmd}
        req.update(fields)
        return encode(req)

    def repl(self):
        return self.request("repl")[0]
