"""Holding a button on every number entry of the page, for 10 seconds, in
a real headless Chromium (issue 21, item 1): the number runs to its end
and stops there, the device never faults ("internal error: ..."), the
loop keeps running through the hold (the countdown moves, the passes go
on), and the entry still takes the value with OK afterwards.

The cause was the web board's screen-reader hook: it wrapped
ui.bigdigits.draw on every frame, because the mark it set to say "already
wrapped" was an attribute of a closure, which MicroPython drops without a
word. Each frame drawn with big digits added one wrapper, so a held
button (a frame per repeat) built a chain of calls deep enough to exhaust
the interpreter's stack."""

import re

HOLD_S = 10.0


def big_number(page):
    """The number in big digits of a number entry: its own line on the
    screen reader's text (the line after the caption)."""
    nums = [l for l in page.lines() if re.fullmatch(r"-?\d+", l.strip())]
    assert nums, page.text()
    return int(nums[0])


def hold(page, name, seconds=HOLD_S, watch=None):
    """Hold an on-screen button for `seconds`, checking every half second
    that the device runs on (loop passes go on, no fault, no page error);
    `watch()` is called at each look too. Returns the screen texts seen."""
    import time

    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    el = page.d.find_element(By.ID, "btn-" + name)
    ActionChains(page.d).click_and_hold(el).perform()
    seen = []
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            before = page.passes()
            time.sleep(0.5)
            text = page.text()
            seen.append(text)
            assert not page.error(), page.error()
            assert "internal error" not in text, text
            assert page.passes() > before, "the page's loop stopped during the hold:\n" + text
            if watch is not None:
                watch()
    finally:
        ActionChains(page.d).release(el).perform()
    page.settle()
    assert "internal error" not in page.text(), page.text()
    assert "Traceback" not in page.console(), page.console()
    return seen


def hold_both_ways(page, lo, hi):
    """DOWN for 10 s reaches `lo` and stays; UP for 10 s reaches `hi`."""
    hold(page, "down")
    assert big_number(page) == lo, page.text()
    hold(page, "up")
    assert big_number(page) == hi, page.text()


def test_holding_on_the_from_paper_scores_and_the_players_count(page):
    """Home > From paper > Moonstar > Players > Game 1 > seats > the
    starting scores, -999..999: the report's path, held 10 s each way on
    the player count and on every player's score. (The entry offers
    -999..999 while Moonstar's rules take 0..9999, and no lone start at or
    past the goal: 997 for all three is a game the rules accept.)"""
    page.choose("From paper")
    page.choose("Moonstar")
    page.wait_text("Players")
    hold_both_ways(page, 2, 8)
    for _ in range(5):
        page.press("down")
    assert big_number(page) == 3
    page.press("ok")
    page.choose("1 Basic")
    for _ in range(3):
        page.wait_text("Seat")
        page.press("ok")
    for seat in ("P1", "P2", "P3"):
        page.wait_text("%s: score?" % seat)
        hold_both_ways(page, -999, 999)
        page.press("down")
        page.press("down")
        assert big_number(page) == 997
        page.press("ok")
    page.wait_text("Who sets up?")
    assert "997" in page.text() and not page.error()


def test_holding_on_the_bid_in_the_bidding_minute(page):
    """In the bidding minute the countdown runs under the entry: a 10 s
    hold on the amount reaches the top bid, the countdown keeps counting
    down through the hold, the bid is taken and every button still
    works."""
    page.choose("New game")
    page.choose("Moonstar")
    page.wait_text("Players")
    page.press("down")
    page.press("down")
    page.press("ok")  # 2 players
    page.choose("1 Basic")
    page.press("ok")
    page.press("ok")  # seats P1, P2
    for _ in range(20):  # the dice are the browser's random: a tie rolls again
        page.wait_text("Who sets up?")
        page.press("ok")
        page.choose("Roll for setter")
        page.press("ok")
        page.wait(lambda: "Set-up" in page.text() or "Who sets up?" in page.text(), "the set-up or a roll again")
        if "Set-up" in page.text():
            break
    page.wait_text("Set-up")
    page.press("ok")
    page.choose("Device rolls")
    page.press("ok")
    page.wait_text("Bids")
    page.press("ok")
    page.wait_text("Who bids?")
    page.choose("P1")
    page.wait_text("first bid")
    clocks = []

    def clock():
        m = re.search(r"(\d+)$", page.text().splitlines()[0])
        if m:
            clocks.append(int(m.group(1)))

    hold(page, "up", watch=clock)
    top = big_number(page)
    hold(page, "down", watch=clock)
    low = big_number(page)
    assert low < top, (low, top)
    assert len(set(clocks)) >= 10 and clocks == sorted(clocks, reverse=True), clocks  # it counted down throughout
    hold(page, "up", watch=clock)
    assert big_number(page) == top  # the top bid again: the hold stops at the top
    page.press("down")
    bid = big_number(page)
    page.press("ok")
    page.wait_text("> OK:bid")
    assert re.search(r"\b%d\b" % bid, page.text()), page.text()
    page.press("back")  # the buttons still work: the game's menu opens
    page.wait_text("Time up now", "the game's menu")
    assert not page.error()
