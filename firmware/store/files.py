"""The device's data folder: paths, free space, and small files written so
that a power cut at any moment leaves either the old or the new content.

Small files (roster, settings, the journal index, the boot counter) are one
`shared_rules.wire` line wrapping the value as {"v": value}: the CRC tells a
complete file from a cut-off one, and any JSON value (a list of names too)
fits the envelope. None of them is ever larger than SMALL_MAX bytes, so one
that is (copied in by hand, or written by something else) is refused before
it is read: reading it whole could exhaust the heap at boot.

An atomic write goes to NAME.tmp, is flushed (and synced when the port has
`os.sync`), then renamed over NAME. Recovery, run whenever a file is read:
- NAME and NAME.tmp both there: the rename never happened, NAME is the old,
  complete file; NAME.tmp (complete or not) is removed.
- only NAME.tmp there: a filesystem whose rename cannot replace a file
  (FAT) removed NAME just before renaming; NAME.tmp is promoted if it is
  sound, removed otherwise (then nothing had ever been committed).
- NAME.tmp is a folder (the device never makes one): removed if empty,
  else left alone with a warning.

Whatever is found on flash, reading never raises for its content: a missing,
damaged or oversized file reads as its default and `warnings` says why; only
writes raise (OSError), where the caller can tell the player.

Error numbers are compared with the `errno` module's names, never literals:
ports disagree (ENOENT is 2 on a board, 44 in the WebAssembly build).
Works unchanged under MicroPython (board, simulator) and CPython (tests).
"""

import errno
import os

from shared_rules.wire import encode
from store import repair
from store.layout import SMALL_MAX, _DIR, _FILE, _TYPE, _is_missing  # noqa: F401


def failure(e):
    """What a failed write says to a player: a full flash by name (the
    Pico's firmware spells an error by its number alone), else the error."""
    # (the Pico's errno module has no ENOSPC: MicroPython's number is 28)
    if isinstance(e, OSError) and e.args and e.args[0] == getattr(errno, "ENOSPC", 28):
        return "the flash is full"
    return str(e)


def _scandir(p):
    """CPython's stand-in for MicroPython's os.ilistdir (name, type)
    tuples, for the tests run on the PC. Opens the folder at once, so a
    missing one raises here as ilistdir does."""
    it = os.scandir(p)

    def entries():
        with it:
            for e in it:
                # (0, "not told": a link to nothing, a pipe; Store.scan asks)
                yield e.name, _DIR if e.is_dir() else (_FILE if e.is_file() else 0)

    return entries()


class Store:
    """The data folder (`/data` on a board, `<flash>/data` in the simulator).

    `warnings` collects what recovery found (a corrupt small file read back
    as its default, something in the way of a path), for the app to show
    once."""

    def __init__(self, root):
        self.root = root.rstrip("/") or "/"
        self.warnings = []
        self._made = False

    # --- paths -----------------------------------------------------------
    def path(self, *parts):
        return "/".join((self.root,) + parts)

    def ensure_dir(self, *parts):
        """Create root (and root/parts...) if missing; returns the path."""
        if not self._made:
            self._mkdir(self.root)
            self._made = True
        p = self.root
        for part in parts:
            p = p + "/" + part
            self._mkdir(p)
        return p

    def _mkdir(self, p):
        repair.mkdir(self, p)

    def show(self, p):
        """p as a player reads it: inside the data folder, relative to it
        (the screen is 16 characters wide), else its last part."""
        return repair.show(self, p)

    def kind(self, p):
        """0 if nothing is at p, else its stat type bits (_DIR, _FILE, ...)."""
        try:
            return os.stat(p)[0] & _TYPE or _FILE
        except OSError:
            return 0

    def exists(self, p):
        return self.kind(p) != 0

    def is_file(self, p):
        return self.kind(p) == _FILE

    def size(self, p):
        """Bytes in file p, or -1 if there is no file (nothing, or a folder)."""
        try:
            st = os.stat(p)
        except OSError:
            return -1
        if st[0] & _TYPE == _DIR:
            return -1
        return st[6]

    def scan(self, *parts):
        """(name, kind) for each entry of a folder, one at a time: games/
        may hold thousands of files, and os.listdir would build them all
        as one list on the heap. kind is _DIR, _FILE, or what else stat
        says (0: nothing there to open, as a link to nowhere in a
        simulator's folder), so that only a file is ever taken for a game.
        A missing folder yields nothing; a folder that cannot be read
        raises OSError."""
        p = self.path(*parts)
        ilistdir = getattr(os, "ilistdir", None)
        try:
            it = ilistdir(p) if ilistdir is not None else _scandir(p)
        except OSError as e:
            if _is_missing(e):
                return
            raise
        for entry in it:
            name = entry[0]
            t = entry[1] & _TYPE
            if t != _DIR and t != _FILE:  # not told, or a link: ask what is behind it
                t = self.kind(p + "/" + name)
            yield name, t

    def remove(self, p):
        try:
            os.remove(p)
        except OSError as e:
            if not _is_missing(e):
                raise

    def free_bytes(self):
        """Free space on the filesystem holding the data folder (or that
        would hold it: a full flash may have had no room to make it)."""
        try:
            st = os.statvfs(self.root)
        except OSError:
            st = os.statvfs(self.root.rpartition("/")[0] or ("/" if self.root[:1] == "/" else "."))
        # f_bavail * f_frsize (f_frsize is 0 on some ports: use f_bsize).
        return st[4] * (st[1] or st[0])

    def sync(self):
        """Push written data to flash where the port offers it."""
        fn = getattr(os, "sync", None)
        if fn is not None:
            fn()

    # --- atomic replace --------------------------------------------------
    def replace(self, tmp, final):
        """Rename tmp over final (the commit point of an atomic write)."""
        try:
            os.rename(tmp, final)
        except OSError:
            # FAT cannot rename over an existing file. Removing first opens
            # a window where only tmp exists; recover() closes it.
            if not self.exists(tmp):
                raise
            self.remove(final)
            os.rename(tmp, final)
        self.sync()

    def recover(self, final, sound=None):
        """Finish or undo an interrupted atomic write of `final` (see the
        module docstring). `sound(path) -> bool` says whether a lone tmp
        file is complete; the default accepts it (callers whose tmp is only
        written while `final` exists need no check)."""
        repair.recover(self, final, sound)

    def clear_folder(self, p):
        """A folder where the device writes a temporary file: remove it if
        empty (it holds nothing), else leave it and say so. True if gone."""
        return repair.clear_folder(self, p)

    # --- small JSON files ------------------------------------------------
    def write_json(self, name, obj):
        """Write a small file atomically (tmp, flush, sync, rename)."""
        self.ensure_dir()
        final = self.path(name)
        tmp = final + ".tmp"
        data = encode({"v": obj})
        f = open(tmp, "wb")
        try:
            f.write(data)
            f.flush()
        finally:
            f.close()
        self.sync()
        self.replace(tmp, final)

    def read_json(self, name, default=None):
        """The value last written by write_json, or `default` if the file
        is missing or unreadable (the latter is added to `warnings`).
        (store/repair.py: the device reads these files at boot and when a
        PC asks, never during a game.)"""
        return repair.read_json(self, name, default)
