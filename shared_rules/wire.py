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

    Raises LineError naming what is wrong: bad CRC, bad JSON, missing CRC
    when need_crc, or a value that is not a JSON object."""
    if isinstance(line, str):
        line = line.encode()
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    tab = line.rfind(b"\t")
    if tab >= 0:
        body = line[:tab]
        tail = line[tab + 1:]
        if len(tail) != 8:
            raise LineError("crc", "CRC field must be 8 hex digits, got %d characters" % len(tail))
        try:
            want = int(tail, 16)
        except ValueError:
            raise LineError("crc", "CRC field is not hex")
        got = crc32(body)
        if got != want:
            raise LineError("crc", "CRC mismatch (line says %08x, content gives %08x)" % (want, got))
    else:
        if need_crc:
            raise LineError("crc", "line has no CRC")
        body = line
    try:
        obj = json.loads(body)
    except (ValueError, UnicodeError):
        raise LineError("json", "not valid JSON")
    if not isinstance(obj, dict):
        raise LineError("shape", "expected a JSON object, got %s" % type(obj).__name__)
    return obj
