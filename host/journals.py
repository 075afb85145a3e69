"""What the database keeps of a game's journal, worked out from its
bytes: its records as canonical text and their digests (what a game
*means*, whatever its line ends), the boots it was written in, the
replay that verifies it and notes who started, and its seats' places."""

import hashlib
import json

from moontable.bgstats import first_seat
from moontable.names import is_label, is_text
from shared_rules import get_game
from shared_rules.log import Replay
from shared_rules.places import seat_ranks
from shared_rules.wire_read import decode as _decode

# The most bytes of one game log read, from a file or a device: a long
# evening's journal is a few hundred KB, so more is junk (or /dev/zero),
# and it is neither read on nor kept in quarantine.
MAX_LOG = 8 << 20


def game_boots(lines):
    """The boot counters ("b") a game's decoded lines were written in."""
    out = set()
    for obj in lines:
        if isinstance(obj, dict):
            b = obj.get("b")
            if isinstance(b, int) and not isinstance(b, bool) and abs(b) < 1 << 62:
                out.add(b)
    return sorted(out)


def prefix_digests(canon):
    """digest(canon[:i]) for i = 1 .. len(canon), in one pass."""
    h = hashlib.sha256()
    out = []
    for line in canon:
        h.update(line.encode("utf-8", "surrogatepass"))
        h.update(b"\n")
        out.append(h.copy().hexdigest())
    return out


def indexed_lengths(n):
    """The prefix lengths kept per game: 1, 2, 4, 8, ... up to n."""
    k = 1
    while k <= n:
        yield k
        k <<= 1


def index_game(c, game_pk, device_id, lines, prefixes):
    """(Re)write a game's rows in game_boots and game_prefixes."""
    c.execute("DELETE FROM game_boots WHERE game=?", (game_pk,))
    c.execute("DELETE FROM game_prefixes WHERE game=?", (game_pk,))
    c.executemany("INSERT OR IGNORE INTO game_boots(device_id, boot, game) VALUES (?, ?, ?)",
                  [(device_id, b, game_pk) for b in game_boots(lines)])
    c.executemany("INSERT OR IGNORE INTO game_prefixes(digest, lines, game) VALUES (?, ?, ?)",
                  [(bytes.fromhex(prefixes[k - 1])[:16], k, game_pk) for k in indexed_lengths(len(prefixes))])


def source_id_for(name):
    """The BG Stats sourcePlayerId of a person first stored under `name`:
    "moontable-" + the folded name, the scheme the web page uses too
    (host/bgstats.source_player_id), so one person is one BG Stats player
    from either. Kept in the row: a rename keeps it."""
    from moontable.bgstats import source_player_id

    return source_player_id("moontable", name)


def placed(match):
    """(rank by seat, winning seats) of a replayed game, by its win rule."""
    return seat_ranks(match.placings(), len(match.state["players"])), match.winners()


def canonical_lines(journal):
    """A journal's records as canonical JSON text (sorted keys, no spaces),
    one string a record: what a game *means*, whatever its line ends, CRC
    suffixes or blank lines. Lines that do not decode are kept as their
    stripped text (a game that replayed has none)."""
    out = []
    for raw in journal.split(b"\n"):
        if not raw.strip():
            continue
        try:
            obj = _decode(raw.rstrip(b"\r"))
        except (ValueError, RecursionError):
            out.append(raw.strip().decode("utf-8", "replace"))
            continue
        out.append(json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    return out


def decoded(journal):
    """The journal's records as dicts (undecodable lines skipped)."""
    out = []
    for raw in journal.split(b"\n"):
        if raw.strip():
            try:
                out.append(_decode(raw.rstrip(b"\r")))
            except (ValueError, RecursionError):
                pass
    return out


def digest(lines):
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


class Verify(Replay):
    """The replay that verifies a journal, also noting who started: the
    first setter/dealer is whoever holds the job until round 1 is over
    (an undo before then may change it)."""

    def __init__(self):
        super().__init__()
        self.first = None

    def start(self, header, lineno=1):
        super().start(header, lineno)
        self.first = first_seat(self.match.state)

    def step(self, event, lineno):
        super().step(event, lineno)
        state = self.match.state
        if state["round"] == 0 or self.first is None:
            seat = first_seat(state)
            if seat is not None or state["round"] == 0:
                self.first = seat


def start_scores(journal):
    """The scores before the first round, from the rules core (Shoot the
    Moon starts everyone on 2 chips, the others on 0)."""
    header = _decode(journal.split(b"\n", 1)[0])
    return list(get_game(header["game"]).new(header["players"], header.get("options") or {})["scores"])


def header_location(header):
    """Where a game was played, from its log's header ("location"), or
    None when the header names no place (or not as text)."""
    loc = header.get("location") if isinstance(header, dict) else None
    return loc.strip() if isinstance(loc, str) and loc.strip() else None


def seat_source_id(r, device, game_id):
    from moontable.bgstats import source_player_id

    if is_label(r[1]):
        return source_player_id("moontable", r[1], "%s/%s" % (device, game_id))
    return r[6] or "moontable-player-%d" % r[5]


def header_id(data):
    """The "id" a log's header carries, if any (device journals name their game)."""
    first = data.split(b"\n", 1)[0]
    try:
        header = _decode(first)
    except (ValueError, RecursionError):
        return None
    for key in ("id", "game_id"):
        value = header.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            text = str(value)
            if text.isprintable() and len(text) <= 64 and is_text(text):
                return text
    return None


def insert_rounds(conn, game_pk, rounds):
    conn.executemany(
        "INSERT INTO rounds(game, round, seat, score) VALUES (?, ?, ?, ?)",
        [(game_pk, r, seat, score) for r, scores in enumerate(rounds, 1) for seat, score in enumerate(scores)])
