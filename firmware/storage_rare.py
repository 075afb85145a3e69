"""The data folder's code for what rarely happens: making the folders (once
per boot), moving a file out of a folder's way, and finishing or undoing
an atomic write a power cut interrupted. The rules for each are in
storage.py's docstring.

Why a module of its own: none of this runs during a game, so Store loads it
for one call and lets it go (modules.call); a 32-bit board keeps about
0.7 KB less of RAM with the .mpy files on flash (bench/memory.py)."""

import os

from storage import _DIR


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
