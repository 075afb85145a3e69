"""New game over a finished game: the finished game is set aside (its
session and rules leave the heap before the new game's menus load), and
backing out of those menus leaves Home offering it again, read back from
its journal as it was (ui/menus/abandon.py)."""

import simtools as st
from test_table_round2 import _stm_over, game_files


def test_new_game_over_a_finished_game_and_back_offers_it_again(tmp_path):
    b = st.new_board(tmp_path)
    flash = tmp_path / "flash"
    try:
        _stm_over(b)
        b.press("back")
        assert st.screen(b).startswith("moontable\nFinished game"), st.screen(b)
        st.choose(b, "New game")
        assert "Which game?" in st.screen(b), st.screen(b)  # no question: the game is over
        b.press("back")
        scr = st.screen(b)
        assert scr.startswith("moontable\nFinished game") and "Standings" not in scr, scr
        st.choose(b, "Finished game")
        scr = st.screen(b)
        assert "Won: P2" in scr and "OK: Rematch" in scr, scr
        b.press("ok")  # the rematch works from the game read back
        assert "trick 1/5" in st.screen(b) and len(game_files(flash)) == 2, st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()
