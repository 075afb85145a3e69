"""Writing a file the person named (`export --out FILE`, the report's
index.html): whole or not at all, with the mode any saved file gets, and
refused with the true reason when it cannot be.

- A regular file, or a name with no file yet, gets a temporary file beside
  it, renamed over it once complete: a full disk or a cut never leaves half
  an export in place of the previous one. The new file takes the mode of
  the file it replaces, or for a new file what the umask leaves (mkstemp
  alone would make every export 0600).
- A symbolic link is written through: the file it points to is replaced,
  with that file's mode, and the link stays a link.
- A name of a file this process already has open (/dev/stdout, /dev/fd/N,
  /proc/self/fd/N: a pipe, a terminal, a shell's `>` or `>>`) is written
  straight into, onto its end: such a name cannot be renamed over (a
  pipe's link reads "pipe:[123]"), and the shell chose what it is.
- Refused, each with its reason: a name ending in a slash (it names a
  folder), a folder, a named pipe, a device file or a socket found at the
  name (a pipe would block the write, a device file would be replaced or
  written into), and a read-only file (made so on purpose).
"""

import os
import re
import stat
import tempfile

from moontable.dberror import DbError
from moontable.dbfiles import not_a_regular_file, writable

# The folders whose entries name the files a process has open, as the
# links in them resolve ("/proc/self/fd" is "/proc/1234/fd").
_OPEN_FILES = re.compile(r"/proc/\d+/fd|/dev/fd")
_LINKS_MAX = 40  # the kernel follows no longer chain of symbolic links


def names_an_open_file(path):
    """True when `path`, or a symbolic link it leads through, is an entry
    of /proc/PID/fd or /dev/fd (as /dev/stdout leads to /proc/self/fd/1):
    the name of a file already open, whatever that file is."""
    p = os.path.abspath(path)
    for _ in range(_LINKS_MAX):
        if _OPEN_FILES.fullmatch(os.path.realpath(os.path.dirname(p))):
            return True
        if not os.path.islink(p):
            return False
        p = os.path.join(os.path.dirname(p), os.readlink(p))
    return False


def _target(path):
    """The regular file to replace for `path` (through a symbolic link,
    the file it points to); DbError saying why when it must not be."""
    real = os.path.realpath(path)
    via = "" if real == os.path.abspath(path) else " (the link %s points to %s)" % (path, real)
    if os.path.isdir(real):
        raise DbError("%s is a folder; give a file name" % path)
    odd = not_a_regular_file(real)
    if odd:
        raise DbError("%s is %s, not a regular file%s: refusing to write over it; give a file name"
                      % (path, odd, via))
    if os.path.lexists(real) and not writable(real):
        raise DbError("%s is read-only%s: refusing to replace it" % (path, via))
    return real


def _mode_for(real):
    """The replaced file's mode, or for a new file 0666 less the umask, as
    `>` or an editor's save would make it. The umask can only be read by
    setting it: it is put back at once (no other thread of ours makes a
    file meanwhile)."""
    try:
        return stat.S_IMODE(os.stat(real).st_mode)
    except FileNotFoundError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def _write_into(path, text):
    """Write straight into an open file's name, onto its end: after a
    shell's `>` the end is the start, after `>>` what came before stays."""
    try:
        with open(path, "a", newline="", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise DbError("cannot write %s: %s" % (path, e.strerror or e))


def write_atomically(path, text):
    """Write text to the file `path` names, as the module says: replaced
    whole via a temporary file, written into when it names an open file,
    or DbError with the reason it cannot be."""
    path = os.fspath(path)
    if path[-1:] in {"/", os.sep, os.altsep} and not os.path.isdir(path):  # a folder: _target says so
        raise DbError("%s ends with a slash, so it names a folder, not a file: give a file name" % path)
    if names_an_open_file(path):
        _write_into(path, text)
        return
    real = _target(path)
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise DbError("cannot write %s: there is no folder %s" % (path, folder))
    mode = _mode_for(real)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".%s." % os.path.basename(real), suffix=".tmp", dir=folder)
    except OSError as e:
        raise DbError("cannot write %s: it is written as a new file in its folder %s first, and none can be "
                      "made there (%s)" % (path, folder, e.strerror or e))
    try:
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, real)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise DbError("cannot write %s: %s; the previous %s is unchanged"
                      % (path, e.strerror or e, os.path.basename(real)))
