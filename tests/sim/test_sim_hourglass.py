"""An OK or a BACK shows an hourglass in the panel's top right corner
before the app acts on it (App.hourglass), so a press whose screen first
reads its code from flash shows at once that it was taken; the screen it
opens comes without it. Read off the real firmware's I2C writes, in the
simulator's SSD1306 emulator, on the simulator's clock."""

import simtools as st

# The corner the hourglass takes (x 118-127, y 0-7), as it should be lit:
# a dark box holding two bars joined by a cross.
HOURGLASS = (
    "..........",
    "..#######.",
    "...#...#..",
    "....#.#...",
    ".....#....",
    "....#.#...",
    "...#...#..",
    "..#######.",
)


def corner(emu):
    return tuple("".join("#" if emu.lit(x, y) else "." for x in range(118, 128)) for y in range(8))


def data_writes(board):
    """Record, for each I2C write of display data from now on, the corner
    as the panel shows it after the write and the data bytes it carried:
    the list that fills as the board runs."""
    emu = board.emu
    seen = []
    write = emu.write

    def recording(addr, data):
        before = emu.data_bytes
        ok = write(addr, data)
        if emu.data_bytes > before:
            seen.append((corner(emu), emu.data_bytes - before))
        return ok

    emu.write = recording
    return seen


def test_ok_and_back_show_the_hourglass_first_and_the_screen_they_open_wipes_it(tmp_path):
    board = st.new_board(tmp_path)
    try:
        assert "New game" in st.screen(board)
        assert corner(board.emu) != HOURGLASS
        for button, title in (("ok", "Which game?"), ("back", "moontable")):
            seen = data_writes(board)
            board.press(button)
            board.advance(300)
            assert seen, "the press wrote nothing to the panel"
            first, count = seen[0]
            assert first == HOURGLASS, "\n".join(first)
            assert count <= 10  # the corner's columns of one page, nothing more
            assert corner(board.emu) != HOURGLASS  # the screen the press opened drew over it
            assert title in st.screen(board), st.screen(board)
        # UP and DOWN act at once and draw no hourglass
        seen = data_writes(board)
        board.press("down")
        board.advance(300)
        assert seen and all(c != HOURGLASS for c, _ in seen)
    finally:
        board.kill()
