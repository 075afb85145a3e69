"""The benches that track issue 23's figures run, and print them: the
scale bench (bench/scale.py) on a small collection, and the replay bench's
MicroPython replay (bench/replay.py) at its default heap."""

import os
import re
import subprocess
import sys

import pytest

import dbkit
from moontable.db import Database

BENCH = os.path.join(dbkit.ROOT, "bench")


def test_scale_bench_prints_time_and_memory_of_every_command(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(BENCH, "scale.py"), "--sizes", "24", "--cache", str(tmp_path)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "24 games: database" in out
    for label in ("import (one device journal)", "import (no id, shared header)", "games", "standings",
                  "standings --ratings", "show", "export --format csv", "export --format bgstats", "report (cold)",
                  "report (warm: nothing changed)", "report (one more game)"):
        m = re.search(r"^  %s\s+(\d+\.\d\d)\s+(\d+\.\d\d)\s+(\d+)$" % re.escape(label), out, re.M)
        assert m, (label, out)
        assert float(m.group(1)) > 0 and float(m.group(2)) > 0
        assert int(m.group(3)) > 10  # MB: what a Python process needs at least
    assert re.search(r"index\.html \d+ KB, folder \d+\.\d MB", out)
    assert re.search(r"record_clocks \(one boot dated\)\s+\d+\.\d{3}", out)
    assert "failed" not in r.stderr
    # the collection is kept for the next run, and is what the docstring says
    kept = [p for p in os.listdir(tmp_path) if p.endswith(".db")]
    assert kept == ["club-24-v1.db"]
    with Database.open(tmp_path / kept[0], readonly=True) as db:
        games = db.games()
        assert len(games) == 24
        assert {g["game"] for g in games} == {"moonstar", "moon"}  # game 7 is the first of another box
        assert any(g["approx"] for g in games) and any(not g["approx"] for g in games)
        plain = [g for g in games if g["device"] == "file"]
        assert len(plain) >= 2
        heads = {r[0] for r in db.conn.execute("SELECT head FROM games WHERE device_id='file'")}
        assert len(heads) == 1  # logs without an id, one header for all


@pytest.mark.parametrize("heap", ["256K", "512K", "896K", "1M"])
def test_replay_bench_replays_a_thousand_moonstar_rounds_in_micropython(tmp_path, heap):
    """The bench's timed MicroPython replay (three replays of a 1000-round
    Moonstar log, 8,763 events, about 143 KB live at most) ran out of
    memory at its default 1M heap and at most smaller ones: the heap was
    too fragmented, not too small."""
    sys.path.insert(0, BENCH)
    try:
        import replay
    finally:
        sys.path.remove(BENCH)
    upy = replay.micropython()
    assert upy, "micropython not found"
    script = tmp_path / "upy_replay.py"
    script.write_text(replay.UPY_SCRIPT)
    log = tmp_path / "moonstar.jsonl"
    replay.write_log(replay.generators()["moonstar"].make_log(1000, 1), str(log))
    code, out = replay.run_upy(upy, str(script), str(log), "time", heap)
    assert code == 0 and re.fullmatch(r"events 8763 rate \d+", out), out
