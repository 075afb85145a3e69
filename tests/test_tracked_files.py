"""tests/conftest.py's guard, run for real on a small git repository of
its own: a test run that changes a tracked file fails, naming it; one that
leaves every tracked file as it was passes; changes made before the run
(a developer's edits) are no test's doing."""

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def repo(tmp_path, test_body):
    r = tmp_path / "r"
    (r / "tests").mkdir(parents=True)
    shutil.copy(HERE / "conftest.py", r / "tests" / "conftest.py")
    (r / "docs").mkdir()
    (r / "docs" / "shot.png").write_bytes(b"old")
    (r / "edited.txt").write_text("as committed\n")
    (r / "tests" / "test_x.py").write_text("from pathlib import Path\nROOT = Path(__file__).resolve().parents[1]\n\n"
                                           "def test_x():\n" + test_body)
    git = ["git", "-C", str(r), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "x"], check=True)
    (r / "edited.txt").write_text("edited before the run\n")  # not the tests' doing
    return r


def run(r):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(r / "tests")],
                          cwd=r, capture_output=True, text=True, timeout=120)


def test_a_test_that_rewrites_a_tracked_file_fails_the_run(tmp_path):
    r = repo(tmp_path, "    (ROOT / 'docs' / 'shot.png').write_bytes(b'new')\n")
    out = run(r)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "tests changed tracked files" in out.stdout and "docs/shot.png" in out.stdout, out.stdout
    assert "edited.txt" not in out.stdout.split("tests changed tracked files")[1]


def test_a_run_that_leaves_tracked_files_alone_passes(tmp_path):
    r = repo(tmp_path, "    (ROOT / 'scratch.txt').write_text('untracked is fine')\n")
    out = run(r)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "tests changed tracked files" not in out.stdout
