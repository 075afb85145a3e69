"""`moontable solve`: one result line per situation line, an error line for
each bad line (the others still solved), exit 2 when any line failed."""

import io
import json
import subprocess
import sys
from pathlib import Path

from moontable.cli import main
from shared_rules.moonstar.plan import plan_score
from shared_rules.moonstar.solver import solve

ROOT = Path(__file__).resolve().parent.parent.parent

GOOD = {"stars": 12, "planets": [[5, 10], [2, 10]], "moons": [0, 1], "dice": [1, 5],
        "scoring": "planets", "movement": "standard", "favorite_star": False}
SQUARES = {"moons": [2, 4, 5], "dice": [1, 2, 2], "scoring": "squares", "movement": "more"}
FAVORITE = {"moons": [0, 7], "dice": [3, 2], "planets": [[3, 6], [9, 5]], "favorite_star": True}


def lines(*items):
    return "".join((item if isinstance(item, str) else json.dumps(item)) + "\n" for item in items)


def run_cli(argv, stdin_text, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    code = main(["solve"] + argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_results_one_per_line_and_legal(capsys, monkeypatch):
    code, out, err = run_cli(["--json"], lines(GOOD, SQUARES, FAVORITE), capsys, monkeypatch)
    assert code == 0 and err == ""
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["best"] for r in results] == [20, 9, 20]
    assert results[2]["favorite"] == 9 and results[0]["favorite"] is None
    for sit, r in zip((GOOD, SQUARES, FAVORITE), results):
        full = dict({"planets": [], "scoring": "planets", "movement": "standard", "favorite_star": False}, **sit)
        assert plan_score(full, r["plan"], r["favorite"]) == r["best"]
        assert r == solve(sit)


def test_readable_plan(capsys, monkeypatch):
    code, out, err = run_cli([], lines(GOOD), capsys, monkeypatch)
    assert code == 0
    assert out.splitlines() == [
        "best possible: 20",
        "  moon 1 (star 1) takes die 0 (a 1) clockwise to star 2",
        "  moon 0 (star 0) takes die 1 (a 5) clockwise to star 5",
    ]


def test_readable_plan_names_game9_moves_favorite_and_left_over_moons(capsys, monkeypatch):
    sit = {"moons": [3, 4, 9], "dice": [1, 1], "scoring": "squares", "movement": "more"}
    code, out, _ = run_cli([], lines(sit, FAVORITE), capsys, monkeypatch)
    assert code == 0
    assert "best possible: 4" in out
    assert "1 moon gets no die" in out
    assert "Favorite Star on star 9" in out
    assert "counter-clockwise to star 9" in out
    stay = {"moons": [3], "dice": [1], "planets": [[3, 9]], "movement": "more"}
    code, out, _ = run_cli([], lines(stay), capsys, monkeypatch)
    assert "moon 0 (star 3) takes die 0 (a 1) counter-clockwise half (0 stars, it stays) to star 3" in out


def test_bad_lines_get_error_lines_and_exit_2(capsys, monkeypatch):
    text = lines(GOOD, {"moons": [2, 2, 2, 2], "dice": [1]}, "{not json", {"moons": [0], "dice": [7]},
                 "", [1, 2], SQUARES)
    code, out, err = run_cli(["--json"], text, capsys, monkeypatch)
    assert code == 2
    assert "4 lines failed" in err
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 6  # the blank line is skipped, every other line answered
    assert rows[0]["best"] == 20 and rows[5]["best"] == 9
    assert rows[1] == {"error": "line 2: a 4th moon on star 2 (at most 3 moons per star)"}
    assert rows[2]["error"].startswith("line 3: not valid JSON")
    assert rows[3] == {"error": "line 4: die 0 shows 7, but a die shows 1-6"}
    assert rows[4] == {"error": "line 6: a situation must be a JSON object"}


def test_errors_are_text_without_the_json_flag(capsys, monkeypatch):
    code, out, err = run_cli([], lines({"moons": [0], "dice": [1], "scoring": "darts"}), capsys, monkeypatch)
    assert code == 2
    assert out == "error: line 1: scoring must be one of planets/squares/chains, not 'darts'\n"
    assert err == "moontable solve: 1 line failed\n"


def test_reads_a_file(tmp_path, capsys):
    path = tmp_path / "sits.jsonl"
    path.write_text(lines(GOOD, SQUARES))
    assert main(["solve", str(path), "--json"]) == 0
    assert [json.loads(line)["best"] for line in capsys.readouterr().out.splitlines()] == [20, 9]


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_real_process_exit_code_and_stdin():
    proc = subprocess.run([sys.executable, "-m", "moontable.cli", "solve", "--json"], cwd=ROOT, text=True,
                          input=lines(GOOD, {"moons": [0], "dice": [0]}), capture_output=True, timeout=60)
    assert proc.returncode == 2
    out = proc.stdout.splitlines()
    assert json.loads(out[0])["best"] == 20
    assert json.loads(out[1]) == {"error": "line 2: die 0 shows 0, but a die shows 1-6"}
