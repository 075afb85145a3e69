"""The board's pin-interrupt latch (boards/machine_board.PinButtons): a
press held steady DEBOUNCE_MS and released between two reads shows as the
button's tap bit in the next read, once. The pins are stand-ins (their
level and their interrupt handler); the clock is the test's. Plain test_*
functions, so the file also runs under MicroPython (test_firmware_upy.py)."""

import buttons
from boards.machine_board import PinButtons


class FakePin:
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self):
        self.level = 1  # pulled up: released
        self.handler = None
        self.trigger = 0

    def value(self):
        return self.level

    def irq(self, handler, trigger, hard=False):
        self.handler = handler
        self.trigger = trigger
        self.hard = hard


class Clock:
    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


def board():
    pins = [FakePin() for _ in range(4)]
    clock = Clock()
    return PinButtons(pins, 0, clock), pins, clock


def edge(pin, clock, level, at):
    clock.now = at
    pin.level = level
    pin.handler(pin)


def test_every_pin_interrupts_on_both_edges():
    pb, pins, clock = board()
    for p in pins:
        assert p.trigger == FakePin.IRQ_FALLING | FakePin.IRQ_RISING
        assert p.hard  # at the edge, not when the C code holding the core returns


def test_a_tap_between_reads_is_latched_once():
    pb, pins, clock = board()
    assert pb.read() == 0
    edge(pins[1], clock, 0, 100)  # DOWN pressed
    edge(pins[1], clock, 1, 130)  # released 30 ms later
    assert pb.read() == 1 << (buttons.TAP_SHIFT + 1)
    assert pb.read() == 0  # reported once


def test_a_bounce_or_glitch_shorter_than_debounce_is_no_tap():
    pb, pins, clock = board()
    edge(pins[2], clock, 0, 100)
    edge(pins[2], clock, 1, 100 + buttons.DEBOUNCE_MS - 1)
    assert pb.read() == 0
    # contact bounce: the steady part counts from the last falling edge
    edge(pins[2], clock, 0, 200)
    edge(pins[2], clock, 1, 201)
    edge(pins[2], clock, 0, 203)
    edge(pins[2], clock, 1, 203 + buttons.DEBOUNCE_MS)
    assert pb.read() == 1 << (buttons.TAP_SHIFT + 2)


def test_a_held_button_reads_as_its_level_with_no_tap():
    pb, pins, clock = board()
    edge(pins[3], clock, 0, 100)
    assert pb.read() == 1 << 3
    assert pb.read() == 1 << 3


def test_tap_across_the_tick_wrap():
    pb, pins, clock = board()
    edge(pins[0], clock, 0, (1 << 30) - 10)
    edge(pins[0], clock, 1, 20)
    assert pb.read() == 1 << buttons.TAP_SHIFT


def test_without_a_clock_no_interrupt_is_set():
    pins = [FakePin() for _ in range(4)]
    pb = PinButtons(pins, 0)
    assert all(p.handler is None for p in pins)
    pins[0].level = 0
    assert pb.read() == 1


def test_letting_go_of_a_button_held_at_power_on_is_no_tap():
    pins = [FakePin() for _ in range(4)]
    pins[3].level = 0  # BACK held while the board starts
    clock = Clock()
    pb = PinButtons(pins, 0, clock)
    assert pb.read() == 1 << 3
    edge(pins[3], clock, 1, 5000)  # let go: its press began before the board could see it
    assert pb.read() == 0


def test_an_edge_since_the_last_read_wakes_the_board():
    pb, pins, clock = board()
    pb.read()
    assert not pb.woke
    edge(pins[0], clock, 0, 100)
    assert pb.woke
    pb.read()
    assert not pb.woke


def test_every_edge_is_timestamped_for_the_debounce():
    pb, pins, clock = board()
    edge(pins[0], clock, 0, 100)
    edge(pins[0], clock, 1, 102)  # a bounce
    edge(pins[0], clock, 0, 105)
    assert pb.since[0] == 105
    assert pb.since[1] == 0  # untouched: its time from power-on
    b = buttons.Buttons(100)
    assert b.update(pb.read(), 108, pb.since) == ()
    assert b.update(pb.read(), 105 + buttons.DEBOUNCE_MS, pb.since) == ((buttons.UP, buttons.PRESS, 0),)


def test_no_clock_no_edge_times():
    pins = [FakePin() for _ in range(4)]
    assert PinButtons(pins, 0).since is None
