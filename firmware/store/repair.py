"""The data folder's code for what rarely happens: making the folders (once
per boot), moving a file out of a folder's way, finishing or undoing an
atomic write a power cut interrupted, and reading a small file back. The rules for each are in
store/files.py's docstring.

A module of its own because none of this runs during a game; Store
imports it and it stays (loaded for each call instead, it saved 1.8 KB
of the 32-bit peaks at 9963f65: no budget needs that)."""

import os

from shared_rules.wire import LineError
from store.layout import SMALL_MAX, _DIR, _is_missing


def mkdir(store, p):
    """Make folder p and every missing parent: a board's "/" exists, a
    test's temporary root may be several levels deep."""
    if p in ("", "/"):
        return
    kind = store.kind(p)
    if kind == _DIR:
        return
    if kind:
        move_aside(store, p)
    head = p.rsplit("/", 1)[0]
    if head and head != p:
        mkdir(store, head)
    try:
        os.mkdir(p)
    except OSError:
        if store.kind(p) != _DIR:
            raise


def move_aside(store, p):
    """A file sits where the data needs a folder: keep it under a free
    name (nothing on flash is ever thrown away) so the folder can be
    made."""
    k = 1
    while store.kind("%s.file%d" % (p, k)):
        k += 1
    dst = "%s.file%d" % (p, k)
    os.rename(p, dst)
    store.warnings.append("%s was a file, not a folder: kept as %s" % (show(store, p), show(store, dst)))


def show(store, p):
    """Store.show (see there)."""
    root = store.root + "/"
    if p.startswith(root):
        return p[len(root):]
    return p.rsplit("/", 1)[-1]


def recover(store, final, sound=None):
    """Store.recover (see there)."""
    tmp = final + ".tmp"
    kind = store.kind(tmp)
    if not kind:
        return
    if kind == _DIR:
        clear_folder(store, tmp)
    elif store.is_file(final):
        store.remove(tmp)
    elif sound is None or sound(tmp):
        os.rename(tmp, final)
    else:
        store.remove(tmp)


def clear_folder(store, p):
    """Store.clear_folder (see there)."""
    try:
        os.rmdir(p)
        store.warnings.append("removed the empty folder %s (the device writes a file there)" % show(store, p))
        return True
    except OSError:
        store.warnings.append("%s is a folder with files in it; move it away (the device writes a file there)"
                              % show(store, p))
        return False


def _load(store, p):
    size = store.size(p)
    if size > SMALL_MAX:
        raise LineError("size", "%d bytes, more than the %d a device file holds" % (size, SMALL_MAX))
    f = open(p, "rb")
    try:
        data = f.read(size) if size > 0 else f.read()  # one buffer of the file's size
    finally:
        f.close()
    if not data.endswith(b"\n"):
        raise LineError("truncated", "file ends mid-record")
    from shared_rules.wire_read import decode

    obj = decode(data, need_crc=True)
    if "v" not in obj:
        raise LineError("shape", "no value in file")
    return obj["v"]


def _sound(store, p):
    try:
        _load(store, p)
        return True
    except (OSError, ValueError):
        return False


def read_json(store, name, default=None):
    """Store.read_json (see there)."""
    final = store.path(name)
    try:
        recover(store, final, lambda p: _sound(store, p))
        return _load(store, final)
    except OSError as e:
        if not _is_missing(e):
            store.warnings.append("%s: cannot read (%s)" % (name, e))
        return default
    except ValueError as e:
        what = "too large" if getattr(e, "kind", None) == "size" else "damaged"
        store.warnings.append("%s is %s (%s); using defaults" % (name, what, e))
        return default
