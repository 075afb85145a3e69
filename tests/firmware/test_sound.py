"""The timer's sounds: ten short beeps for the last ten seconds, one long
tone at time-up, silence when sound is off or the timer is paused. Plain
functions so they run under MicroPython too."""

import sound
from shared_rules.timer import SandTimer


class Clock:
    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


class Buzzer:
    def __init__(self):
        self.log = []  # (time, freq or 0)
        self.clock = None

    def tone(self, freq=None):
        self.log.append((self.clock.now, freq))

    def off(self):
        self.log.append((self.clock.now, 0))


def run_timer(length_ms, enabled=True, step=10, pause_at=None, pause_for=0):
    clock = Clock()
    bz = Buzzer()
    bz.clock = clock
    s = sound.Sound(bz, enabled)
    t = SandTimer(clock, length_ms)
    t.start()
    s.watch(t)
    end = length_ms + pause_for + 3000
    while clock.now < end:
        if pause_at is not None and clock.now == pause_at:
            t.pause()
        if pause_at is not None and clock.now == pause_at + pause_for:
            t.resume()
        s.update(clock.now)
        clock.now += step
    return s, bz


def test_ten_beeps_then_one_long_tone():
    s, bz = run_timer(15000)
    ons = [e for e in bz.log if e[1]]
    assert s.beeps == 10 and s.alarms == 1
    assert [f for _, f in ons] == [sound.BEEP_HZ] * 10 + [sound.ALARM_HZ]
    # beeps start as 10, 9, ... 1 seconds remain; the alarm at 15 s
    assert [t for t, _ in ons[:10]] == [5000 + 1000 * i for i in range(10)]
    assert ons[-1][0] == 15000
    # every tone is switched off again, after its length
    offs = [e for e in bz.log if not e[1]]
    assert len(offs) == 11
    assert offs[-1][0] - ons[-1][0] >= sound.ALARM_MS


def test_sound_off_is_silent():
    s, bz = run_timer(12000, enabled=False)
    assert bz.log == []


def test_no_beeps_while_paused_and_none_lost_after_resume():
    s, bz = run_timer(12000, pause_at=6000, pause_for=5000)
    ons = [e for e in bz.log if e[1]]
    assert s.beeps == 10 and s.alarms == 1
    assert not [e for e in ons if 6000 < e[0] < 11000]


def test_short_timer_beeps_only_for_its_seconds():
    s, bz = run_timer(3000)
    assert s.beeps == 2 and s.alarms == 1  # shown 2 and 1 beep (3 is the start), 0 alarms
