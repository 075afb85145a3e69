"""Hostile log lines (issue #12): every one is refused with a LogError
naming its line and cause, never a traceback, and both interpreters
agree (tests/test_wire_agreement.py compares them line by line)."""

from _support import data_path, raises
from shared_rules.errors import LogError
from shared_rules.log import Replay
from shared_rules.wire import LineError
from shared_rules.wire_read import decode
from shared_rules.wire_read import MAX_LISTS


class Stream:
    """A binary stream with readinto(), as a file has, over parts served in
    turn: byte strings, or a count of filler bytes made as they are read
    (no joined copy: the MicroPython test heap is 72K)."""

    def __init__(self, parts):
        self.parts = parts
        self.at = 0

    def readinto(self, view):
        parts = self.parts
        while parts and (parts[0] == 0 or (type(parts[0]) is not int and self.at == len(parts[0]))):
            parts.pop(0)
            self.at = 0
        if not parts:
            return 0
        data = parts[0]
        if type(data) is int:
            n = min(len(view), data)
            view[:n] = b"y" * n
            parts[0] = data - n
            return n
        n = min(len(view), len(data) - self.at)
        view[:n] = data[self.at:self.at + n]
        self.at += n
        return n


HEADER = b'{"type":"header","game":"moons","players":["a","b","c"],"options":{},"rules":1}\n'


def feed(*lines):
    return Replay().feed(Stream([HEADER] + list(lines)))


def test_nan_infinity_and_control_characters_are_refused():
    for body in (b'{"type":"pass","player":NaN}', b'{"type":"pass","player":Infinity}',
                 b'{"type":"pass","player":-Infinity}'):
        assert raises(decode, body, error=LineError).kind == "json"
    e = raises(decode, b'{"type":"pass","who":"a\x01b"}', error=LineError)
    assert e.kind == "json" and "raw control character (code 1)" in str(e)
    raises(feed, b'{"type":"first","player":0,"n":"\x1b"}\n', match="line 2: a raw control character", error=LogError)


def test_nesting_past_the_bound_is_refused_before_parsing():
    import sys

    n = 100000 if sys.implementation.name != "micropython" else 1000  # (a 72K test heap)
    deep = b'{"a":' + b"[" * n + b"]" * n + b"}"
    e = raises(decode, deep, error=LineError)
    assert e.kind == "json" and ("more than %d lists" % MAX_LISTS) in str(e)
    ok = b'{"a":' + b"[" * 50 + b"]" * 50 + b"}"
    v = decode(ok)["a"]
    for _ in range(49):
        v = v[0]
    assert v == []


def test_absurd_numbers_and_device_extras_in_events():
    raises(feed, b'{"type":"first","player":1e400}\n', match="line 2: player must be a seat", error=LogError)
    raises(feed, b'{"type":"first","player":true}\n', match="line 2: player must be a seat", error=LogError)
    raises(feed, b'{"type":"move","from":"supply","to":0,"planet":"saturn","count":10000000000000000}\n',
           match="line 2: a move takes 1 to 68 tokens", error=LogError)
    rep = feed(b'{"type":"first","player":2,"t":1700000000,"b":4,"ms":99}\n')
    assert rep.match.state["first"] == 2


def test_the_shared_hostile_lines_all_get_a_clear_answer():
    """Every line of tests/data/hostile-lines.txt decodes to an object or
    raises LineError: nothing else escapes (the agreement test compares
    the two interpreters' answers)."""
    with open(data_path("hostile-lines.txt"), "rb") as f:
        lines = f.read().split(b"\n")
    seen = 0
    for line in lines:
        if line:
            seen += 1
            try:
                assert type(decode(line)) is dict
            except LineError:
                pass
    assert seen >= 18
