"""One line format for everything that crosses a boundary: the device's
journal on flash and the frames of the serial protocol.

A line is compact JSON, a TAB, and the CRC32 of the JSON bytes as 8 lower-
case hex digits, then LF. JSON escapes every TAB inside strings, so the
last TAB on the line is always the separator. A plain JSON Lines log (no
CRC) is read too: the CRC is optional on input, and checked when present.

Both the firmware and the host import this module, so the framing is
written once.
"""

import json

try:
    from binascii import crc32 as _crc32
except ImportError:  # a MicroPython build without binascii.crc32
    _crc32 = None

_TABLE = None
MAX_LISTS = 200  # "[" and "{" in one line: no record comes near; deeper is hostile


def _no_constant(name):
    raise LineError("json", "%s is not a JSON number" % name)


# MicroPython's json refuses NaN and Infinity; CPython's reads them unless
# told not to. A log must replay the same on both, so the PC refuses too.
_decoder = json.JSONDecoder(parse_constant=_no_constant) if hasattr(json, "JSONDecoder") else None


def _loads(body):
    if _decoder is None:  # MicroPython
        return json.loads(body)
    # "surrogatepass": as json.loads does for bytes (and MicroPython too)
    return _decoder.decode(body.decode("utf-8", "surrogatepass"))


def crc32(data):
    """CRC-32 (IEEE, as zlib) of bytes."""
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    global _TABLE
    if _TABLE is None:
        _TABLE = []
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            _TABLE.append(c)
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


class LineError(ValueError):
    """A line that is not a sound record. `kind` is one of "crc", "json",
    "truncated", "shape", so callers can react without parsing text."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def dumps(obj):
    """Compact JSON text (no spaces), identical in intent on both
    interpreters (key order may differ; nothing relies on it)."""
    return json.dumps(obj, separators=(",", ":"))


def encode(obj):
    """obj -> one journal/protocol line as bytes, with CRC and LF."""
    body = dumps(obj).encode()
    return body + ("\t%08x\n" % crc32(body)).encode()


def decode(line, need_crc=False):
    """bytes or str of one line (with or without LF) -> the JSON object.

    Raises LineError naming what is wrong: bad CRC, bad JSON (NaN and
    Infinity, raw control characters and nesting past MAX_LISTS included,
    on both interpreters alike), missing CRC when need_crc, or a value
    that is not a JSON object."""
    try:
        return decode_line(line, need_crc)
    except LineError:
        raise
    except (ValueError, UnicodeError):  # (MicroPython's UnicodeError is no ValueError)
        # decode_line lets int() and json.loads() raise; name the cause here.
        tab = line.rfind(b"\t" if type(line) is bytes else "\t")
        if tab >= 0:
            try:
                int(line[tab + 1:].strip(), 16)
            except ValueError:
                raise LineError("crc", "CRC field is not hex")
        raise LineError("json", "not valid JSON")


def decode_line(line, need_crc):
    """decode() for hot loops: the same checks and result, but malformed
    text (bad hex, bad JSON) raises the plain ValueError of int() or
    json.loads() instead of a LineError, so this function needs no
    exception handler. On the MicroPython unix port a function that sets
    one up costs several microseconds per call, as much as the JSON
    decoding itself, and this runs once per event in every replay."""
    if type(line) is str:
        line = line.encode()
    end = len(line)
    if end and line[end - 1] == 10:
        end -= 1
    if end and line[end - 1] == 13:
        end -= 1
    tab = line.rfind(b"\t", 0, end)
    if tab >= 0:
        if end - tab != 9:
            raise LineError("crc", "CRC field must be 8 hex digits, got %d characters" % (end - tab - 1))
        body = line[:tab]
        want = int(line[tab + 1:end], 16)
        got = crc32(body) if _crc32 is None else _crc32(body) & 0xFFFFFFFF
        if got != want:
            raise LineError("crc", "CRC mismatch (line says %08x, content gives %08x)" % (want, got))
    else:
        if need_crc:
            raise LineError("crc", "line has no CRC")
        body = line[:end] if end != len(line) else line
    # Checked before parsing, alike on both interpreters: MicroPython's json
    # takes raw control characters inside strings and CPython's refuses
    # them; CPython's recursion gives out on deep nesting, MicroPython's
    # heap on deeper still. min() and count() run in C, cheap per line.
    if body and min(body) < 32:
        raise LineError("json", "a raw control character (code %d) in the line: JSON text must escape it" % min(body))
    if body.count(b"[") + body.count(b"{") > MAX_LISTS:
        raise LineError("json", "more than %d lists and objects in one line: nested too deep for a record" % MAX_LISTS)
    obj = _loads(body)
    if type(obj) is not dict:
        raise LineError("shape", "expected a JSON object, got %s" % type(obj).__name__)
    return obj
