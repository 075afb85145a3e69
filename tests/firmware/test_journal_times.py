"""Times on a board without a battery clock: the boot counter (kept in
flash, bumped once per boot), ms since boot that survives the 2**30 wrap
of ticks_ms, "b"/"ms" on every journal line, and the protocol's side: a
PC setting the clock records that boot's epoch at ms 0 (the last 32
boots), `hello` reports "boot", "ms" and "clocks". Also the roster push
refusing a name twice without case. Plain test_* functions: CPython
(pytest) and MicroPython (test_journal_upy.py)."""

from store import journal
from store.journal import Journal, Uptime
from store.recovery import count_boot
from link.protocol import KEEP_CLOCKS, Protocol
from store.files import Store
from store.layout import BOOT, CLOCKS, ROSTER
from shared_rules.wire import encode
from shared_rules.wire_read import decode
from test_journal_kit import HEADER, Folder, Ticks, read, write

T = 1767258000  # 2026-01-01 09:00


def test_ms_keeps_growing_across_the_ticks_wrap():
    ticks = Ticks((1 << 30) - 500)
    up = Uptime(ticks, 3)
    assert up.ms() == 0
    ticks.now += 400
    assert up.ms() == 400
    ticks.now += 300  # ticks_ms wrapped to 200
    assert ticks() == 200 and up.ms() == 700
    for _ in range(3):  # three more wraps, each seen
        ticks.now += (1 << 30) - 1
        up.ms()
    assert up.ms() == 700 + 3 * ((1 << 30) - 1)


def test_boot_counter_counts_each_boot_atomically():
    with Folder() as root:
        st = Store(root)
        assert [count_boot(st) for _ in range(3)] == [1, 2, 3]
        assert st.read_json(BOOT) == 3
        # A power cut left a half-written tmp next to the counter: ignored.
        write(st.path(BOOT) + ".tmp", b'{"v":99')
        assert count_boot(Store(root)) == 4
        # A damaged counter never goes below a boot the clocks file knows.
        write(st.path(BOOT), b"garbage\n")
        st.write_json(CLOCKS, {"7": T * 1000, "12": T * 1000})
        st2 = Store(root)
        assert count_boot(st2) == 13
        assert any("boot.json is damaged" in w for w in st2.warnings)


def test_every_line_records_boot_and_ms():
    with Folder() as root:
        ticks = Ticks(1000)
        st = Store(root)
        j = Journal(st, Uptime(ticks, count_boot(st)))
        ticks.now += 250
        gid = j.new_game(HEADER)
        ticks.now += 1500
        ev = {"type": "x", "t": T}
        j.append(ev)
        assert ev["b"] == 1 and ev["ms"] == 1750  # the caller's event carries them too
        lines = [decode(x) for x in read(j.path(gid)).splitlines()]
        assert lines[0]["b"] == 1 and lines[0]["ms"] == 250 and lines[0]["id"] == gid
        assert lines[1] == {"type": "x", "t": T, "b": 1, "ms": 1750}
        assert "b" not in HEADER  # the caller's header is copied, not changed
        # Next boot: a new number, ms from 0 again.
        ticks2 = Ticks(5)
        j2 = Journal(Store(root), Uptime(ticks2, count_boot(Store(root))))
        ticks2.now += 40
        j2.append({"type": "y"})
        assert decode(read(j.path(gid)).splitlines()[2]) == {"type": "y", "b": 2, "ms": 40}
        # A boot that could not be counted writes no "b"/"ms" (never a guess).
        j3 = Journal(Store(root), Uptime(ticks2, None))
        j3.append({"type": "z"})
        assert decode(read(j.path(gid)).splitlines()[3]) == {"type": "z"}


class Hooks:
    def __init__(self):
        self.calls = []

    def set_clock(self, t):
        self.calls.append(("clock", t))

    def roster_changed(self, names):
        self.calls.append(("roster", names))

    def settings_changed(self, settings):
        self.calls.append(("settings", settings))

    def exit_to_repl(self):
        self.calls.append(("repl", None))

    def device_info(self):
        return {"id": "dev-t", "fw": "test"}


class Link:
    """The protocol on a folder, fed requests in memory."""

    def __init__(self, root, ticks, boot=None):
        self.store = Store(root)
        self.clock = Uptime(ticks, boot if boot is not None else count_boot(self.store))
        self.journal = Journal(self.store, self.clock)
        self.hooks = Hooks()
        self.inbox = b""
        self.at = 0
        self.out = []
        self.proto = Protocol(self.journal, self.store, self._read, self.out.append, self.hooks)
        self.seq = 0

    def _read(self):
        if self.at >= len(self.inbox):
            return None
        self.at += 1
        return self.inbox[self.at - 1]

    def ask(self, cmd, **fields):
        self.seq += 1
        req = {"s": self.seq, "c": cmd}
        for k in fields:
            req[k] = fields[k]
        self.inbox = encode(req)
        self.at = 0
        for _ in range(4):  # one frame: answered by the first poll
            self.proto.poll(512)
        assert self.at == len(self.inbox) and len(self.out) == 1, self.out
        reply = decode(self.out.pop())
        assert reply["s"] == self.seq
        return reply


def test_the_clock_is_recorded_per_boot_and_hello_reports_it():
    with Folder() as root:
        ticks = Ticks(100)
        link = Link(root, ticks)
        hello = link.ask("hello")
        assert hello["boot"] == 1 and hello["ms"] == 0 and hello["clocks"] == {}
        ticks.now += 61000  # the game was played a minute before the sync
        assert link.ask("clock", t=T)["ok"] == 1
        assert link.hooks.calls == [("clock", T)]
        assert Store(root).read_json(CLOCKS) == {"1": T * 1000 - 61000}
        ticks.now += 2500
        hello = link.ask("hello")
        assert hello["boot"] == 1 and hello["ms"] == 63500 and hello["clocks"] == {"1": T * 1000 - 61000}
        # The same clock again (every sync sets it): no new value.
        link.ask("clock", t=T + 2)
        assert Store(root).read_json(CLOCKS) == {"1": T * 1000 - 61000}


def test_the_clocks_file_keeps_the_last_32_boots():
    with Folder() as root:
        for boot in range(1, KEEP_CLOCKS + 6):
            ticks = Ticks(0)
            link = Link(root, ticks)
            assert link.clock.boot == boot
            ticks.now += 1000
            link.ask("clock", t=T + boot * 3600)
        clocks = link.ask("hello")["clocks"]
        assert len(clocks) == KEEP_CLOCKS
        assert sorted(int(k) for k in clocks) == list(range(6, KEEP_CLOCKS + 6))
        assert clocks[str(KEEP_CLOCKS + 5)] == (T + (KEEP_CLOCKS + 5) * 3600) * 1000 - 1000


def test_a_roster_with_a_name_twice_is_refused_and_nothing_changes():
    with Folder() as root:
        link = Link(root, Ticks(0))
        assert link.ask("roster", i=0, names=["Ann", "Bob"], end=True)["ok"] == 1
        before = read(link.store.path(ROSTER))
        calls = len(link.hooks.calls)
        for parts in ([["Cy", "cY"]], [["Cy"], ["Dee", "CY"]], [["Ann", "Bob"], ["Eve", "bob"]]):
            i = 0
            reply = None
            for k in range(len(parts)):
                reply = link.ask("roster", i=i, names=parts[k], end=k == len(parts) - 1)
                i += len(parts[k])
            assert reply["e"] == "name" and "twice" in reply["m"] and "without case" in reply["m"], reply
            assert read(link.store.path(ROSTER)) == before
            assert len(link.hooks.calls) == calls
        # After a refusal a part that does not start at 0 is refused too.
        assert link.ask("roster", i=1, names=["Zed"], end=True)["e"] == "arg"
        assert link.ask("roster", i=0, names=["Cy", "Dee"], end=True)["ok"] == 1
        assert Store(root).read_json(ROSTER) == ["Cy", "Dee"]
