from _support import FakeClock
from shared_rules.ticks import TICKS_PERIOD, ticks_add, ticks_diff
from shared_rules.timer import SandTimer


def test_ticks_arithmetic_wraps_like_micropython():
    assert ticks_add(TICKS_PERIOD - 10, 25) == 15
    assert ticks_diff(15, TICKS_PERIOD - 10) == 25
    assert ticks_diff(TICKS_PERIOD - 10, 15) == -25
    assert ticks_diff(100, 40) == 60


def test_countdown_runs_from_a_deadline():
    clock = FakeClock(1000)
    t = SandTimer(clock, 60000)
    t.start()
    clock.advance(59001)
    assert t.remaining() == 999
    assert t.seconds_shown() == 1
    clock.advance(5000)
    assert t.remaining() == 0 and t.expired()


def test_timer_is_correct_across_the_tick_wrap():
    clock = FakeClock(TICKS_PERIOD - 30000)
    t = SandTimer(clock, 60000)
    t.start()
    clock.advance(45000)  # wraps past 2**30
    assert clock.now < 30000
    assert t.remaining() == 15000


def test_pause_resume_and_adjust():
    clock = FakeClock()
    t = SandTimer(clock, 60000)
    t.start()
    clock.advance(10000)
    t.pause()
    clock.advance(30000)  # paused time does not count
    assert t.remaining() == 50000
    t.adjust(5000)
    assert t.remaining() == 55000
    t.resume()
    clock.advance(1000)
    assert t.remaining() == 54000
    t.adjust(-60000)
    assert t.remaining() == 0


def test_no_drift_with_jittery_polling():
    clock = FakeClock(123)
    t = SandTimer(clock, 60000)
    t.start()
    steps = [37, 99, 1, 64, 88, 100, 3]
    elapsed = 0
    i = 0
    while not t.expired():
        d = steps[i % len(steps)]
        clock.advance(d)
        elapsed += d
        i += 1
    # The alarm is seen within one poll of the true deadline.
    assert 60000 <= elapsed < 60000 + 100


def test_snapshot_restores_paused_with_time_left():
    clock = FakeClock()
    t = SandTimer(clock, 60000)
    t.start()
    clock.advance(12345)
    snap = t.snapshot()
    t2 = SandTimer(clock, 1)
    t2.restore(snap)
    assert not t2.running
    clock.advance(99999)
    assert t2.remaining() == 60000 - 12345
