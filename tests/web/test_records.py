"""The page's list of past games names each game as a player knows it
(issue 21, item 14): the game, its players, who won or the round it
stopped in, and when; never by its id alone. A game left unfinished is
said to be unfinished, still downloadable (nothing is lost), with no BG
Stats link (BG Stats records finished plays)."""

import base64
import os
import sys

from pagekit import ROOT

sys.path.insert(0, os.path.join(str(ROOT), "tests"))
from gamegen import random_moonstar  # noqa: E402

T0 = 1767258000  # 2026-01-01 09:00, the device's local-as-UTC clock


def journal(match, events):
    from shared_rules.wire import encode

    return b"".join(encode(x) for x in [match.header] + events)


def put_file(page, path, data):
    page.js("localStorage.setItem('moontable.flash:' + arguments[0], 'file:' + arguments[1])",
            path, base64.b64encode(data).decode())


def test_past_games_are_named_as_players_know_them(page):
    from selenium.webdriver.common.by import By

    from moontable.bgstats import date_text
    vol = "k3f9"  # a volume tag: the device lists every game file on flash, whoever's
    done, done_events = random_moonstar(["Ann", "Bob", "Cy"], 3, T0)
    left, left_events = random_moonstar(["Dee", "Eve"], 4, T0 + 86400, finish=False)
    assert done.winners() and not left.winners() and left.state["round"] == 2
    # No index: the device rebuilds it and resumes the newest game unless
    # it ended (issue 43), so the game left unfinished is the older one.
    ids = ("00042-" + vol, "00041-" + vol)
    put_file(page, "/flash/data/games/%s.jsonl" % ids[0], journal(done, done_events))
    put_file(page, "/flash/data/games/%s.jsonl" % ids[1], journal(left, left_events))
    page.d.refresh()
    page.open()
    page.wait(lambda: len(page.d.find_elements(By.CSS_SELECTOR, "#records li[data-game]")) == 2, "the two games listed")
    rows = {li.get_attribute("data-game"): li for li in page.d.find_elements(By.CSS_SELECTOR, "#records li[data-game]")}

    winner = " & ".join(done.header["players"][p] for p in done.winners())
    n = done.state["round"]
    want = "Moonstar with Ann, Bob, Cy: %s won after %d rounds; %s" % (winner, n, date_text(done_events[-1]["t"])[:16])
    row = rows[ids[0]]
    assert row.find_element(By.CSS_SELECTOR, ".title").text == want, row.text
    assert row.get_attribute("class") == "finished"
    assert row.find_elements(By.CSS_SELECTOR, "a.bgstats")

    want = "Moonstar with Dee, Eve: not finished, stopped in round 3; %s" % date_text(left_events[-1]["t"])[:16]
    row = rows[ids[1]]
    assert row.find_element(By.CSS_SELECTOR, ".title").text == want, row.text
    assert row.get_attribute("class") == "unfinished"
    assert not row.find_elements(By.CSS_SELECTOR, "a.bgstats")  # BG Stats takes finished plays
    for gid, row in rows.items():
        assert gid not in row.text  # the id is the file's name, not the game's
        button = row.find_element(By.CSS_SELECTOR, "button.record")
        assert button.get_attribute("title") == gid + ".jsonl"
    assert page.d.find_element(By.ID, "records-title").text == "Past games"
    assert not page.error()
