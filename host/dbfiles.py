"""What can be wrong with a database file, said in the user's terms."""

import os
import stat


def writable(path):
    """May we write here? The permission bits count even for root, who could
    write anyway: a file or folder made read-only was made so on purpose."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return os.access(path, os.W_OK) and bool(mode & 0o222)


def not_a_regular_file(path):
    """What `path` is when it exists but is not a regular file (after
    following symbolic links): "a named pipe (FIFO)", "a device file",
    "a socket"; None for a regular file, a folder or nothing at all.
    Opening a FIFO blocks until someone writes to it, and a device file
    can be endless or replaced: neither is ever a database or a log."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device file"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return None


def left_mid_write(path, e):
    """The sentence for a read-only open refused because a writer stopped
    mid-write (killed, or the power went) and left a journal SQLite must
    replay first: a hot `-journal`, or a `-wal` whose index needs
    rebuilding. SQLite calls that "attempt to write a readonly database"
    though the file is writable; the user needs to hear what happened
    and how to finish it. None when that is not the case."""
    text = str(e)
    if "readonly" not in text and "read-only" not in text:
        return None
    if not writable(path) or not writable(os.path.dirname(os.path.abspath(path))):
        return None  # truly read-only: sqlite_problem says so
    left = [path + ext for ext in ("-journal", "-wal") if os.path.exists(path + ext)]
    if not left:
        return None
    return ("the database %s was left mid-write: a moontable command was stopped (killed, or the power went) while "
            "writing it, and %s holds the unfinished change. The file is writable and what was stored before is "
            "whole, but a command that only reads never writes, so it cannot finish the repair: the next command "
            "that writes (`moontable sync` or `moontable import`) rolls the unfinished change back first. Do not "
            "delete %s."
            % (path, " and ".join(left), os.path.basename(left[0])))


def sqlite_problem(path, e):
    """SQLite's complaint about a file, in the user's terms."""
    text = str(e)
    if "readonly" in text or "read-only" in text:
        return "the database %s is read-only: nothing can be stored in it (%s)" % (path, text)
    if "full" in text:
        return "the disk holding %s is full (%s)" % (path, text)
    if "unable to open" in text:
        return "cannot open the database %s: %s (check that its folder can be read)" % (path, text)
    return "%s is not a usable moontable database: %s" % (path, text)
