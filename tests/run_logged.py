"""Run a command, showing its output as it comes and keeping a copy in a
log file, whose last line is the command's exit status (`exit N`); exit
with that status.

    python tests/run_logged.py LOG -- COMMAND [ARG...]

Why: `make test` runs the rules core under each MicroPython once, as a
step of its own, and the pytest tests that check those runs
(tests/test_micropython_rules.py, tests/wasm/test_wasm_rules.py) read
the logs the steps left ($MOONTABLE_RULES_LOGS names their folder)
instead of running the same hundreds of tests a second time. A log
without its `exit` line is a run that never finished.
"""

import subprocess
import sys
from pathlib import Path


def main(argv):
    if len(argv) < 3 or argv[1] != "--":
        print("usage: run_logged.py LOG -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    log = Path(argv[0])
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as keep:
        proc = subprocess.Popen(argv[2:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for chunk in iter(lambda: proc.stdout.read1(65536), b""):
            sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
            keep.write(chunk)
        code = proc.wait()
        keep.write(b"exit %d\n" % code)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
