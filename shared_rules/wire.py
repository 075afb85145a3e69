"""One line format for everything that crosses a boundary: the device's
journal on flash and the frames of the serial protocol.

A line is compact JSON, a TAB, and the CRC32 of the JSON bytes as 8 lower-
case hex digits, then LF. JSON escapes every TAB inside strings, so the
last TAB on the line is always the separator. A plain JSON Lines log (no
CRC) is read too: the CRC is optional on input, and checked when present.

Both the firmware and the host import this module, so the framing is
written once. Reading a line back is in shared_rules/wire_read.py, loaded
on first use: the device writes a line at every event of a game but reads
lines only at boot and during a sync, so a game does not carry that code.
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
