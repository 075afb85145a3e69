"""Two `moontable` processes writing the same database at once, and a
power cut (the writer killed mid-transaction)."""

import json
import os
import signal
import subprocess
import sys
import time

import dbkit
from moontable.db import Database

HERE = os.path.dirname(os.path.abspath(__file__))

WRITER = r"""
import json, os, sys, time
sys.path[:0] = [%(root)r, %(here)r]
import dbkit
from moontable.db import Database
path, who, go = sys.argv[1], sys.argv[2], sys.argv[3]
logs = [dbkit.moonstar_log(seed=s)[1] for s in range(6)]
own = [dbkit.moonstar_log(seed=100 + 10 * int(who) + s)[1] for s in range(4)]
while not os.path.exists(go):
    time.sleep(0.001)
db = Database.open(path)          # both open a file that does not exist yet
out = []
for i, data in enumerate(logs):   # the same six games from both: each stored once
    off = db.staged_size("shared", "g%%d" %% i)
    # both may stage the same bytes: a refused offset is the other's chunk
    while off < len(data):
        try:
            db.stage_chunk("shared", "g%%d" %% i, off, data[off:off + 300])
        except ValueError:
            pass
        off = db.staged_size("shared", "g%%d" %% i)
    try:
        out.append(db.commit_game("shared", "g%%d" %% i)[0])
    except ValueError:
        out.append("gone")  # the other process committed it first
for data in own:
    out.append(db.import_log(data, device_id="dev" + who)[0])
    db.record_device("dev" + who, {"n": len(out)})
print(json.dumps(out))
"""


def test_two_processes_writing_at_once(tmp_path):
    path = tmp_path / "shared.db"
    go = tmp_path / "go"
    script = WRITER % {"root": dbkit.ROOT, "here": HERE}
    procs = [subprocess.Popen([sys.executable, "-c", script, str(path), str(w), str(go)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for w in (1, 2)]
    time.sleep(0.5)
    go.write_text("go")
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        results.append(json.loads(out))
    with Database.open(path) as db:
        assert db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        games = db.games()
        assert len(games) == 6 + 8
        assert sorted(g["device"] for g in games).count("shared") == 6
        assert db.conn.execute("SELECT COUNT(*) FROM staging").fetchone()[0] == 0
        for i in range(6):
            g = db.game(db.game_pk("shared/g%d" % i))
            assert g["journal"] == dbkit.moonstar_log(seed=i)[1]
    # each shared game was stored by exactly one of the two
    for i in range(6):
        pair = sorted([results[0][i], results[1][i]])
        assert pair in (["gone", "stored"], ["stored", "unchanged"]), results
    assert results[0][6:] == results[1][6:] == ["stored"] * 4


VICTIM = r"""
import sys, time
sys.path[:0] = [%(root)r, %(here)r]
import dbkit
from moontable.db import Database
path, when = sys.argv[1], sys.argv[2]
db = Database.open(path)
def trace(sql):
    # Stop dead in the middle of the store transaction, once the events are in.
    if sql.startswith(when):
        sys.stdout.write("inside\n"); sys.stdout.flush()
        time.sleep(600)
db.conn.set_trace_callback(trace)
db.commit_game("pico", "g1")
"""


def _kill_mid_commit(path, when):
    script = VICTIM % {"root": dbkit.ROOT, "here": HERE}
    p = subprocess.Popen([sys.executable, "-c", script, str(path), when], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    assert line == "inside\n", p.stderr.read()
    os.kill(p.pid, signal.SIGKILL)
    p.wait()


def test_power_cut_mid_transaction_leaves_the_game_all_or_nothing(tmp_path):
    path = tmp_path / "m.db"
    m, data = dbkit.moonstar_log(seed=21)
    with Database.open(path) as db:
        db.import_log(dbkit.moonstar_log(seed=22)[1])
        db.stage_chunk("pico", "g1", 0, data)
        before = db.dump()
    for when in ("INSERT INTO results", "INSERT OR IGNORE INTO game_prefixes", "INSERT INTO rounds", "COMMIT"):
        _kill_mid_commit(path, when)
        with Database.open(path) as db:
            assert db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert db.dump() == before, when  # nothing of the game, staging intact
            assert not db.is_stored("pico", "g1")
    # the next sync finishes the job from the staged bytes
    with Database.open(path) as db:
        assert db.staged_size("pico", "g1") == len(data)
        assert db.commit_game("pico", "g1")[0] == "stored"
        g = db.game(db.game_pk("pico/g1"))
        assert g["journal"] == data and g["events"] == m.count
        assert db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_power_cut_after_commit_keeps_the_game(tmp_path):
    """Killed right after COMMIT returned: the game is fully there."""
    path = tmp_path / "m.db"
    m, data = dbkit.moonstar_log(seed=23)
    with Database.open(path) as db:
        db.stage_chunk("pico", "g1", 0, data)
    script = (VICTIM % {"root": dbkit.ROOT, "here": HERE}).replace(
        'db.commit_game("pico", "g1")',
        'db.conn.set_trace_callback(None); db.commit_game("pico", "g1"); '
        'sys.stdout.write("inside\\n"); sys.stdout.flush(); time.sleep(600)')
    p = subprocess.Popen([sys.executable, "-c", script, str(path), "never"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline() == "inside\n", p.stderr.read()
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    with Database.open(path) as db:
        assert db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        g = db.game(db.game_pk("pico/g1"))
        assert g["journal"] == data and g["finished"]
        assert g["events"] == m.count
        assert db.conn.execute("SELECT COUNT(*) FROM staging").fetchone()[0] == 0
