"""The app's share of a loop pass for the PC (App.serial): every request
already waiting is served in the same pass, but never for longer than
SERIAL_MS of the board's clock, so the buttons and the timer keep their
pace during a sync; an idle link unloads the protocol. Plain test_*
functions: CPython (pytest) and MicroPython (test_firmware_upy.py)."""

import app as app_module
from app import SERIAL_IDLE_MS, SERIAL_MS, App


class Clock:
    """A board clock that moves `step` ms at every reading."""

    def __init__(self, step):
        self.now = 1000
        self.step = step

    def ticks_ms(self):
        self.now += self.step
        return self.now


class Protocol:
    """Answers `waiting` frames, one per poll() (as firmware/link/protocol.py
    does), then finds nothing more."""

    def __init__(self, waiting):
        self.waiting = waiting
        self.polls = 0

    def poll(self):
        self.polls += 1
        if self.waiting:
            self.waiting -= 1
            return 40  # bytes read for one frame
        return 0


class BareApp(App):
    """The App without a board, display or flash: only what serial() reads."""

    def __init__(self, clock, proto):
        self.board = clock
        self.protocol = proto
        self.serial_at = 0


def _app(clock, proto):
    return BareApp(clock, proto)


def test_every_waiting_request_is_served_in_one_pass():
    p = Protocol(12)
    a = _app(Clock(0), p)
    a.serial(5000)
    assert p.waiting == 0 and p.polls == 13
    assert a.serial_at == 5000 and a.protocol is p


def test_a_pass_stops_serving_after_its_time_budget():
    step = 3
    p = Protocol(100)
    a = _app(Clock(step), p)
    a.serial(5000)
    served = 100 - p.waiting
    # one frame, then more only while less than SERIAL_MS has gone by
    assert 1 < served <= 1 + (SERIAL_MS + step - 1) // step, served
    assert p.waiting > 0  # the rest waits for the next pass
    before = p.waiting
    a.serial(5020)
    assert 1 < before - p.waiting <= 1 + (SERIAL_MS + step - 1) // step


class Slow(Protocol):
    """Each frame takes `ms` of the clock to answer (a request that reads
    the journal: 30-75 ms on a Pico)."""

    def __init__(self, waiting, clock, ms):
        super().__init__(waiting)
        self.clock = clock
        self.ms = ms

    def poll(self):
        if self.waiting:
            self.clock.now += self.ms
        return super().poll()


def test_a_long_request_is_the_last_its_pass_serves():
    """On a Pico two journal reads in one pass made it 135 ms: the time
    budget counts from the first request, not from its end."""
    clock = Clock(0)
    p = Slow(3, clock, SERIAL_MS + 50)
    a = _app(clock, p)
    a.serial(5000)
    assert p.polls == 1 and p.waiting == 2
    a.serial(5020)
    assert p.polls == 2 and p.waiting == 1


def test_an_idle_link_unloads_the_protocol_only_after_the_idle_time():
    p = Protocol(0)
    a = _app(Clock(0), p)
    a.serial(SERIAL_IDLE_MS - 1)
    assert a.protocol is p and p.polls == 1
    dropped = []
    real = app_module.loader.drop
    app_module.loader.drop = dropped.extend
    try:
        a.serial(SERIAL_IDLE_MS)
    finally:
        app_module.loader.drop = real
    assert a.protocol is None and dropped == list(app_module.SERIAL_MODULES)


class Link:
    """A board whose clock moves `step` ms at every reading and whose serial
    link holds `data`; what the app writes lands in `out`."""

    def __init__(self, step, data):
        self.clock = Clock(step)
        self.data = list(data)
        self.out = bytearray()
        self.info = {"id": "0123456789abcdef", "board": "test"}

    def ticks_ms(self):
        return self.clock.ticks_ms()

    def read_byte(self):
        return self.data.pop(0) if self.data else None

    def write(self, data):
        self.out.extend(data)


class NoFlash:
    """The journal and the store as a hello reads them on a board whose
    flash holds no clock yet: no boot counted, no clocks file."""

    clock = None

    def read_json(self, name, default):
        return default


class WakingApp(App):
    """The App with a board that has a link and a clock: only what
    serial() and the protocol's hello read."""

    def __init__(self, board):
        self.board = board
        self.protocol = None
        self._byte = None
        self.serial_at = 0
        self.journal = self.store = NoFlash()


def test_the_first_byte_loads_the_protocol_a_module_a_pass_and_is_answered():
    """On a Pico the protocol's code took 168 ms in the pass of the first
    byte: it now loads a share a pass (one module at least), and the first
    byte, kept meanwhile, still starts the frame the protocol answers."""
    import sys

    from shared_rules.wire import encode
    from shared_rules.wire_read import decode

    loaded = {k: sys.modules[k] for k in app_module.SERIAL_MODULES if k in sys.modules}
    for k in loaded:
        del sys.modules[k]
    try:
        frame = encode({"s": 7, "c": "hello"})
        board = Link(30, frame)  # every clock reading: 30 ms, over a pass's share
        a = WakingApp(board)
        passes = 0
        while a.protocol is None:
            a.serial(1000 + passes)
            passes += 1
            assert passes <= len(app_module.SERIAL_MODULES) + 1, passes
        # one module a pass at this clock, then a pass that makes the
        # protocol and answers: the byte waited meanwhile
        assert passes == len(app_module.SERIAL_MODULES) + 1, passes
        assert board.out.endswith(b"\n"), bytes(board.out)
        reply = decode(bytes(board.out).rstrip(b"\n"))
        assert reply.get("s") == 7 and reply.get("ok") == 1, reply
        assert reply["fw"] and reply["id"] == "0123456789abcdef", reply
    finally:  # the modules as they were: the protocol's code is let go
        app_module.loader.drop(app_module.SERIAL_MODULES)
        sys.modules.update(loaded)
