"""For the whole suite: the longest test files run first, the heap the
collection built is frozen (both below), and a
test run changes no tracked file (issue 21,
item 16). The tracked files git sees as changed are noted when the run
starts and again when it ends; a file that changed in between fails the
run, named, so a test that writes into the repository (as the web page's
screenshot once rewrote docs/screens/web.png) is caught the first time.
The docs' screenshots are made by `make screens`, which sets
$MOONTABLE_SCREENS; that run is left alone. Outside a git checkout there
is nothing to compare."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _changed_tracked():
    """{path: its bytes' hash} of the tracked files that differ from the
    index, or None when this is no git checkout (or git is missing)."""
    import hashlib

    try:
        out = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "-z", "--untracked-files=no"],
                             capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    found = {}
    for entry in out.stdout.split(b"\0"):
        if len(entry) < 4:
            continue
        path = entry[3:].decode("utf-8", "replace")
        try:
            found[path] = hashlib.sha256((ROOT / path).read_bytes()).hexdigest()
        except OSError:
            found[path] = None  # deleted
    return found


def pytest_sessionstart(session):
    session.config._moontable_tracked = None if os.environ.get("MOONTABLE_SCREENS") else _changed_tracked()


def pytest_sessionfinish(session, exitstatus):
    before = getattr(session.config, "_moontable_tracked", None)
    if before is None:
        return
    after = _changed_tracked() or {}
    touched = sorted(p for p, h in after.items() if before.get(p, "unchanged") != h)
    if not touched:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    msg = ("tests changed tracked files (a test run must leave the repository as it was; "
           "the docs' screenshots are made by `make screens`): %s" % ", ".join(touched))
    if reporter is not None:
        reporter.write_line("ERROR: " + msg, red=True)
    session.exitstatus = 1


# The test files that take longest (pytest --durations, summed by file),
# longest first. pytest-xdist hands out whole files (--dist loadfile); a
# long file handed out last keeps one core busy alone at the end of the
# run while the other has nothing left to do. Run first, they overlap
# with the many short files instead.
LONGEST_FIRST = (
    "tests/wasm/test_wasm_sessions.py",
    "tests/web/test_holds.py",
    "tests/properties/test_moonstar_props.py",
    "tests/sim/test_sim_powercut.py",
    "tests/sync/test_protocol_device.py",
    "tests/native/test_wheel.py",
    "tests/web/test_page.py",
    "tests/sim/test_sim_memory.py",
    "tests/typecheck/test_pyright.py",
    "tests/sync/test_sync_e2e.py",
    "tests/db/test_benches.py",
    "tests/deploy/test_romfs_deploy.py",
    "tests/web/test_page_round3.py",
    "tests/web/test_page_hostile.py",
)


def pytest_configure(config):
    """pytest-xdist would hand out the files with the most tests first
    (--loadscope-reorder, its default), undoing LONGEST_FIRST: the long
    files, which hold few tests, came last."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(LONGEST_FIRST)))  # stable: the rest keep their order


def pytest_collection_finish(session):
    """What collection built (the modules, the test items, hypothesis's
    strategies) lives to the end of the run: moved out of the collector's
    reach (gc.freeze), it is no longer walked by every full collection.
    The firmware collects after each screen, moment and game it lets go
    (loader.release), which under CPython took some 40 ms a call, a sixth
    of tests/firmware's and tests/sync's time."""
    import gc

    gc.collect()
    gc.freeze()
