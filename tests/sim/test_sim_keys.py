"""Simulator keys: every key is one press however fast they come (a
held key's repeat too), the capitals hold their button (a held capital
as long as it is held), whatever the timing of the machine.

host/sim/keys.py is a pure function of (key, timestamp) events, so these
tests give the times explicitly; the levels it makes are then fed to the
firmware's own buttons module (sampled every loop pass, as on the board)
to see what the app gets. The last test plays three taps into the
simulated board on its virtual clock and reads the bid they entered."""

import importlib.util

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import simtools as st
from moontable.sim.board_link import ROOT
from moontable.sim.keys import GAP_MS, HELD_TAIL_MS, LONG_HOLD_MS, TAP_MS, KeyButtons, timeline
from moontable.sim.run import keys_to_events

UP, DOWN, OK, BACK = 1, 2, 4, 8
LOOP_MS = 20  # the firmware's loop pass when idle


def firmware_buttons():
    """firmware/buttons.py, loaded under its own name (the firmware's
    modules are top-level on a board; here it must not shadow anything)."""
    spec = importlib.util.spec_from_file_location("fw_buttons_for_sim_keys", ROOT / "firmware" / "buttons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def presses(changes, bit):
    """(down, up) intervals of one button in a timeline."""
    out = []
    down = None
    for t, mask in changes:
        if mask & bit and down is None:
            down = t
        elif not mask & bit and down is not None:
            out.append((down, t))
            down = None
    assert down is None, "button still down at the end"
    return out


def firmware_events(changes, until):
    """What the firmware's buttons module reports for these levels, sampled
    every LOOP_MS: [(button name, kind name, count)]."""
    fw = firmware_buttons()
    b = fw.Buttons()
    out = []
    mask = 0
    i = 0
    for now in range(0, until, LOOP_MS):
        while i < len(changes) and changes[i][0] <= now:
            mask = changes[i][1]
            i += 1
        for button, kind, count in b.update(mask, now):
            out.append((fw.NAMES[button], fw.KIND_NAMES[kind], count))
    return out


def stream(button, start, end, first_repeat=500, every=30, long=0):
    """A held key as a terminal sends it: once at `start`, then after the
    repeat delay every `every` ms until `end`."""
    events = [(button, long, start)]
    t = start + first_repeat
    while t <= end:
        events.append((button, long, t))
        t += every
    return events


def test_taps_350_ms_apart_are_three_presses_not_a_hold():
    changes = timeline([("up", 0, 0), ("up", 0, 350), ("up", 0, 700)])
    assert presses(changes, UP) == [(0, TAP_MS), (350, 350 + TAP_MS), (700, 700 + TAP_MS)]
    events = firmware_events(changes, 2000)
    assert events == [("up", "press", 0)] * 3  # +3, and no auto-repeat


@pytest.mark.parametrize("gap", [0, 30, 90, 120, 140, 150, 200, 300, 450, 600])
def test_taps_at_any_pace_are_separate_presses(gap):
    """However close together (0: a burst read at once), each key is one
    press: those that come faster than a press and its gap are queued."""
    taps = [("up", 0, i * gap) for i in range(5)]
    changes = timeline(taps)
    got = presses(changes, UP)
    assert len(got) == 5
    for (down, up), (_b, _l, t) in zip(got, taps):
        assert down >= t and up - down == TAP_MS
    for (_d, up), (down, _u) in zip(got, got[1:]):
        assert down - up >= GAP_MS  # up long enough between them for the debounce
    if gap >= TAP_MS + GAP_MS:
        assert [down for down, _up in got] == [t for _b, _l, t in taps]  # none waits
    assert firmware_events(changes, 5 * gap + 2000) == [("up", "press", 0)] * 5


def test_taps_of_ok_and_back_are_short_presses():
    changes = timeline([("ok", 0, 0), ("ok", 0, 300), ("back", 0, 600)])
    assert firmware_events(changes, 2000) == [("ok", "press", 0), ("ok", "press", 0), ("back", "press", 0)]


@pytest.mark.parametrize("first_repeat,every", [(250, 30), (500, 30), (660, 40), (375, 90)])
def test_a_held_capital_up_is_a_hold_with_the_firmwares_auto_repeat(first_repeat, every):
    events = stream("up", 0, 3000, first_repeat, every, long=1)
    changes = timeline(events)
    # one press, from the first key to HELD_TAIL_MS after the stream's last
    assert presses(changes, UP) == [(0, events[-1][2] + HELD_TAIL_MS)]
    fw = firmware_events(changes, 4000)
    assert fw[0] == ("up", "press", 0)
    repeats = [e for e in fw[1:] if e[1] == "repeat"]
    assert len(repeats) == len(fw) - 1 and len(repeats) >= 10  # held: accelerating repeats


@pytest.mark.parametrize("first_repeat,every", [(250, 30), (500, 30), (660, 40), (375, 90)])
def test_a_held_lowercase_key_is_a_tap_for_each_key_it_sends(first_repeat, every):
    """A terminal cannot tell a held key from fast taps: each key it sends
    is one press, none of them held long enough to auto-repeat."""
    events = stream("up", 0, 1500, first_repeat, every)
    changes = timeline(events)
    assert len(presses(changes, UP)) == len(events)
    until = changes[-1][0] + 1000
    assert firmware_events(changes, until) == [("up", "press", 0)] * len(events)


def test_a_held_capital_back_is_one_long_press_and_a_held_b_only_short_ones():
    fw = firmware_events(timeline(stream("back", 0, 2000, long=1)), 3000)
    assert fw == [("back", "long", 0)]
    keys = stream("back", 0, 600, every=60)
    changes = timeline(keys)
    fw = firmware_events(changes, changes[-1][0] + 1000)
    assert fw == [("back", "press", 0)] * len(keys)


def test_capitals_hold_for_a_long_press_and_a_held_capital_stays_held():
    changes = timeline([("ok", 1, 0)])
    assert presses(changes, OK) == [(0, LONG_HOLD_MS)]
    assert firmware_events(changes, 2000) == [("ok", "long", 0)]
    held = stream("up", 0, 3000, long=1)  # a capital U held down
    got = presses(timeline(held), UP)
    assert got == [(0, held[-1][2] + HELD_TAIL_MS)]  # one press, from the first key to the stream's end


def test_a_tap_during_a_long_press_is_a_press_of_its_own():
    changes = timeline([("ok", 1, 0), ("ok", 0, 300)])
    assert presses(changes, OK) == [(0, LONG_HOLD_MS), (LONG_HOLD_MS + GAP_MS, LONG_HOLD_MS + GAP_MS + TAP_MS)]
    assert firmware_events(changes, 3000) == [("ok", "long", 0), ("ok", "press", 0)]


def test_different_buttons_are_independent():
    changes = timeline([("up", 0, 0), ("down", 0, 20), ("up", 0, 30)])
    # UP at 30 waits for UP at 0 to go up, DOWN is free at once
    assert presses(changes, UP) == [(0, TAP_MS), (TAP_MS + GAP_MS, 2 * TAP_MS + GAP_MS)]
    assert presses(changes, DOWN) == [(20, 20 + TAP_MS)]


def test_a_late_loop_gets_each_press_whole():
    keys = KeyButtons()
    keys.key("up", 0, 0)
    keys.key("up", 0, 200)
    assert keys.changes(500) == [(500, UP)]  # due at 0, handed out at 500: it starts now
    assert keys.next_change() == 500 + TAP_MS  # and lasts its whole TAP_MS
    # late again: the release comes now, alone, never with the next press
    assert keys.changes(10_000) == [(10_000, 0)]
    assert keys.next_change() == 10_000 + GAP_MS  # the queued tap keeps its gap
    assert keys.changes(10_000 + GAP_MS) == [(10_000 + GAP_MS, UP)]
    assert keys.changes(20_000) == [(20_000, 0)]
    assert keys.next_change() is None and keys.mask == 0


def test_time_never_runs_back_and_unknown_buttons_are_refused():
    keys = KeyButtons()
    keys.changes(1000)
    keys.key("ok", 0, 900)  # stamped before the last look: counts as 1000
    assert keys.changes(1000) == [(1000, OK)]
    with pytest.raises(ValueError, match="unknown button 'left'"):
        keys.key("left", 0, 1001)


def test_terminal_bytes_to_keys():
    assert keys_to_events(b"\x1bOA\x1bOB") == [("up", 0), ("down", 0)]  # application-mode arrows
    assert keys_to_events(b"uUq") == [("up", 0), ("up", 1), "quit"]


def test_three_up_taps_on_the_board_enter_three_more(tmp_path):
    """End to end on the headless board (virtual clock, so the taps' times
    are exact): three UP taps 350 ms apart on the bid picker, then OK."""
    b = st.new_board(tmp_path)
    try:
        st.start_two_player_moonstar(b, "1 Basic", "P1")
        b.press("ok")
        st.choose(b, "Skip")
        b.press("ok")
        st.choose(b, "P1")  # the bid picker, at the lowest bid (20)
        start = b.now
        changes = timeline([("up", 0, start + 0), ("up", 0, start + 350), ("up", 0, start + 700)])
        for t, mask in changes:
            b.advance(t - b.now)
            b.set_buttons(mask)
        b.advance(300)
        b.press("ok")
        assert st.replay(tmp_path / "flash").state["bid"] == 23
        st.no_faults(b)
    finally:
        b.kill()


# -- properties: any keys, any loop timing ------------------------------------------------

def _running_sum(gaps):
    out, t = [], 0
    for g in gaps:
        t += g
        out.append(t)
    return out


# keys in time order: (button, long, t), t the running sum of gaps of 0-700 ms
KEY_EVENTS = hs.lists(
    hs.tuples(hs.sampled_from(["up", "down", "ok", "back"]), hs.integers(0, 1), hs.integers(0, 700)),
    max_size=40,
).map(lambda evs: [(b, l, t) for (b, l, _), t in zip(evs, _running_sum([g for _b, _l, g in evs]))])


def check_presses(changes, events, on_time=True):
    """Every press of a button is at least TAP_MS long and whole, at least
    GAP_MS apart from the next, every tap key is a press of its own (a long
    key may continue the hold before it), and there are no more presses
    than keys; `on_time`: the first key of each button acts at once."""
    assert changes == sorted(changes, key=lambda c: c[0])
    assert not changes or changes[-1][1] == 0
    for name, bit in (("up", UP), ("down", DOWN), ("ok", OK), ("back", BACK)):
        got = presses(changes, bit)
        keys = [t for b, _l, t in events if b == name]
        taps = [t for b, l, t in events if b == name and not l]
        assert len(taps) <= len(got) <= len(keys)
        for down, up in got:
            assert up - down >= TAP_MS
        for (_d, up), (down, _u) in zip(got, got[1:]):
            assert down - up >= GAP_MS
        if keys:
            assert got and (got[0][0] == keys[0] or not on_time)


@settings(max_examples=300, deadline=None)
@given(KEY_EVENTS)
def test_any_keys_give_whole_presses_with_whole_gaps(events):
    check_presses(timeline(events), events)


@settings(max_examples=300, deadline=None)
@given(KEY_EVENTS, hs.lists(hs.integers(1, 400), min_size=1, max_size=200))
def test_a_loop_of_any_pace_never_gets_a_press_and_its_release_together(events, steps):
    """The live loop looks at the keys whenever it gets to run: however
    late, one look gives at most one change per button, and every press
    still lasts TAP_MS from when it was handed out."""
    keys = KeyButtons()
    changes = []
    now = 0
    pending = list(events)
    step = iter(steps * 50)
    while pending or keys.next_change() is not None:
        now += next(step, 400)
        while pending and pending[0][2] <= now:
            b, l, t = pending.pop(0)
            keys.key(b, l, t)
        got = keys.changes(now)
        mask = changes[-1][1] if changes else 0
        flipped = 0
        for _t, m in got:
            assert not (flipped & (mask ^ m)), "two changes of one button in one look"
            flipped |= mask ^ m
            mask = m
        assert all(t == now for t, _m in got)
        changes.extend(got)
    check_presses(changes, events, on_time=False)
