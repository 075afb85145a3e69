"""Reading a line of the wire format (shared_rules/wire.py says what a
line is): the CRC checked when present, the JSON parsed alike under
CPython and MicroPython, the result an object. Kept apart from the writing
side, which the device needs all game long, because the device reads
lines only at boot and during a sync."""

import json

# _crc32: the C function when the interpreter has one (wire.py says which)
from shared_rules.wire import LineError, _crc32, crc32

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
