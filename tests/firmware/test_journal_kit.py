"""Helpers shared by the storage and journal tests (no tests here): a
scratch folder that works under CPython and under the MicroPython unix
port (which has no tempfile), its removal, a settable ms counter, and a
game header. Plain functions, so the same test modules run on both
interpreters (test_journal_upy.py runs them under MicroPython)."""

import os

HEADER = {"type": "header", "game": "moons", "players": ["Ann", "Bob"], "options": {}, "rules": 1}


def scratch():
    """A new empty folder for one test."""
    try:
        import tempfile

        return tempfile.mkdtemp(prefix="mt-")
    except ImportError:  # MicroPython
        p = "/tmp/mt-upy-" + "".join("%02x" % b for b in os.urandom(6))
        os.mkdir(p)
        return p


def is_dir(p):
    return os.stat(p)[0] & 0xF000 == 0x4000


def exists(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False


def rmtree(p):
    if not exists(p):
        return
    if is_dir(p):
        for name in os.listdir(p):
            rmtree(p + "/" + name)
        os.rmdir(p)
    else:
        os.remove(p)


def write(p, data):
    f = open(p, "wb")
    f.write(data)
    f.close()


def read(p):
    f = open(p, "rb")
    data = f.read()
    f.close()
    return data


class Ticks:
    """A board's ticks_ms (wrapping at 2**30) that a test moves by hand."""

    def __init__(self, now=0):
        self.now = now

    def __call__(self):
        return self.now & ((1 << 30) - 1)


class Folder:
    """`with Folder() as root:` a scratch folder removed afterwards."""

    def __enter__(self):
        self.path = scratch()
        return self.path

    def __exit__(self, *exc):
        rmtree(self.path)
        return False


def closed_games(j, n):
    """n games started and closed on the journal `j`, one event each: their ids."""
    ids = []
    for _ in range(n):
        gid = j.new_game(HEADER)
        j.append({"type": "x"})
        j.finish(gid)
        ids.append(gid)
    return ids
