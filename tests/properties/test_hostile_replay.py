"""Issue #12, records that hold under hostile input: random mutations of
the valid example logs (tests/data/*.jsonl) are replayed. Whatever the
mutation, the rules answer with RuleError (Match) or LogError (the log
reader) and nothing else: no TypeError, KeyError, RecursionError,
OverflowError... And the work stays bounded by the events: every line is
applied at most once, and a Moonstar result's best-possible solve (the one
search whose cost depends on the numbers in the log) is counted in
solver units and stays under a bound fixed by the board, not the log."""

import io
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import RuleError
from shared_rules.moonstar import solver as solver_mod
from shared_rules.errors import LogError
from shared_rules.log import Replay
from shared_rules.match import Match

DATA = Path(__file__).resolve().parent.parent / "data"
LOGS = sorted(DATA.glob("*.jsonl"))
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Values a damaged or hostile log can carry where a small int, a name or a
# list is meant.
HOSTILE = st.one_of(
    st.sampled_from([10**16, 10**21, -10**16, -1, 0, 1, 2, 7, 12, 70, 71, 2**32, 2**64, 1.5, 40.0, 1e308,
                     float("inf"), float("-inf"), float("nan"), True, False, None, "", "x", "\ud800", "R7", "6-6",
                     "saturn", "supply", [], {}, [[]], [None], [1, 2], [10**21] * 3, {"a": 1}, "a" * 5000]),
    st.integers(), st.floats(), st.text(max_size=8),
    st.lists(st.integers(-3, 15), max_size=12),
    st.lists(st.lists(st.integers(-2, 13), max_size=3), max_size=8),
)


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _mutate(draw, records):
    """One to three mutations of a log's records (the header included)."""
    records = json.loads(json.dumps(records))  # a private copy
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(records) - 1))
        rec = records[i]
        how = draw(st.sampled_from(["set", "set", "set", "drop_key", "drop_line", "copy_line", "swap_type"]))
        keys = sorted(rec)
        if how == "set":
            key = draw(st.sampled_from(keys + ["extra", "b", "ms", "t"]))
            if isinstance(rec.get(key), list) and rec[key] and draw(st.booleans()):
                rec[key][draw(st.integers(0, len(rec[key]) - 1))] = draw(HOSTILE)  # deep in a list
            else:
                rec[key] = draw(HOSTILE)
        elif how == "drop_key" and keys:
            del rec[draw(st.sampled_from(keys))]
        elif how == "drop_line" and len(records) > 1:
            del records[i]
        elif how == "copy_line":
            records.insert(i, json.loads(json.dumps(rec)))
        else:
            rec["type"] = draw(st.sampled_from(["bid", "result", "setup", "fix_situation", "trick", "play", "deal",
                                                "round", "end", "move", "tableau", "totals", "undo", "header"]))
    return records


class Units:
    """Counts the solver units each solve takes (Solver.step is wrapped)."""

    def __init__(self):
        self.most = 0

    def __enter__(self):
        self.step = solver_mod.Solver.step
        units = self

        def step(solver, budget=256):
            r = units.step(solver, budget)
            if r is not None:
                units.most = max(units.most, solver.units)
            return r

        solver_mod.Solver.step = step
        return self

    def __exit__(self, *exc):
        solver_mod.Solver.step = self.step


# The most units a best-possible solve takes on any set-up the rules accept:
# planets scoring is one assignment row per moon or die (at most 11) per
# Favorite Star candidate (at most 6), +1 each; squares and chains search
# nodes, bounded by docs/solver.md's figures for 15 moons and 11 dice.
SOLVER_UNITS_MAX = 200000


@SETTINGS
@given(st.data())
def test_mutated_logs_are_refused_with_rule_errors_only(data):
    path = data.draw(st.sampled_from(LOGS))
    records = _mutate(data.draw, _lines(path))
    applied = 0
    with Units() as units:
        try:
            match = Match.from_header(records[0])
            for event in records[1:]:
                match.apply(event)
                applied += 1
        except RuleError:
            pass
    assert applied <= len(records) - 1
    assert units.most <= SOLVER_UNITS_MAX


@SETTINGS
@given(st.data())
def test_mutated_log_bytes_are_refused_with_log_errors_only(data):
    """The same through the log reader, on the bytes: lines cut, bytes
    flipped, control characters and deep nesting spliced in."""
    path = data.draw(st.sampled_from(LOGS))
    raw = bytearray(path.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw)))
        how = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if how == "flip" and at < len(raw):
            raw[at] = data.draw(st.integers(0, 255))
        elif how == "cut":
            del raw[at:at + data.draw(st.integers(1, 40))]
        else:
            raw[at:at] = data.draw(st.sampled_from([b"NaN", b"Infinity", b"\x01", b"\t", b"[" * 300, b"1e400",
                                                    b"\xff", b"\\ud800", b"99999999999999999999", b"{", b"\n"]))
    rep = Replay()
    try:
        rep.feed(io.BytesIO(bytes(raw)))
    except LogError as e:
        assert e.line >= 0 and str(e)
    assert rep.events <= bytes(raw).count(b"\n") + 1
