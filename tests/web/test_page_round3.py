"""Issue 43, item 10 (a), on the web page: a reload is the page's power
cut, and after one Home offers the finished game it offered before (the
way back to its result, standings and rematch), not only the Past games
list below the device. The simulator's power cut:
tests/sim/test_table_round3_keys.py."""

from test_page import point_at, shoot_the_moon_big_moon_to_p2, wait_toast_gone


def shoot_the_moon_won_by_p2(page):
    """A 3-player Shoot the Moon game to 3 chips, by clicks: P2 takes the
    first trick with a BIG MOON, P1 the other four; P2 wins."""
    shoot_the_moon_big_moon_to_p2(page)
    wait_toast_gone(page, "BIG MOON:")
    for _ in range(4):
        point_at(page, "P1")
        page.press("ok")
        page.choose("no moons")
    page.wait_text("Won: P2", "the final standings")


def home(page):
    """Home's rows as the screen reader hears them (the selection's "> "
    dropped), after the title."""
    page.wait_text("moontable", "Home")
    lines = [l[2:] if l.startswith("> ") else l for l in page.lines()]
    assert lines[0].endswith("moontable"), lines
    return lines[1:]


def reload(page):
    """The page goes away and comes back, as a board's power does."""
    page.d.refresh()
    page.open()


def test_home_offers_the_finished_game_after_a_reload(page):
    shoot_the_moon_won_by_p2(page)
    page.press("back")
    before = home(page)
    assert before[0] == "Finished game" and "Standings" in before, before
    reload(page)
    # offered as before; its standings are a step further (the game's own
    # screens), as once New game has set it aside: read back from flash
    kept = [x for x in before if x != "Standings"]
    assert home(page)[:len(kept)] == kept, page.text()
    page.choose("Finished game")
    page.wait_text("Won: P2")
    assert "OK: Rematch" in page.text(), page.text()

    page.press("back")  # Home, the game read back in memory again
    page.choose("New game")
    page.wait_text("Which game?")  # no question: the game is over, it is set aside
    page.press("back")
    before = home(page)
    assert before[0] == "Finished game" and "Standings" not in before, before
    reload(page)
    assert home(page) == before
    assert not page.error()
    assert "Traceback" not in page.console(), page.console()
