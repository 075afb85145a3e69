"""Property: whatever a damaged log or situation holds, `replay`, `import`
and `solve` answer with exit status 0 or 2 and never a traceback or a hang.

Inputs are valid games (tests/data, and tests/gamegen.py's random Moonstar
games) and valid Moonstar situations, mutated at random: bytes flipped,
lines cut, doubled, swapped or dropped, values replaced by other JSON
types, control characters and deep nesting slipped in. Commands run
in-process through main(argv) with MOONTABLE_DEBUG set, so an unforeseen
exception fails the test instead of being turned into a polite line; an
alarm bounds each input."""

import json
import os
import signal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dbkit
from shared_rules.errors import RuleError
from shared_rules.wire import dumps, encode

SECONDS_PER_INPUT = 120  # generous: a slow, loaded machine must still pass
BASES = ["moonstar-basic", "moonstar-challenges", "moonstar-counts", "shoot-the-moon-pairs",
         "shoot-the-moon-two-players", "moon-moon21", "moon-totals", "moons-default", "moons-custom-table"]
SITUATIONS = [
    {"planets": [[0, 10], [3, 5]], "moons": [1, 2, 5], "dice": [1, 2, 4]},
    {"moons": [2, 4, 5], "dice": [1, 2, 2], "scoring": "squares", "movement": "more"},
    {"moons": [0, 7], "dice": [3, 2], "planets": [[3, 6], [9, 5]], "favorite_star": True},
]
ODD_VALUES = [None, True, False, 0, -1, 2 ** 70, 1.5, 1e308, "", "x" * 300, "\x1b[2J", "\ud800", [], {},
              [[[]]], {"type": "undo"}, "moonstar", [0, 1, 2], -0.0]


def _base_logs():
    logs = []
    for name in BASES:
        logs.append(dbkit.data_lines(name))
    try:  # random but legal Moonstar games, when the generator and the rules agree
        from gamegen import random_moonstar
        for seed in (1, 2):
            m, events = random_moonstar(["Ann", "Bob", "Cy"], seed, dbkit.T0, 120, True)
            logs.append([m.header] + events)
    except RuleError:
        pass
    return logs


LOGS = _base_logs()


def _odd_value(draw):
    return draw(st.sampled_from(ODD_VALUES))


@st.composite
def mutated_log(draw):
    lines = [dict(x) for x in draw(st.sampled_from(LOGS))]
    crc = draw(st.booleans())
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["value", "value", "drop", "dup", "swap", "key", "deep", "ctrl"]))
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "value" and isinstance(lines[i], dict) and lines[i]:
            key = draw(st.sampled_from(sorted(lines[i])))
            lines[i][key] = _odd_value(draw)
        elif kind == "key" and isinstance(lines[i], dict) and lines[i]:
            del lines[i][draw(st.sampled_from(sorted(lines[i])))]
        elif kind == "drop" and len(lines) > 1:
            del lines[i]
        elif kind == "dup":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "deep":
            lines[i] = {"type": "header", "game": "[" * 5000 + "]" * 5000, "players": _odd_value(draw)}
        elif kind == "ctrl" and isinstance(lines[i], dict):
            lines[i]["note"] = "\r\x1b]0;t\x07\x00"
    data = b"".join(encode(x) if crc else dumps(x).encode() + b"\n" for x in lines)
    data = bytearray(data)
    for _ in range(draw(st.integers(0, 3))):
        if data and draw(st.booleans()):
            pos = draw(st.integers(0, len(data) - 1))
            data[pos] = draw(st.integers(0, 255))
    if draw(st.integers(0, 3)) == 0 and data:
        data = data[:draw(st.integers(1, len(data)))]
    if draw(st.integers(0, 5)) == 0:
        data = bytes(data).replace(b'"players":[', b'"players":' + b"[" * 3000, 1)
    return bytes(data)


@st.composite
def mutated_situations(draw):
    sits = []
    for _ in range(draw(st.integers(1, 3))):
        sit = json.loads(json.dumps(draw(st.sampled_from(SITUATIONS))))
        key = draw(st.sampled_from(sorted(sit) + ["extra"]))
        if draw(st.booleans()):
            sit[key] = _odd_value(draw)
        elif isinstance(sit.get(key), list) and sit[key]:
            sit[key][draw(st.integers(0, len(sit[key]) - 1))] = draw(st.integers(-3, 40))
        sits.append(sit)
    text = "".join(json.dumps(s) + "\n" for s in sits).encode()
    if draw(st.booleans()):
        text = text[:draw(st.integers(0, len(text)))] + draw(st.binary(max_size=8))
    return text


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang("no answer within %d s" % SECONDS_PER_INPUT)


def _run(argv):
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS_PER_INPUT)
    os.environ["MOONTABLE_DEBUG"] = "1"
    try:
        status, out, err = dbkit.cli(*argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        os.environ.pop("MOONTABLE_DEBUG", None)
    assert status in (0, 2), (argv, status, err)
    assert "Traceback" not in err
    if status == 2:
        assert err.strip(), "exit 2 without saying why"
    return status, out, err


FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])


@FUZZ
@given(data=mutated_log())
def test_replay_and_import_of_damaged_logs(tmp_path, data):
    log = tmp_path / "log.jsonl"
    log.write_bytes(data)
    db = tmp_path / "m.db"
    status, _, _ = _run(["replay", log])
    imported, _, _ = _run(["import", log, "--db", db])
    # the two agree: a log replay refuses is never stored, and the reverse
    # (import may also refuse a readable log that repeats a name's spelling)
    if status == 2:
        assert imported == 2
    _run(["games", "--db", db])
    _run(["games", "--quarantine", "--db", db])


@FUZZ
@given(data=mutated_situations())
def test_solve_of_damaged_situations(tmp_path, data):
    f = tmp_path / "sit.jsonl"
    f.write_bytes(data)
    _run(["solve", f])
