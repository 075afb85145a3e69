"""Scale benchmark: a club's 100, 1,000 and 10,000 games.

    .venv/bin/python bench/scale.py                       # 100, 1000, 10000
    .venv/bin/python bench/scale.py --sizes 100 1000      # fewer
    .venv/bin/python bench/scale.py --cache /tmp/mt-scale # where the built collections are kept

Builds each collection once (kept in --cache, default
$XDG_CACHE_HOME/moontable/bench-scale, and reused while COLLECTION_VERSION
is unchanged): Moonstar games played to the end with random legal moves
(tests/gamegen.py) among a club of 24 players, two to five a table, plus
one game in twenty of another box (bench/gen_*.py, a few rounds); all
written as device journals (boot counter and ms on every line, a clock
on most boots), one boot in eight never dated, one game in ten imported
as a plain log without an id whose header it shares with others.

Then runs each command as `moontable` would be run, in its own process,
on a copy of the database, and prints its wall time, its CPU time (user
and system, worker processes included: the figure that does not depend
on what else the machine runs) and peak memory (the largest resident set
of the command's processes), from wait4:

- import: one more game from a device journal, and one more plain log
  without an id sharing its header with hundreds stored;
- games, standings, standings --ratings, show, export (csv and bgstats);
- report: cold (an empty folder), then warm (nothing changed), then after
  one more game; with the index page's size and the folder's;
- record_clocks: a sync's hello bringing the clock of one boot, timed
  in-process (what a sync adds per stored undated game).
"""

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, HERE, os.path.join(ROOT, "tests")]

CLUB = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu", "Max", "Ned", "Ola",
        "Pia", "Quin", "Rex", "Sam", "Tia", "Uma", "Vic", "Wes", "Zoe"]
T0 = 1735722000  # 2025-01-01 09:00
GAME_S = 45 * 60


# Bump when game_lines() changes: the kept collections are then rebuilt.
COLLECTION_VERSION = 1


def _version():
    return "v%d" % COLLECTION_VERSION


def _other_game(k, rng):
    """A few rounds of a box other than Moonstar, its seats renamed."""
    import gen_moon
    import gen_moons
    import gen_shoot_the_moon

    mod = (gen_shoot_the_moon, gen_moon, gen_moons)[k % 3]
    lines = [dict(x) for x in mod.make_log(2 + rng.randrange(6), 1 + k)]
    lines[0]["players"] = rng.sample(CLUB, len(lines[0]["players"]))
    return lines


def game_lines(k):
    """The k-th game of a collection: (lines, device game id or None)."""
    from gamegen import random_moonstar

    rng = random.Random(k)
    start = T0 + k * 3 * 3600
    if k % 20 == 7:
        lines = _other_game(k, rng)
    else:
        players = rng.sample(CLUB, 2 + rng.randrange(4))
        if k % 10 == 3:
            players = ["Ann", "Bob", "Cy"]  # one table: one header for all of these
        m, events = random_moonstar(players, k, start, max_events=2000)
        lines = [dict(m.header)] + events
    if k % 10 == 3:
        # a plain log without an id, its header the same as the others'
        out = [{kk: v for kk, v in x.items() if kk not in ("t", "b", "ms")} for x in lines]
        return out, None
    boot = k  # one boot per game, as a board switched on for the evening
    dated = k % 8 != 5
    step = GAME_S * 1000 // max(1, len(lines))
    out = []
    for i, x in enumerate(lines):
        x = {kk: v for kk, v in x.items() if kk != "t"}
        x["b"], x["ms"] = boot, 60000 + i * step
        if dated:
            x["t"] = start + (60000 + i * step) // 1000
        out.append(x)
    out[0]["id"] = "g%05d" % k
    return out, out[0]["id"]


def _plain(lines):
    from shared_rules.wire import dumps

    return b"".join(dumps(x).encode() + b"\n" for x in lines)


def build(path, n):
    from moontable.db import Database

    tmp = path + ".part"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            os.unlink(tmp + suffix)
    t0 = time.perf_counter()
    with Database.open(tmp) as db:
        db.conn.execute("PRAGMA synchronous=NORMAL")  # building only; the commands run as shipped
        for k in range(n):
            lines, gid = game_lines(k)
            status, msg, _ = db.import_log(_plain(lines), device_id="club" if gid else "file", game_id=gid)
            if status != "stored":
                raise SystemExit("game %d: %s" % (k, msg))
            if k % 500 == 499:
                print("  built %d/%d games (%.0f s)" % (k + 1, n, time.perf_counter() - t0), file=sys.stderr)
        db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    os.replace(tmp, path)
    return time.perf_counter() - t0


def collection(cache, n):
    path = os.path.join(cache, "club-%d-%s.db" % (n, _version()))
    if not os.path.exists(path):
        print("building %d games into %s ..." % (n, path), file=sys.stderr)
        secs = build(path, n)
        print("  built in %.0f s" % secs, file=sys.stderr)
    return path


def run(argv, cwd):
    """(seconds, CPU seconds, peak RSS in MB, exit status) of one
    `moontable` process. CPU seconds (user + system, the command's worker
    processes included) do not depend on what else the machine runs."""
    t0 = time.perf_counter()
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen([sys.executable, "-m", "moontable.cli"] + [str(a) for a in argv], cwd=cwd, stdout=null,
                             stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=ROOT))
        err = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)
    secs = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        print("  %s failed: %s" % (" ".join(map(str, argv)), err.decode(errors="replace")[-300:]), file=sys.stderr)
    return secs, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, p.returncode


def folder_size(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    return total


def clocks_cost(db_path):
    """Seconds a sync's record_clocks takes to date one boot."""
    from moontable.db import Database

    with Database.open(db_path) as db:
        boots = [b for (b,) in db.conn.execute(
            "SELECT b.boot FROM game_boots b JOIN games g ON g.id = b.game WHERE g.approx = 1 AND g.device_id='club' "
            "LIMIT 1")]
        undated = db.conn.execute("SELECT COUNT(*) FROM games WHERE approx = 1 AND device_id='club'").fetchone()[0]
        boot = boots[0] if boots else 999999
        t0 = time.perf_counter()
        db.record_clocks("club", {str(boot): (T0 + 10) * 1000})
        return time.perf_counter() - t0, undated


def bench(n, cache, work):
    src = collection(cache, n)
    db = os.path.join(work, "club.db")
    shutil.copyfile(src, db)
    size = os.path.getsize(db)
    print("\n%d games: database %.1f MB" % (n, size / 1e6))
    print("  %-34s %9s %9s %9s" % ("command", "seconds", "CPU s", "peak MB"))

    def line(label, argv, extra=""):
        secs, cpu, mb, code = run(argv, work)
        print("  %-34s %9.2f %9.2f %9.0f%s%s" % (label, secs, cpu, mb, extra,
                                                "" if code == 0 else "  (exit %d)" % code))
        return secs

    new_log = os.path.join(work, "new.jsonl")
    lines, _ = game_lines(n + 1)
    with open(new_log, "wb") as f:
        f.write(_plain(lines))
    shared = os.path.join(work, "shared.jsonl")
    lines, _ = game_lines(n * 10 + 3)  # k % 10 == 3: no id, the shared header
    with open(shared, "wb") as f:
        f.write(_plain(lines))
    line("import (one device journal)", ["import", new_log, "--device", "club", "--db", db])
    line("import (no id, shared header)", ["import", shared, "--db", db])
    line("games", ["games", "--db", db])
    line("standings", ["standings", "--db", db])
    line("standings --ratings", ["standings", "--ratings", "--db", db])
    line("show", ["show", str(n // 2), "--db", db])
    line("export --format csv", ["export", "--format", "csv", "--db", db])
    line("export --format bgstats", ["export", "--format", "bgstats", "--db", db])
    out = os.path.join(work, "report")
    secs = line("report (cold)", ["report", "--out", out, "--db", db])
    index = os.path.getsize(os.path.join(out, "index.html"))
    print("  %-34s index.html %.0f KB, folder %.1f MB" % ("", index / 1e3, folder_size(out) / 1e6))
    line("report (warm: nothing changed)", ["report", "--out", out, "--db", db])
    more = os.path.join(work, "more.jsonl")
    lines, _ = game_lines(n + 2)
    with open(more, "wb") as f:
        f.write(_plain(lines))
    run(["import", more, "--device", "club", "--db", db], work)
    line("report (one more game)", ["report", "--out", out, "--db", db])
    secs, undated = clocks_cost(db)
    print("  %-34s %9.3f %9s %9s  (%d undated games of that device stored)"
          % ("record_clocks (one boot dated)", secs, "-", "-", undated))
    return secs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    ap.add_argument("--cache", default=os.path.join(base, "moontable", "bench-scale"))
    args = ap.parse_args(argv)
    os.makedirs(args.cache, exist_ok=True)
    print("scale benchmark: %d CPU(s); each command a process of its own on a copy of the collection"
          % (os.cpu_count() or 1))
    for n in args.sizes:
        work = tempfile.mkdtemp(prefix="moontable-scale-")
        try:
            bench(n, args.cache, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print("\nself: peak %.0f MB" % (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
