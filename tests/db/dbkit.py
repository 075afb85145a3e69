"""Helpers for the database tests: real game logs made by playing games
through shared_rules.match.Match, and running the `moontable` CLI."""

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

from shared_rules.wire import dumps, encode

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/, for gamegen
from gamegen import random_moonstar  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
T0 = 1767258000  # 2026-01-01 09:00 UTC: a plausible device clock


def moonstar_events(players, seed, finish=True, max_events=2000):
    """Header + events of a Moonstar game played with random but legal
    moves, to the end when `finish`, else stopping after two rounds."""
    m, events = random_moonstar(players, seed, T0, max_events, finish, extra={"id": "ms-%d" % seed})
    return m, [m.header] + events


def journal(lines, crc=True):
    """Log lines -> bytes: device journal style (CRC) or plain JSON Lines."""
    if crc:
        return b"".join(encode(x) for x in lines)
    return b"".join(dumps(x).encode() + b"\n" for x in lines)


def moonstar_log(players=("Ann", "Bob", "Cy"), seed=1, crc=True, finish=True):
    m, lines = moonstar_events(list(players), seed, finish)
    return m, journal(lines, crc)


def tamper_score(data):
    """Change one result's points to more than the round allows; return
    (tampered bytes, 1-based line number changed)."""
    lines = data.split(b"\n")
    for i, raw in enumerate(lines):
        if b'"result"' in raw:
            obj = json.loads(raw.split(b"\t")[0])
            obj["points"] = 999
            lines[i] = encode(obj).rstrip(b"\n") if b"\t" in raw else dumps(obj).encode()
            return b"\n".join(lines), i + 1
    raise AssertionError("no result line")


def cli(*argv):
    """Run `moontable ARGV` in-process; (status, stdout, stderr)."""
    from moontable.cli import main
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main([str(a) for a in argv])
        except SystemExit as e:  # argparse usage errors
            status = e.code
    return status, out.getvalue(), err.getvalue()


def cli_process(*argv, env=None):
    """Run `python -m moontable.cli ARGV` as a real process."""
    e = dict(os.environ)
    e["PYTHONPATH"] = ROOT
    if env:
        e.update(env)
    return subprocess.run([sys.executable, "-m", "moontable.cli"] + [str(a) for a in argv], cwd=ROOT, env=e,
                          capture_output=True, text=True, timeout=300)


DATA = os.path.join(ROOT, "tests", "data")

# One finished game of each of the four: Moonstar Game 3, Shoot the Moon in
# two partnerships, Moon (dominoes), Moons.
FOUR_GAMES = ("moonstar-counts", "shoot-the-moon-pairs", "moon-moon21", "moons-default")


def data_lines(name):
    """The records of tests/data/NAME.jsonl."""
    with open(os.path.join(DATA, name + ".jsonl"), "rb") as f:
        return [json.loads(line) for line in f if line.strip()]


def stamped(lines, boot, start_ms=0, step_ms=60000, t_from=None):
    """Copies of the lines as the board writes them now: boot counter "b"
    and "ms" since that boot on every line (one minute apart by default),
    plus "t" on the lines from index `t_from` on when given as (index,
    epoch at that line)."""
    out = []
    for i, obj in enumerate(lines):
        obj = dict(obj)
        obj["b"] = boot
        obj["ms"] = start_ms + i * step_ms
        if t_from is not None and i >= t_from[0]:
            obj["t"] = t_from[1] + (i - t_from[0]) * step_ms // 1000
        out.append(obj)
    return out



def rewind_to_v4(c):
    """Make a current database file look like version 4 on an open sqlite3
    connection: the events table back (with one row), and what versions 5
    (the scale indexes) and 6 (placings, BG Stats ids, UTC offsets) added
    taken away. The upgrade tests open such a file and check each step."""
    c.execute("DROP TABLE game_prefixes")
    c.execute("DROP TABLE game_boots")
    c.execute("DROP INDEX games_identity")
    c.execute("CREATE TABLE events(game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE, seq INTEGER NOT "
              "NULL, line INTEGER NOT NULL, type TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY(game, seq)) "
              "WITHOUT ROWID")
    c.execute("INSERT INTO events VALUES (1, 1, 2, 'x', '{}')")
    for table, column in (("players", "source_id"), ("device_clocks", "utc_offset"), ("games", "utc_offset")):
        c.execute("ALTER TABLE %s DROP COLUMN %s" % (table, column))
    c.execute("PRAGMA user_version=4")


def read_qr_svg(svg, px=4):
    """The text a phone would read off a QR code the report drew: its SVG
    path (absolute and relative moves, horizontal strokes half a module
    below a row's top) painted into a picture, px pixels a module, and
    read by zxing-cpp's decoder. None when no code is found. The drawing
    is checked as drawn, so a stroke one module off breaks the read."""
    import re

    import zxingcpp

    side = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).group(1))
    light = bytearray(b"\xff" * (side * side))
    d = re.search(r'<path [^>]*\bd="([^"]*)"', svg).group(1)
    x = y = 0.0
    for cmd, a, b in re.findall(r"([MmHh])\s*(-?[\d.]+)(?:[ ,](-?[\d.]+))?", d):
        a = float(a)
        if cmd in "Mm":
            x, y = (a, float(b)) if cmd == "M" else (x + a, y + float(b))
            continue
        end = a if cmd == "H" else x + a
        row = int(y)  # the stroke is one module high, centred on y
        for col in range(int(min(x, end)), int(max(x, end))):
            light[row * side + col] = 0
        x = end
    picture = b"".join(bytes(light[r * side + c] for c in range(side) for _ in range(px)) * px
                       for r in range(side))
    found = zxingcpp.read_barcodes(memoryview(picture).cast("B", (side * px, side * px)),
                                   formats=zxingcpp.BarcodeFormat.QRCode)
    return found[0].text if len(found) == 1 else None
