"""Button logic: debounce, press, long press, auto-repeat. Plain test_*
functions with asserts and no pytest import, so the same file also runs
under MicroPython (see test_firmware_upy.py)."""

import buttons
from buttons import BACK, DOWN, LONG, OK, PRESS, REPEAT, UP, Buttons


def run(b, samples, start=0, step=10):
    """Feed (mask, duration_ms) segments sampled every `step` ms; return
    [(t, button, kind, count)] of every event."""
    out = []
    t = start
    for mask, dur in samples:
        end = t + dur
        while t < end:
            for ev in b.update(mask, t & ((1 << 30) - 1)):
                out.append((t, ev[0], ev[1], ev[2]))
            t += step
    return out


def kinds(events):
    return [(e[1], e[2]) for e in events]


def test_short_press_of_ok_fires_once_on_release():
    ev = run(Buttons(), [(0, 50), (1 << OK, 100), (0, 100)])
    assert kinds(ev) == [(OK, PRESS)]
    # fires after release is debounced, not at press time
    assert ev[0][0] >= 150 + buttons.DEBOUNCE_MS


def test_up_fires_at_press_without_waiting_for_release():
    ev = run(Buttons(), [(0, 20), (1 << UP, 200), (0, 50)])
    assert kinds(ev) == [(UP, PRESS)]
    assert ev[0][0] <= 20 + buttons.DEBOUNCE_MS + 10


def test_bounce_and_glitches_are_ignored():
    # chatter shorter than the debounce time, then a clean press
    chatter = []
    for _ in range(5):
        chatter += [(1 << OK, 10), (0, 10)]
    ev = run(Buttons(), chatter + [(0, 50)], step=5)
    assert ev == []
    ev = run(Buttons(), [(1 << DOWN, 5), (0, 100)], step=5)
    assert ev == []


def test_long_back_gives_one_long_and_no_press():
    ev = run(Buttons(), [(1 << BACK, buttons.LONG_MS + 600), (0, 100)])
    assert kinds(ev) == [(BACK, LONG)]
    assert buttons.LONG_MS <= ev[0][0] <= buttons.LONG_MS + buttons.DEBOUNCE_MS + 10


def test_back_released_just_before_long_is_a_press():
    ev = run(Buttons(), [(1 << BACK, buttons.LONG_MS - 100), (0, 100)])
    assert kinds(ev) == [(BACK, PRESS)]


def test_ok_and_back_without_a_long_meaning_act_as_they_go_down():
    b = Buttons(long_mask=1 << BACK)  # a screen where only a long BACK means something
    ev = run(b, [(0, 50), (1 << OK, buttons.LONG_MS + 300), (0, 100)])
    assert kinds(ev) == [(OK, PRESS)]  # one press, no LONG while held, nothing on release
    assert ev[0][0] <= 50 + buttons.DEBOUNCE_MS + 10
    ev = run(b, [(0, 50), (1 << BACK, 100), (0, 100)])
    assert kinds(ev) == [(BACK, PRESS)]
    assert ev[0][0] >= 150 + buttons.DEBOUNCE_MS  # BACK keeps its long meaning: on release


def test_a_mask_changed_while_held_keeps_the_press_as_it_began():
    b = Buttons(long_mask=0)
    ev = run(b, [(0, 50), (1 << OK, 60)])
    assert kinds(ev) == [(OK, PRESS)]
    b.long_mask = 1 << OK  # the press opened a screen where a long OK means something
    ev = run(b, [(1 << OK, buttons.LONG_MS + 100), (0, 100)], start=110)
    assert ev == []  # the hold that chose is no long press there, nor a second press
    b = Buttons()  # the other way: begun where OK acts on release
    ev = run(b, [(0, 50), (1 << OK, 60)])
    assert ev == []
    b.long_mask = 0
    ev = run(b, [(0, 100)], start=110)
    assert kinds(ev) == [(OK, PRESS)]


def test_a_tap_between_two_samples_is_one_press_either_way():
    for mask in (0, 1 << OK):
        b = Buttons(long_mask=mask)
        assert b.update(0, 0) == ()
        assert b.update((1 << OK) << buttons.TAP_SHIFT, 100) == ((OK, PRESS, 0),)
        assert b.update(0, 200) == ()


def test_hold_repeats_and_accelerates():
    ev = run(Buttons(), [(1 << UP, 3000), (0, 50)], step=5)
    assert ev[0][2] == PRESS
    reps = [e for e in ev if e[2] == REPEAT]
    assert len(reps) > 20
    assert [e[3] for e in reps] == list(range(1, len(reps) + 1))
    first_gap = reps[1][0] - reps[0][0]
    last_gap = reps[-1][0] - reps[-2][0]
    assert reps[0][0] - ev[0][0] >= buttons.REPEAT_DELAY_MS - 10
    assert last_gap < first_gap
    assert last_gap >= buttons.REPEAT_MIN_MS
    # steps grow with the count, for crossing a wide range fast
    assert buttons.repeat_step(1) == 1 and buttons.repeat_step(30) > buttons.repeat_step(12) > 1


def test_a_slow_loop_gets_one_repeat_per_pass_not_a_burst():
    ev = run(Buttons(), [(1 << DOWN, 2000)], step=300)
    per_time = {}
    for e in ev:
        per_time[e[0]] = per_time.get(e[0], 0) + 1
    assert max(per_time.values()) == 1


def test_two_buttons_are_independent():
    ev = run(Buttons(), [(1 << UP, 100), ((1 << UP) | (1 << OK), 100), (1 << UP, 100), (0, 100)])
    assert kinds(ev) == [(UP, PRESS), (OK, PRESS)]


def test_button_held_at_power_on_is_ignored_until_released():
    b = Buttons(0, held_at_start=1 << BACK)
    ev = run(b, [(1 << BACK, 2000), (0, 100), (1 << BACK, 100), (0, 100)])
    assert kinds(ev) == [(BACK, PRESS)]
    assert ev[0][0] > 2000


def test_tick_wraparound_is_harmless():
    start = (1 << 30) - 300
    ev = run(Buttons(start), [(0, 50), (1 << BACK, 1200), (0, 100)], start=start)
    assert kinds(ev) == [(BACK, LONG)]


def test_ticks_diff_matches_wrapping_arithmetic():
    assert buttons.ticks_diff(5, (1 << 30) - 5) == 10
    assert buttons.ticks_diff((1 << 30) - 5, 5) == -10
    assert buttons.ticks_diff(100, 40) == 60


# -- taps latched by the board between two samples (bits TAP_SHIFT + b) -----------
def tap(button):
    return 1 << (buttons.TAP_SHIFT + button)


def test_a_tap_between_two_samples_is_one_press():
    # a pass of 500 ms: the tap started and ended between the two samples
    for button in (OK, BACK, UP, DOWN):
        b = Buttons()
        assert b.update(0, 0) == ()
        assert b.update(tap(button), 500) == ((button, PRESS, 0),)
        assert b.update(0, 520) == () and b.update(0, 1500) == ()  # no repeat, no long, no second press
        assert not b.pressed(button)


def test_a_tap_whose_press_was_sampled_is_not_counted_twice():
    # OK sampled down long enough to debounce, released before the next
    # sample: the sampled release gives the press, the tap bit adds nothing
    b = Buttons()
    ev = run(b, [(0, 20), (1 << OK, 40)])
    assert b.pressed(OK) and ev == []
    ev = run(b, [(tap(OK), 10), (0, 100)], start=60)
    assert kinds(ev) == [(OK, PRESS)]
    # UP: the press came at the debounced down edge; the tap adds nothing
    b = Buttons()
    ev = run(b, [(0, 20), (1 << UP, 40), (tap(UP), 10), (0, 100)])
    assert kinds(ev) == [(UP, PRESS)]


def test_a_tap_seen_down_but_not_yet_debounced_counts_once():
    # sampled down 10 ms into the press (not steady yet), released during a
    # long pass: the tap bit at the next sample makes the one press
    b = Buttons()
    assert b.update(0, 0) == ()
    assert b.update(1 << OK, 10) == ()
    assert b.update(tap(OK), 600) == ((OK, PRESS, 0),)
    assert b.update(0, 620) == () and b.update(0, 700) == ()


def test_a_tap_of_a_button_held_at_power_on_counts():
    # BACK held at power-on, then let go and tapped again within one pass
    b = Buttons(0, held_at_start=1 << BACK)
    assert b.update(1 << BACK, 10) == ()
    assert b.update(tap(BACK), 600) == ((BACK, PRESS, 0),)
    assert Buttons(0, held_at_start=tap(OK) | (1 << BACK)).raw == 1 << BACK  # a tap bit is no level


def test_a_held_at_power_on_button_tapped_then_released_gives_one_press():
    b = Buttons(0, held_at_start=1 << OK)
    assert b.update(1 << OK, 10) == ()
    ev = [b.update(tap(OK), 600)] + [b.update(0, t) for t in range(620, 900, 20)]
    assert [e for e in ev if e] == [((OK, PRESS, 0),)]


def test_an_edge_time_starts_the_debounce_at_the_finger():
    # The board timestamped UP's falling edge at 100; the loop first samples
    # it at 115: the PRESS is due at 120, not 135.
    b = Buttons()
    since = [0, 0, 0, 0]
    assert b.update(0, 90, since) == ()
    since[UP] = 100
    assert b.update(1 << UP, 115, since) == ()
    assert b.settle_in(115) == buttons.DEBOUNCE_MS - 15
    assert b.update(1 << UP, 119, since) == ()
    assert b.update(1 << UP, 120, since) == ((UP, PRESS, 0),)
    assert b.settle_in(121) is None


def test_an_edge_time_the_board_got_wrong_falls_back_to_the_sample():
    # in the future, or older than the level it would end: the sample's time
    for bad in (200, 5):
        b = Buttons(30)  # every level steady since 30
        b.update(0, 40)
        since = [0, bad, 0, 0]
        assert b.update(1 << DOWN, 150, since) == ()
        assert b.settle_in(150) == buttons.DEBOUNCE_MS
        assert b.update(1 << DOWN, 150 + buttons.DEBOUNCE_MS - 1, since) == ()
        assert b.update(1 << DOWN, 150 + buttons.DEBOUNCE_MS, since) == ((DOWN, PRESS, 0),)


def test_settle_in_names_the_soonest_moving_button_and_at_least_1_ms():
    b = Buttons()
    assert b.settle_in(0) is None
    b.update(1 << OK, 100)
    b.update((1 << OK) | (1 << BACK), 110)
    assert b.settle_in(112) == buttons.DEBOUNCE_MS - 12
    assert b.settle_in(400) == 1  # overdue: sample at once
