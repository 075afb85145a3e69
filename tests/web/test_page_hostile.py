"""The device page against what a browser can do to it (issue 22): two
tabs on one storage, storage nearly full, and a file where a folder
belongs. The real firmware on the 32-bit WebAssembly MicroPython in a
real headless Chromium; storage is the browser's own localStorage, filled
for real until it refuses."""

import base64

import pagekit
from shared_rules.wire import encode
from shared_rules.wire_read import decode

KEY = "moontable.flash:"


def stored_value(page, path):
    return page.js("return localStorage.getItem(arguments[0])", KEY + path)


def stored_bytes(page, path):
    value = stored_value(page, path)
    assert value is not None and value.startswith("file:"), (path, value)
    return base64.b64decode(value[5:])


def fill_storage(page, leave=0):
    """Fill the page's localStorage with junk until the browser refuses
    one more character, then free `leave` characters of it. Returns the
    number of junk entries."""
    return page.js("""
        let i = 0;
        let size = 1 << 20;
        while (size >= 1) {
            try { localStorage.setItem('junk' + i, 'x'.repeat(size)); i += 1; }
            catch (e) { size = size >> 1; }
        }
        const leave = arguments[0];
        if (leave) {
            for (let k = 0; k < i; k++) {
                const v = localStorage.getItem('junk' + k);
                if (v.length > leave + 10) { localStorage.setItem('junk' + k, v.slice(leave)); break; }
            }
        }
        return i;""", leave)


def free_storage(page):
    page.js("""
        for (const k of Object.keys(localStorage)) if (k.startsWith('junk')) localStorage.removeItem(k);""")


def status(page):
    return page.d.find_element("id", "status").text


def start_shoot_the_moon(page):
    page.choose("New game")
    page.choose("Shoot the Moon")
    page.wait_text("Players")
    page.press("down")
    page.press("ok")
    page.wait_text("Chips to win")
    page.press("ok")
    for _ in range(3):
        page.press("ok")
    page.wait_text("trick 1/5")


# --- two tabs ------------------------------------------------------------------------
def test_a_second_tab_says_the_device_is_open_elsewhere_and_starts_when_it_closes(page, page_server):
    d = page.d
    first = d.current_window_handle
    start_shoot_the_moon(page)
    d.switch_to.new_window("tab")
    second = d.current_window_handle
    other = pagekit.Page(d, page_server.url)
    d.get(other.url)
    other.wait(lambda: other.js("return window.moontable && moontable.elsewhere"), "the second tab to wait")
    assert "open in another tab" in status(other), status(other)
    # The first tab plays on; the second never starts nor writes a byte meanwhile.
    d.switch_to.window(first)
    page.press("ok")
    page.wait_text("moons?")
    page.choose("no moons")
    page.wait_text("trick 2/5")
    d.switch_to.window(second)
    assert other.js("return moontable.ready") is False and other.js("return moontable.elsewhere") is True
    d.switch_to.window(first)
    cur = decode(stored_bytes(page, "/flash/data/index.json"))["v"]["cur"]
    journal = stored_bytes(page, "/flash/data/games/%s.jsonl" % cur)
    d.close()
    d.switch_to.window(second)
    other.wait(lambda: other.js("return moontable.ready && moontable.frame !== null"), "the second tab to start")
    other.wait(lambda: "trick 2/5" in other.text() or "Warning" in other.text(), "the game the first tab played")
    assert stored_bytes(other, "/flash/data/games/%s.jsonl" % cur) == journal
    assert bytes(other.js("return moontable.readFlash(arguments[0])", "data/games/%s.jsonl" % cur)) == journal


# --- storage full ---------------------------------------------------------------------
def test_a_setting_saved_with_storage_full_keeps_the_old_file(page):
    page.choose("Settings")
    page.choose("Sound")  # on -> off
    page.wait(lambda: stored_value(page, "/flash/data/settings.json") is not None, "settings.json saved")
    before = stored_bytes(page, "/flash/data/settings.json")
    assert decode(before)["v"]["sound"] is False
    fill_storage(page)
    page.choose("Sound")  # off -> on: the browser refuses the write
    page.wait(lambda: "storage for the page is full" in status(page), "the page to say storage is full")
    assert "settings.json" in status(page) and "the copy saved before is kept" in status(page)
    assert stored_bytes(page, "/flash/data/settings.json") == before  # not emptied
    assert stored_value(page, "/flash/data/settings.json.tmp") is None


def test_a_game_started_with_storage_full_leaves_no_empty_files(page):
    fill_storage(page)
    start_shoot_the_moon(page)
    assert "storage for the page is full" in status(page), status(page)
    empty = page.js("""
        return Object.keys(localStorage).filter(
            (k) => k.startsWith('moontable.flash:') && localStorage.getItem(k) === 'file:');""")
    assert empty == [], empty
    # With space again, the page boots clean: no damaged index, no empty game.
    free_storage(page)
    page.d.refresh()
    page.open()
    page.wait_text("New game")
    assert "Warning" not in page.text()


def test_a_torn_line_repair_with_200_bytes_free_never_empties_the_journal(page, tmp_path):
    start_shoot_the_moon(page)
    page.press("ok")
    page.wait_text("moons?")
    page.choose("no moons")
    page.wait_text("trick 2/5")
    cur = decode(stored_bytes(page, "/flash/data/index.json"))["v"]["cur"]
    path = "/flash/data/games/%s.jsonl" % cur
    whole = stored_bytes(page, path)
    torn = whole + whole.splitlines(keepends=True)[-1][:17]
    page.js("localStorage.setItem(arguments[0], 'file:' + arguments[1])", KEY + path, base64.b64encode(torn).decode())
    fill_storage(page, leave=200)
    page.d.refresh()
    page.open()
    page.wait(lambda: "storage for the page is full" in status(page), "the page to say storage is full")
    assert stored_bytes(page, path) == torn  # the repair could not be saved: the journal is as it was
    # With space again, the repair is saved and the game goes on.
    free_storage(page)
    page.d.refresh()
    page.open()
    page.wait(lambda: "trick 2/5" in page.text() or "Warning" in page.text(), "the resumed game")
    assert stored_bytes(page, path) == whole


# --- a file where a folder belongs ------------------------------------------------------
def test_a_file_where_a_folder_belongs_is_set_aside(browser, page_server):
    d = browser[0]
    page = pagekit.Page(d, page_server.url)
    d.get(page.url)
    page.wait(lambda: page.js("return window.moontable && moontable.ready"), "the first start")
    notes = base64.b64encode(b"somebody's notes\n").decode()
    d.execute_script("""
        localStorage.clear();
        localStorage.setItem('moontable.flash:/flash/data', 'file:' + arguments[0]);
        localStorage.setItem('moontable.flash:/flash/data/games', 'dir');
        localStorage.setItem('moontable.flash:/flash/data/games/00001-abcd.jsonl', 'file:' + arguments[1]);
        """, notes, base64.b64encode(encode({"type": "header", "game": "moons", "players": ["A", "B"],
                                              "options": {}, "rules": 1, "id": "00001-abcd"})).decode())
    d.refresh()
    page.open()
    text = status(page)
    assert "/flash/data was a file where a folder belongs: set aside as /flash/data.file1" in text, text
    assert stored_value(page, "/flash/data.file1") == "file:" + notes
    assert stored_value(page, "/flash/data/games/00001-abcd.jsonl") is not None


def test_flash_itself_and_the_games_folder_as_files(browser, page_server):
    d = browser[0]
    page = pagekit.Page(d, page_server.url)
    d.get(page.url)
    page.wait(lambda: page.js("return window.moontable && moontable.ready"), "the first start")
    d.execute_script("""
        localStorage.clear();
        localStorage.setItem('moontable.flash:/flash', 'file:eA==');
        localStorage.setItem('moontable.flash:/flash/data/games', 'file:eQ==');""")
    d.refresh()
    page.open()
    text = status(page)
    assert "/flash was a file" in text and "/flash/data/games was a file" in text, text
    assert stored_value(page, "/flash.file1") == "file:eA=="
    assert stored_value(page, "/flash/data/games.file1") == "file:eQ=="
    page.choose("New game")  # the games folder works
    page.choose("Shoot the Moon")
    page.wait_text("Players")
