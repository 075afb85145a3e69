"""`moontable replay` end to end, as a subprocess: the table, the --json
shape, and a specific message with exit status 2 (never a traceback) for
every kind of bad log."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"
HEADER = '{"type":"header","game":"moonstar","players":["Ann","Bob"],"options":{},"rules":1}\n'


def replay(*args):
    exe = ROOT / ".venv" / "bin" / "moontable"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "moontable.cli"]
    return subprocess.run(cmd + ["replay"] + [str(a) for a in args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def bad(tmp_path, text, name="log.jsonl"):
    path = tmp_path / name
    path.write_text(text)
    proc = replay(path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stderr


def test_table_shows_rounds_standings_and_winner():
    proc = replay(DATA / "moonstar-basic.jsonl")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Moonstar: 35 events, 8 rounds" in out
    assert "    8   200    70    90" in out
    assert "1. Ann 200" in out and "winner: Ann" in out


def test_json_shape_with_scores_in_player_order():
    proc = replay(DATA / "moonstar-challenges.jsonl", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) == {"game", "game_name", "players", "scores", "ranks", "order", "winner", "winners",
                         "rounds", "events"}
    assert data["game_name"] == "Moonstar"
    assert data["players"] == ["Ann", "Bob", "Cy"] and data["scores"] == [-75, 95, 200]
    assert data["winner"] == "Cy" and len(data["rounds"]) == 5 and data["events"] == 29
    assert data["winners"] == ["Cy"] and data["ranks"] == [3, 2, 1] and data["order"] == [2, 1, 0]


def test_placings_follow_the_win_rule_not_the_scores():
    """Issue 22: Moon's bidder went out with 21 beside two on 22; Shoot the
    Moon partners share a place and the next team is second."""
    proc = replay(DATA / "moon-bidder-out.jsonl")
    assert proc.returncode == 0, proc.stderr
    assert "  1. Bob 21\n  2. Ann 22\n  2. Cy 22\nwinner: Bob\n" in proc.stdout, proc.stdout
    data = json.loads(replay(DATA / "shoot-the-moon-pairs.jsonl", "--json").stdout)
    assert data["ranks"] == [2, 1, 2, 1] and data["winners"] == ["Ben", data["players"][3]]


def test_a_shared_moons_win_names_every_winner(tmp_path):
    log = tmp_path / "tie.jsonl"
    log.write_text('{"type":"header","game":"moons","players":["Ann","Bob"],"options":{},"rules":1}\n'
                   '{"type":"move","from":"supply","to":1,"planet":"jupiter","count":17}\n'
                   '{"type":"move","from":"supply","to":1,"planet":"saturn","count":17}\n'
                   '{"type":"move","from":"supply","to":0,"planet":"neptune","count":17}\n'
                   '{"type":"move","from":"supply","to":0,"planet":"uranus","count":17}\n')
    data = json.loads(replay(log, "--json").stdout)
    assert data["scores"][0] == data["scores"][1], data
    assert data["winners"] == ["Ann", "Bob"] and data["ranks"] == [1, 1], data
    assert "winners: Ann, Bob\n" in replay(log).stdout


def test_every_example_game_replays_to_its_expected_standings():
    for log in sorted(DATA.glob("moonstar-*.jsonl")):
        want = json.loads(log.with_name(log.name[:-6] + ".expected.json").read_text())
        data = json.loads(replay(log, "--json").stdout)
        assert data["scores"] == want["scores"] and data["winner"] == want["winner"], log.name
        assert data["rounds"] == want["rounds"], log.name


def test_rule_breaking_log_names_the_line(tmp_path):
    err = bad(tmp_path, HEADER + '{"type":"choose_setter","player":0}\n{"type":"setup"}\n'
              '{"type":"bid","player":1,"amount":40}\n{"type":"bid","player":0,"amount":35}\n')
    assert "line 5: bid 35 must be higher than the standing bid 40" in err


def test_not_json(tmp_path):
    assert "line 2: not valid JSON" in bad(tmp_path, HEADER + "bid 40\n")


def test_truncated_last_line(tmp_path):
    err = bad(tmp_path, HEADER + '{"type":"choose_setter","pla')
    assert "line 2: truncated: the last line ends mid-record" in err


def test_empty_and_missing_files(tmp_path):
    assert "log is empty: no header line" in bad(tmp_path, "")
    proc = replay(tmp_path / "nope.jsonl")
    assert proc.returncode == 2 and "no such file" in proc.stderr and "Traceback" not in proc.stderr


def test_bad_header_options(tmp_path):
    err = bad(tmp_path, HEADER.replace('"options":{}', '"options":{"game":2}'))
    assert "line 1: Game 2 needs the numbers of moons and dice" in err
