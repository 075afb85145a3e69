"""The data folder's names and the checks on them, shared by the journal,
the small files, their repairs and the serial protocol: a leaf that
imports nothing of the app, so every part of store/ and link/ can use it."""

import errno

# File names shared with the app, so both sides read the same files.
ROSTER = "roster.json"
SETTINGS = "settings.json"
BOOT = "boot.json"      # this board's boot counter (journal.count_boot)
CLOCKS = "clocks.json"  # {"<boot>": epoch ms at that boot's ms 0} (protocol "clock")
SMALL_MAX = 4096  # bytes: the largest small file (a full roster is ~450)

_DIR = 0x4000   # stat mode bits: S_IFDIR
_FILE = 0x8000  # S_IFREG
_TYPE = 0xF000  # S_IFMT


def _is_missing(err):
    return bool(err.args) and err.args[0] == errno.ENOENT



INDEX = "index.json"
GAMES = "games"
_EXT = ".jsonl"
_FIX = 16    # leftover .tmp/.new files settled per boot (more: next boot)


class JournalError(ValueError):
    """A request the journal refuses. `code` is for the serial protocol:
    "game" (no such game), "open" (still in progress), "unsynced"."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def game_number(game_id):
    """The counter part of a game id (for ordering), or -1 if malformed."""
    head = game_id.split("-", 1)[0]
    if not head or len(head) > 9:
        return -1
    for ch in head:
        if ch < "0" or ch > "9":  # ASCII digits only
            return -1
    return int(head)


def valid_id(game_id):
    """True for a string shaped like a game id (and safe as a file name):
    ASCII digits, letters and "-". Upper-case letters are not in the tags
    the firmware draws, but an index edited by hand once gave files such
    names (00005-TAG): they are games all the same, to list and sync."""
    if not isinstance(game_id, str) or len(game_id) > 24 or game_number(game_id) < 0:
        return False
    for ch in game_id:
        if not (("0" <= ch <= "9") or ("a" <= ch <= "z") or ("A" <= ch <= "Z") or ch == "-"):
            return False
    return True


# --- synced game numbers, as sorted disjoint [lo, hi] ranges -----------------
def _in_ranges(ranges, n):
    for r in ranges:
        if r[0] <= n <= r[1]:
            return True
    return False
