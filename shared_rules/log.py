"""Reading and replaying game logs (JSON Lines: a header, then events).

The same reader serves the device at boot (resuming from its journal) and
the PC (replay, sync verification). It walks lines one at a time, so a long
evening's log never has to fit in memory at once. See docs/log-format.md.
"""

from shared_rules.errors import LogError, RuleError
from shared_rules.match import Match
from shared_rules.wire import LineError
from shared_rules.wire_read import decode, decode_line


def parse_line(raw, lineno, last):
    """One log line -> dict, or LogError with the line number and the cause.

    `last` says the line is the final one of the file: if it has no line
    end and does not parse, it was cut off mid-write, and is reported as
    truncated rather than as bad JSON."""
    if isinstance(raw, str):
        raw = raw.encode()
    try:
        return decode(raw)
    except LineError as e:
        if last and not raw.endswith(b"\n"):
            raise LogError(lineno, "truncated: the last line ends mid-record (%s)" % e)
        raise LogError(lineno, str(e))


CHUNK = 512  # bytes _raw_lines reads at a time (its buffer grows for a longer line)
LINE_MAX = 2048  # bytes in one line: a record is far shorter (a header of 8 long names: 800)


def _raw_lines(stream):
    """Each line of a binary stream, line end included (the last may have
    none). Read into one reused buffer and split here: MicroPython's
    readline() on a file makes one read call per byte, which on the unix
    port costs more than decoding and applying the event together, and a
    reused buffer leaves no garbage between the states a replay keeps."""
    buf = bytearray(CHUNK)
    view = memoryview(buf)
    have = 0
    while True:
        n = stream.readinto(view[have:])
        if not n:
            break
        have += n
        start = 0
        end = buf.find(b"\n", 0, have)
        while end >= 0:
            yield bytes(view[start:end + 1])
            start = end + 1
            end = buf.find(b"\n", start, have)
        if start:  # keep the unfinished line, at the front
            have -= start
            buf[:have] = bytes(view[start:start + have])
        elif have == len(buf):  # one line fills the buffer: make room
            if have >= LINE_MAX:
                yield None  # iter_lines names the line; reading stops here
                return
            view = None  # (a live view pins the buffer's size)
            buf.extend(bytes(len(buf)))
            view = memoryview(buf)
    if have:
        yield bytes(view[:have])


def iter_lines(stream):
    """(lineno, raw bytes line, is_last) for each non-blank line of a binary
    stream, looking one line ahead to know which is last."""
    lineno = 0
    pending = None
    pending_no = 0
    for raw in _raw_lines(stream):
        lineno += 1
        if raw is None:
            raise LogError(lineno, "line is longer than %d bytes: no record is, so the log is damaged" % LINE_MAX)
        if raw[0] <= 32 and not raw.strip():  # strip() only for lines that may be blank
            continue
        if pending is not None:
            yield pending_no, pending, False
        pending = raw
        pending_no = lineno
    if pending is not None:
        yield pending_no, pending, True


class Replay:
    """Replays a log and keeps what a report needs: each round's scores.

    Memory stays bounded by the number of rounds, not events.

    The per-event path has no try/except of its own: on the MicroPython
    unix port a function that sets up an exception handler costs several
    microseconds per call, about as much as decoding the line. `feed` has
    one handler around the whole loop and turns what escapes into a
    LogError for the line it was on."""

    def __init__(self):
        self.match = None
        self.rounds = []  # rounds[k] = scores after round k+1
        self.events = 0

    def start(self, header, lineno=1):
        try:
            self.match = Match.from_header(header)
        except RuleError as e:
            raise LogError(lineno, str(e))

    def step(self, event, lineno):
        """Apply one event; RuleError (with the state untouched) if illegal,
        LogError if no header has started the replay yet."""
        match = self.match
        if match is None:
            raise LogError(lineno, "event before the header line")
        state = match.apply(event)
        self.events += 1
        done = state["round"]
        if done < len(self.rounds):
            del self.rounds[done:]
        while len(self.rounds) < done:
            self.rounds.append(list(state["scores"]))

    def feed(self, stream):
        """Replay every line of a binary stream; LogError on the first bad one."""
        lineno = 0
        raw = b""
        last = False
        try:
            for lineno, raw, last in iter_lines(stream):
                if self.match is None:
                    self.start(parse_line(raw, lineno, last), lineno)
                else:
                    self.step(decode_line(raw, False), lineno)
        except RuleError as e:
            raise LogError(lineno, str(e))
        except LogError:
            raise
        except LineError:
            parse_line(raw, lineno, last)  # raises the LogError naming the cause
            raise
        except (ValueError, UnicodeError):
            parse_line(raw, lineno, last)
            raise
        if self.match is None:
            raise LogError(0, "log is empty: no header line")
        return self


def replay_file(path):
    """Replay a log file from disk; returns the Replay."""
    with open(path, "rb") as f:
        return Replay().feed(f)
