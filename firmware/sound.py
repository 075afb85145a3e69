"""The buzzer's part of the sand timer: a short beep as each of the last ten
seconds begins, a long tone when the time is up, nothing when sound is off.

Non-blocking: a tone is switched on and its end time noted; `update()`
switches it off later. Nothing here sleeps, so the timer and the buttons
never stall while the buzzer sounds."""

from shared_rules.ticks import const, ticks_diff

_BEEP_MS = const(70)
BEEP_HZ = const(2700)
ALARM_MS = const(1500)
ALARM_HZ = const(1800)
_CLICK_MS = const(15)
_WARN_FROM_S = const(10)


class Sound:
    def __init__(self, buzzer, enabled=True):
        self.buzzer = buzzer
        self.enabled = enabled
        self.timer = None
        self.last_shown = -1
        self.off_at = None
        self.alarms = 0  # long tones started (what a test or bench counts)
        self.beeps = 0

    def watch(self, timer):
        """Follow this SandTimer (None to stop following)."""
        self.timer = timer
        self.last_shown = timer.seconds_shown() if timer is not None else -1

    def set_enabled(self, on):
        self.enabled = on
        if not on:
            self.silence()

    def silence(self):
        if self.off_at is not None:
            self.off_at = None
            self.buzzer.off()

    def _tone(self, now, freq, ms):
        if not self.enabled:
            return
        self.buzzer.tone(freq)
        self.off_at = (now + ms) & ((1 << 30) - 1)

    def click(self, now):
        """A very short tick, e.g. when an event is confirmed."""
        if self.off_at is None:
            self._tone(now, BEEP_HZ, _CLICK_MS)

    def update(self, now):
        """Call every loop pass. Starts beeps/alarm as the watched timer's
        shown seconds fall, and ends tones whose time is over."""
        if self.off_at is not None and ticks_diff(now, self.off_at) >= 0:
            self.off_at = None
            self.buzzer.off()
        t = self.timer
        if t is None:
            return
        shown = t.seconds_shown()
        last = self.last_shown
        if shown == last:
            return
        self.last_shown = shown
        if last < 0 or shown > last:
            return  # just started, or time was added: no sound
        if shown == 0:
            self.alarms += 1
            self._tone(now, ALARM_HZ, ALARM_MS)
        elif shown <= _WARN_FROM_S:
            self.beeps += 1
            self._tone(now, BEEP_HZ, _BEEP_MS)
