"""A log's header line (Match.from_header): the game is named by text,
the rules version is the whole number this core reads, the options are
an object. Each refusal is a RuleError with a sentence for a person."""

from _support import raises
from shared_rules import RULES_VERSION
from shared_rules.match import Match


def header(**kw):
    h = {"type": "header", "game": "moon", "players": ["a", "b", "c"], "options": {}, "rules": RULES_VERSION}
    h.update(kw)
    return h


def test_game_must_be_a_name():
    raises(Match.from_header, header(game=["moon"]), match="the game must be named by text")
    raises(Match.from_header, header(game={"a": 1}), match="not a dict")
    raises(Match.from_header, header(game=7), match="not a int")
    raises(Match.from_header, header(game="chess"), match="unknown game 'chess'")


def test_rules_version_is_the_whole_number():
    assert Match.from_header(header()).state["round"] == 0
    for bad in (True, 1.0, "1", 2, None):
        raises(Match.from_header, header(rules=bad), match="this core reads version 1")


def test_options_must_be_an_object_when_present():
    h = header()
    del h["options"]
    assert Match.from_header(h).header["options"] == {}
    for bad, shown in (([], "[]"), ("", "''"), (None, "null"), (0, "0")):
        raises(Match.from_header, header(options=bad), match="options must be an object such as {}, not " + shown)


def test_extra_keys_are_kept_and_event_extras_ignored():
    m = Match.from_header(header(id="g1", device="pico"))
    assert m.header["id"] == "g1"
    s = m.apply({"type": "pass", "player": 0, "t": 1700000000, "b": 3, "ms": 12345})
    assert s["bids"] == [0, None, None]
    raises(m.apply, {"type": ["pass"], "player": 1}, match="an event must be an object with a \"type\" naming it")
