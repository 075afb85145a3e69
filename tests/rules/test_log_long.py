"""A line longer than any record, or nested past the bound, is refused
with its line number (in a file of its own: the 4 KB line buffer needs
the 72K MicroPython heap to itself)."""

from _support import raises
from shared_rules.errors import LogError
from shared_rules.log import LINE_MAX
from test_log_hostile import feed


def test_a_line_longer_than_any_record_is_refused_with_its_number():
    raises(feed, b'{"type":"first","player":0}\n', b'{"type":"first","player":0,"x":"', LINE_MAX, b'"}\n',
           match="line 3: line is longer than 2048 bytes", error=LogError)
    deep = b'{"type":"first","player":1,"x":' + b"[" * 300 + b"]" * 300 + b"}\n"
    raises(feed, deep, match="line 2: more than 200 lists", error=LogError)
