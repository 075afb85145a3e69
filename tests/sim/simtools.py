"""Helpers for the simulator tests: read the panel's text back (the 8x8
font's glyphs are taken from MicroPython's own framebuf, then matched at
every position, normal or inverted), and drive menus by their labels."""

import json
import subprocess
import time
from pathlib import Path

from moontable.sim.board_link import ROOT, SimBoard, deploy, micropython_path

_GLYPHS = None

# The heap every simulator test gives the board (conftest.py), on the 64-bit
# unix port (8-byte words, so about twice a 32-bit board's figures): the
# board's budget of 128 KB (tests/budgets.py) doubled, the simulator's own
# default. The budget itself is a 32-bit figure, checked in tests/wasm
# (docs/device.md, Memory); this heap only has to hold what fits it.
TEST_HEAP = "256K"

_DUMP = """
import framebuf
b = bytearray(8)
f = framebuf.FrameBuffer(b, 8, 8, framebuf.MONO_HLSB)
out = []
for c in range(33, 127):
    f.fill(0)
    f.text(chr(c), 0, 0, 1)
    out.append(bytes(b).hex())
print(" ".join(out))
"""


def glyphs():
    """8-row bit patterns of the printable characters -> the character."""
    global _GLYPHS
    if _GLYPHS is None:
        out = subprocess.run([micropython_path(), "-c", _DUMP], capture_output=True, text=True, check=True).stdout.split()
        table = {}
        for i, h in enumerate(out):
            rows = tuple(bytes.fromhex(h))
            if any(rows):
                table.setdefault(rows, chr(33 + i))
        _GLYPHS = table
    return _GLYPHS


_BY_BYTES = None  # (glyph rows as bytes -> char, inverted glyph rows as bytes -> char)
_READ = {}  # the panel's RAM and settings -> its text rows: a test reads one frame many times
_BITS = bytes.maketrans(b"\x00\x01", b"01")


def _glyph_bytes():
    global _BY_BYTES
    if _BY_BYTES is None:
        g = glyphs()
        _BY_BYTES = ({bytes(rows): c for rows, c in g.items()},
                     {bytes(255 ^ r for r in rows): c for rows, c in g.items()})
    return _BY_BYTES


def screen_lines(emu):
    """Text on the panel, one string per text row found (top to bottom):
    each glyph found at (x, y), normal or inverted, joined with spaces
    where gaps are wider than a character."""
    return list(_read(emu, "lines", _read_lines))


def _frame_key(emu, what):
    return (what, bytes(emu.ram), emu.powered, emu.inverted, emu.entire_on, emu.start_line, emu.display_offset,
            emu.mux, emu.com_remap, emu.width, emu.height)


def _read(emu, what, reader):
    """reader(emu), kept for the frame on the panel. A live board's loop
    writes the panel from another thread, so a frame that changed while it
    was read is not kept: kept under the frame before it (a blank panel),
    its text was once read back for every later blank panel, and a test
    saw Home on a board that had not started yet."""
    key = _frame_key(emu, what)
    found = _READ.get(key)
    if found is None:
        found = reader(emu)
        if _frame_key(emu, what) == key:
            if len(_READ) > 2000:
                _READ.clear()
            _READ[key] = found
    return found


def _read_lines(emu):
    normal, inverted = _glyph_bytes()
    w, h = emu.width, emu.height
    rowbits = [int(bytes(line).translate(_BITS), 2) for line in emu.pixels]
    hits = {}
    for x in range(w - 7):
        shift = w - 8 - x
        column = bytes((r >> shift) & 0xFF for r in rowbits)  # the 8 pixels at x.. of every row
        for y in range(h - 7):
            rows = column[y:y + 8]
            c = normal.get(rows) or inverted.get(rows)
            if c is not None:
                hits.setdefault(y, []).append((x, c))
    lines = []
    for y in sorted(hits):
        cells = hits[y]  # already in x order
        text = ""
        last = None
        for x, c in cells:
            if last is not None and x - last < 8:
                continue  # overlapping false match
            if last is not None and x - last > 8:
                text += " "
            text += c
            last = x
        if len(text.replace(" ", "").strip("_\"'`-.,")) >= 2:
            lines.append(text)
    return lines


def screen(board):
    return "\n".join(screen_lines(board.emu))


def journal_events(flash):
    """Every event line of the newest game file under flash/data/games."""
    games = sorted((Path(flash) / "data" / "games").glob("*.jsonl"))
    assert games, "no game journal on flash"
    from shared_rules.wire_read import decode

    lines = games[-1].read_bytes().splitlines()
    return [decode(l) for l in lines[1:] if l.strip()]


def choose(board, label, max_steps=30, exact=False):
    """Move the menu selection down to the item containing `label` (or
    equal to it, with exact), then OK."""
    for _ in range(max_steps):
        sel = selected(board)
        if sel is not None and (sel.strip() == label if exact else label in sel):
            board.press("ok")
            return
        board.press("down")
    raise AssertionError("menu item %r not found; screen:\n%s" % (label, screen(board)))


def selected(board):
    """The highlighted menu row's text (an inverted band below the title)."""
    return _read(board.emu, "selected", _selected)


def _selected(emu):
    px = emu.pixels
    for y in range(10, 56):
        if px[y][0] and px[y][1] and px[y + 8][0]:
            top = y
            g = glyphs()
            text = ""
            last = None
            for x in range(0, 121):
                rows = []
                for i in range(8):
                    v = 0
                    for k in range(8):
                        if not px[top + 1 + i][x + k]:
                            v |= 1 << (7 - k)
                    rows.append(v)
                c = g.get(tuple(rows))
                if c is not None and (last is None or x - last >= 8):
                    if last is not None and x - last > 8:
                        text += " "
                    text += c
                    last = x
            return text
    return None


def set_number(board, value, current):
    """On a number picker showing `current`, step to `value`, then OK."""
    key = "up" if value > current else "down"
    for _ in range(abs(value - current)):
        board.press(key, hold=40, after=40)
    board.press("ok")


def new_board(tmp_path, seed=7):
    return SimBoard(tmp_path / "flash", seed=seed).start()


def start_two_player_moonstar(board, game_label, setter):
    """From Home: a new 2-player Moonstar game (`game_label` from the game
    list, seats P1 and P2), the first setter chosen by name."""
    choose(board, "New game")
    choose(board, "Moonstar")
    board.press("down")
    board.press("down")
    board.press("ok")  # 4 players by default, two presses down for 2
    choose(board, game_label)
    board.press("ok")
    board.press("ok")
    board.press("ok")
    choose(board, "Choose setter")
    choose(board, setter)


def named_board(tmp_path, names, seed=7):
    """A started board whose roster is `names`: a new game's seats, each
    taking the default, follow it in order."""
    from shared_rules.wire import encode

    flash = tmp_path / "flash"
    deploy(flash)
    (flash / "data").mkdir(parents=True, exist_ok=True)
    (flash / "data" / "roster.json").write_bytes(encode({"v": names}))
    return SimBoard(flash, seed=seed, do_deploy=False).start()


def hint(board):
    """The panel's bottom line: what OK does, or whose turn it is."""
    return screen_lines(board.emu)[-1]


def point_at(board, name):
    """On a game screen that points at a player, move to `name`."""
    for _ in range(8):
        if hint(board).startswith("OK: %s " % name):
            return
        board.press("down")
    raise AssertionError("never points at %s:\n%s" % (name, screen(board)))


def start_shoot_the_moon_for(board, players, target, teams=None):
    """From Home: a new Shoot the Moon game for `players` (partnerships:
    the menu item `teams`), `target` chips to win, each seat its default."""
    choose(board, "New game")
    choose(board, "Shoot the Moon", exact=True)
    set_number(board, players, 4)
    if teams:
        choose(board, teams)
    set_number(board, target, 7)
    for _ in range(players):
        board.press("ok")


def start_shoot_the_moon(board, last=True):
    """From Home: a new Shoot the Moon game for 3 players, 3 chips to win,
    seats P1 P2 P3 (each OK takes the default); the last OK starts it
    (`last=False`: that one is left to the caller)."""
    choose(board, "New game")
    choose(board, "Shoot the Moon", exact=True)
    set_number(board, 3, 4)
    set_number(board, 3, 7)  # chips to win
    for _ in range(3 if last else 2):
        board.press("ok")  # seats


def no_faults(board):
    """The serial log shows no traceback (a screen bug is caught and shown
    as a toast, so tests look here to catch it)."""
    out = board.serial_text()
    assert "Traceback" not in out, out


def pick(board, label):
    """Choose a menu item by label (alias of choose)."""
    choose(board, label)


def wait_toast(board):
    """Let a toast time out (3 s)."""
    board.advance(3100)


def replay(flash):
    """The match a replay of the newest journal gives (the PC's view)."""
    from shared_rules.log import replay_file

    games = sorted((Path(flash) / "data" / "games").glob("*.jsonl"))
    return replay_file(str(games[-1])).match


DOCS = ROOT / "docs" / "screens"


def screens_dir():
    """Where the docs' screenshots go: $MOONTABLE_SCREENS, set by `make
    screens` (to docs/screens), or None. A plain test run never writes a
    tracked file, so it keeps them in memory only."""
    import os

    d = os.environ.get("MOONTABLE_SCREENS")
    return Path(d) if d else None


def snap(board, name):
    """The panel as a PNG, saved as <name>.png under screens_dir() when
    `make screens` asks for the docs' screenshots; otherwise only made (so
    the drawing is still checked), never written."""
    from moontable.sim import render

    data = render.png_bytes(board.emu, 3)
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), name
    out = screens_dir()
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / (name + ".png")).write_bytes(data)
    return data


def wait_for(cond, timeout=120.0):
    """Poll cond() until it is true (True) or timeout seconds pass (False):
    for the live board, which runs on the real clock. The limit is a guard
    against a hang, generous for a busy machine."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False
