"""The device's data folder: paths, free space, and small files written so
that a power cut at any moment leaves either the old or the new content.

Small files (roster, settings, the journal index) are one `shared_rules.wire`
line wrapping the value as {"v": value}: the CRC tells a complete file from
a cut-off one, and any JSON value (a list of names too) fits the envelope.

An atomic write goes to NAME.tmp, is flushed (and synced when the port has
`os.sync`), then renamed over NAME. Recovery, run whenever a file is read:
- NAME and NAME.tmp both there: the rename never happened, NAME is the old,
  complete file; NAME.tmp (complete or not) is removed.
- only NAME.tmp there: a filesystem whose rename cannot replace a file
  (FAT) removed NAME just before renaming; NAME.tmp is promoted if it is
  sound, removed otherwise (then nothing had ever been committed).
Works unchanged under MicroPython (board, simulator) and CPython (tests).
"""

import os

from shared_rules.wire import LineError, decode, encode

# File names shared with the app, so both sides read the same files.
ROSTER = "roster.json"
SETTINGS = "settings.json"

_ENOENT = 2


def _is_missing(err):
    return err.args and err.args[0] == _ENOENT


class Store:
    """The data folder (`/data` on a board, `<flash>/data` in the simulator).

    `warnings` collects what recovery found (a corrupt small file read back
    as its default), for the app to show once."""

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
        # Create every missing parent: a board's "/" exists, a test's
        # temporary root may be several levels deep.
        if p in ("", "/") or self.exists(p):
            return
        head = p.rsplit("/", 1)[0]
        if head and head != p:
            self._mkdir(head)
        try:
            os.mkdir(p)
        except OSError:
            if not self.exists(p):
                raise

    def exists(self, p):
        try:
            os.stat(p)
            return True
        except OSError:
            return False

    def size(self, p):
        """Bytes in file p, or -1 if it does not exist."""
        try:
            return os.stat(p)[6]
        except OSError:
            return -1

    def listdir(self, *parts):
        try:
            return os.listdir(self.path(*parts))
        except OSError:
            return []

    def remove(self, p):
        try:
            os.remove(p)
        except OSError as e:
            if not _is_missing(e):
                raise

    def free_bytes(self):
        """Free space on the filesystem holding the data folder."""
        self.ensure_dir()
        st = os.statvfs(self.root)
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
        """Finish or undo an interrupted atomic write of `final`.

        `sound(path) -> bool` says whether a lone tmp file is complete; the
        default accepts it (callers whose tmp is only written while `final`
        exists need no check)."""
        tmp = final + ".tmp"
        if not self.exists(tmp):
            return
        if self.exists(final):
            self.remove(tmp)
        elif sound is None or sound(tmp):
            os.rename(tmp, final)
        else:
            self.remove(tmp)

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

    def _load(self, p):
        f = open(p, "rb")
        try:
            data = f.read()
        finally:
            f.close()
        if not data.endswith(b"\n"):
            raise LineError("truncated", "file ends mid-record")
        obj = decode(data, need_crc=True)
        if "v" not in obj:
            raise LineError("shape", "no value in file")
        return obj["v"]

    def _sound(self, p):
        try:
            self._load(p)
            return True
        except (OSError, ValueError):
            return False

    def read_json(self, name, default=None):
        """The value last written by write_json, or `default` if the file
        is missing or unreadable (the latter is added to `warnings`)."""
        final = self.path(name)
        try:
            self.recover(final, self._sound)
            return self._load(final)
        except OSError as e:
            if not _is_missing(e):
                self.warnings.append("%s: cannot read (%s)" % (name, e))
            return default
        except ValueError as e:
            self.warnings.append("%s is damaged (%s); using defaults" % (name, e))
            return default
