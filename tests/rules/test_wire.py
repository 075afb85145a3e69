from _support import raises
from shared_rules.wire import LineError, crc32, encode
from shared_rules.wire_read import decode


def test_crc32_matches_zlib_check_value():
    assert crc32(b"123456789") == 0xCBF43926


def test_line_round_trip():
    obj = {"type": "bid", "player": 2, "amount": 35, "name": "tab\there"}
    line = encode(obj)
    assert line.endswith(b"\n")
    assert decode(line) == obj


def test_corrupt_line_is_named():
    line = encode({"type": "bid", "amount": 35})
    flipped = line.replace(b"35", b"36")
    e = raises(decode, flipped, match="CRC mismatch", error=LineError)
    assert e.kind == "crc"


def test_plain_json_line_is_read_and_garbage_is_named():
    assert decode(b'{"type":"undo"}\n') == {"type": "undo"}
    assert raises(decode, b'{"type":', error=LineError).kind == "json"
    assert raises(decode, b"[1,2]", error=LineError).kind == "shape"
    assert raises(decode, b'{"a":1}', True, error=LineError).kind == "crc"


def test_replay_step_before_the_header_is_named():
    from shared_rules.errors import LogError
    from shared_rules.log import Replay

    raises(Replay().step, {"type": "bid"}, 5, match="before the header", error=LogError)
