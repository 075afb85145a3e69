"""The game in progress (firmware/session.py): an event is checked,
journaled and applied, and the rules' code it loads stays with the game
(the next phase's comes ahead, a module a pass). Plain test_* functions:
they run under CPython (pytest) and MicroPython (test_firmware_upy.py).

On CPython the modules a test unloads are put back when it ends, so the
rest of the suite keeps the module objects it imported."""

import sys

from app import App as Device
from loader import drop
from rules_code import AHEAD, KEEP
from session import Session
from shared_rules.match import Match

ON_DEMAND = ("shared_rules.moonstar.first", "shared_rules.moonstar.setup", "shared_rules.moonstar.bid",
             "shared_rules.moonstar.board",
             "shared_rules.moonstar.opts")  # the variants' tables: new() loads them, the game does not keep them


class Journal:
    def __init__(self, fail=False):
        self.lines = []
        self.fail = fail

    def append(self, event):
        if self.fail:
            raise OSError(28, "no space left")
        self.lines.append(dict(event))

    def finish(self, gid):
        pass


class Store:
    def __init__(self):
        self.files = {}

    def read_json(self, name, default):
        return self.files.get(name, default)

    def write_json(self, name, value):
        self.files[name] = value


class Sound:
    def watch(self, timer):
        pass


class Board:
    """The board's clock, as App.fetch reads it: still, unless a test sets
    Ticks."""

    def __init__(self):
        self.ticks_ms = lambda: 0


class App:
    """The few parts of firmware/app.App a Session uses (its fetch() the
    real one)."""

    fetch = Device.fetch

    def __init__(self, journal=None):
        self.board = Board()
        self.journal = journal or Journal()
        self.store = Store()
        self.sound = Sound()
        self.toasts = []
        self.now = 0

    def ticks(self):
        return self.now

    def epoch(self):
        return None

    def toast(self, text, ms=0):
        self.toasts.append(text)


class Modules:
    """Saves sys.modules (and the shared_rules package's attributes) and
    puts them back, so unloading here never leaks into other tests."""

    def __enter__(self):
        import shared_rules

        self.pkg = shared_rules
        self.mods = dict(sys.modules) if hasattr(sys.modules, "items") else None
        self.attrs = dict(shared_rules.__dict__)
        return self

    def __exit__(self, *exc):
        if self.mods is not None:
            for k in list(sys.modules):
                if k not in self.mods:
                    del sys.modules[k]
            for k in self.mods:
                sys.modules[k] = self.mods[k]
            for k in self.attrs:
                try:
                    setattr(self.pkg, k, self.attrs[k])
                except (AttributeError, TypeError):
                    pass
        return False


def _session(app):
    """A fresh 3-player Moonstar session, made as the app makes one: with
    none of the phases' code loaded (an earlier test may have loaded it)."""
    names = ON_DEMAND + ("shared_rules.moonstar.solver", "shared_rules.moonstar.piles")
    drop(names)
    # and no package attribute left by a module an earlier test's Modules
    # put back without it in sys.modules (CPython's `from package import
    # name` would take that old module instead of importing it)
    import shared_rules.moonstar as pkg

    for name in names:
        if name not in sys.modules and hasattr(pkg, name.rsplit(".", 1)[1]):
            delattr(pkg, name.rsplit(".", 1)[1])
    for name in ("shared_rules.moonstar",) + KEEP["moonstar"]:  # what a start loads with the rules
        __import__(name)
    match = Match("moonstar", ["Ann", "Bob", "Cy"], {"game": 1})
    return Session(app, "g1", match)


def _bid_40(app):
    """A session whose first round stands at Ann's bid of 40."""
    s = _session(app)
    for e in ({"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]},
              {"type": "setup"}, {"type": "bid", "player": 0, "amount": 40}):
        assert s.submit(e), app.toasts
    return s


def _loaded(names):
    return [n for n in names if n in sys.modules]


def _rules_loaded():
    return [k for k in sys.modules if k.startswith("shared_rules.")]


def test_the_rules_code_an_event_loads_stays_with_the_game():
    with Modules():
        app = App()
        s = _session(app)
        # the session holds its game's lists; the lists' module, every
        # game's, is let go
        assert s.ahead_by_phase == AHEAD["moonstar"]
        assert "rules_code" not in sys.modules
        events = [
            {"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]},
            {"type": "setup", "planets": [[0, 10], [3, 5], [6, 10], [9, 5]], "moons": [1, 2, 4, 5, 7, 8, 11],
             "dice": [1, 2, 2, 1, 1, 1, 1]},
            {"type": "bid", "player": 0, "amount": 30},
            {"type": "bid", "player": 2, "amount": 45},
        ]
        loaded = _rules_loaded()
        for e in events:
            assert s.submit(e), app.toasts
            assert s.moves()
            now = _rules_loaded()
            assert [k for k in loaded if k not in now] == []  # nothing the game loaded went
            loaded = now
        assert "shared_rules.moonstar.setup" in loaded and "shared_rules.moonstar.bid" in loaded
        assert app.journal.lines == events
        assert s.state["bid"] == 45 and s.state["bidder"] == 2
        assert s.timer is not None and s.timer_phase == "bidding"


def test_a_refused_event_is_not_journaled_and_changes_nothing():
    with Modules():
        app = App()
        s = _bid_40(app)
        before = s.state
        assert not s.submit({"type": "bid", "player": 1, "amount": 35})
        assert "35" in app.toasts[-1], app.toasts
        assert s.state is before and len(app.journal.lines) == 3


def test_a_failed_flash_write_keeps_the_event_out_of_the_game():
    with Modules():
        app = App(Journal(fail=True))
        s = _session(app)
        before = s.state
        assert not s.submit({"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]})
        assert "flash write failed" in app.toasts[-1]
        assert s.state is before and s.match.count == 0


def test_undo_lets_none_of_the_games_code_go():
    with Modules():
        app = App()
        s = _bid_40(app)
        loaded = _rules_loaded()
        assert s.submit({"type": "undo"})
        assert s.state["bid"] == 0 and s.state["phase"] == "bidding"
        now = _rules_loaded()
        assert [k for k in loaded if k not in now] == []
        assert s.submit({"type": "bid", "player": 1, "amount": 50})
        assert s.state["bid"] == 50


def test_undo_leaves_the_running_minute_alone():
    with Modules():
        app = App()
        s = _bid_40(app)
        t = s.timer
        assert t is not None and t.running
        app.now = 16000  # 44 s left
        assert s.submit({"type": "bid", "player": 1, "amount": 45})
        app.now = 17000
        assert s.submit({"type": "undo"})
        assert s.timer is t and t.running and t.remaining() == 43000
        assert s.undo_text() == "Undone: Bob bid 45"
        assert s.state["bid"] == 40


def test_undo_keeps_a_paused_minute_paused():
    with Modules():
        app = App()
        s = _bid_40(app)
        app.now = 20000
        s.toggle_pause()
        assert s.submit({"type": "bid", "player": 2, "amount": 41})
        app.now = 30000
        assert s.submit({"type": "undo"})
        assert not s.timer.running and s.timer.remaining() == 40000
        assert s.undo_text() == "Undone: Cy bid 41"


def test_undo_back_into_the_bidding_finds_its_minute_as_it_was_left():
    with Modules():
        app = App()
        s = _bid_40(app)
        app.now = 25000
        assert s.submit({"type": "time_up"})
        assert s.state["phase"] != "bidding"
        assert s.submit({"type": "undo"})
        assert s.state["phase"] == "bidding"
        # the minute comes back with the 35 s it had, paused: nobody loses time
        assert s.timer is not None and not s.timer.running and s.timer.remaining() == 35000
        assert s.undo_text() == "Undone: time up"


def test_undo_after_a_resume_says_only_undone():
    with Modules():
        app = App()
        s = _bid_40(app)
        s.done = []  # what a resumed session knows of the events before it
        assert s.submit({"type": "undo"})
        assert s.undo_text() == "Undone"


def test_a_bid_loads_no_code_for_the_next_bid_and_the_phase_after_names_its_own():
    with Modules():
        app = App()
        s = _bid_40(app)
        before = set(sys.modules)
        assert s.submit({"type": "bid", "player": 1, "amount": 45})
        assert [k for k in sys.modules if k not in before and k.startswith("shared_rules.")] == []
        # the minute's end changes the phase: what comes ahead is what the
        # rules name for the result; the bids' code stays with the game
        assert s.submit({"type": "time_up"})
        assert s.state["phase"] == "playing" and s.ahead() == AHEAD["moonstar"]["playing"]
        assert "shared_rules.moonstar.result" in s.ahead()
        assert "shared_rules.moonstar.bid" in sys.modules
        assert s.submit({"type": "undo"}) and s.state["phase"] == "bidding"
        assert s.ahead() == AHEAD["moonstar"]["bidding"]


class Ticks:
    """A board's clock that moves 25 ms each time it is read (a module's
    load on a Pico, give or take): each fetch loads one module."""

    def __init__(self):
        self.t = 0

    def __call__(self):
        self.t += 25
        return self.t


def test_the_next_events_code_is_loaded_ahead_over_passes_and_then_found():
    with Modules():
        app = App()
        s = _session(app)
        assert s.state["phase"] == "first"
        want = AHEAD["moonstar"]["first"]
        assert s.ahead() == want and s.fetch_ahead()
        # a module a pass, each on its own (the list is leaf first)
        missing = [k for k in want if k not in sys.modules]
        assert "shared_rules.moonstar.first" in missing and len(missing) >= 2
        more = True
        app.board.ticks_ms = Ticks()
        while more:
            before = set(sys.modules)
            more = s.fetch_ahead(True)
            assert [k for k in sys.modules if k not in before] == [missing.pop(0)]
        assert missing == []
        assert _loaded(want) == list(want) and not s.fetch_ahead()
        # and the roll's pass loads no rules code
        before = set(sys.modules)
        assert s.submit({"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]})
        assert [k for k in sys.modules if k not in before and k.startswith("shared_rules.")] == []
        # the phase moved on: its code stays with the game
        assert s.state["phase"] == "setup"
        assert "shared_rules.moonstar.first" in sys.modules
        assert s.ahead() == AHEAD["moonstar"]["setup"]


class Closing(Journal):
    """A journal that counts the games closed (Journal.finish)."""

    def __init__(self):
        super().__init__()
        self.closed = []

    def finish(self, gid):
        self.closed.append(gid)


def _last_round(app):
    """A session whose next result ends the game: Ann starts at 190 of
    Game 1's 200, bids 40 and the bidding minute is over."""
    drop(ON_DEMAND)
    match = Match("moonstar", ["Ann", "Bob", "Cy"], {"game": 1, "start": [190, 0, 0]})
    s = Session(app, "g1", match)
    for e in ({"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]},
              {"type": "setup"}, {"type": "bid", "player": 0, "amount": 40}, {"type": "time_up"}):
        assert s.submit(e), app.toasts
    return s


def test_a_game_that_ends_is_closed_on_flash_in_the_next_pass():
    """The last event's pass journals it; the game is closed (the index's
    write) in the pass after (Session.tick), so one pass does not carry
    both writes."""
    with Modules():
        app = App(Closing())
        s = _last_round(app)
        assert s.submit({"type": "result", "points": 40}), app.toasts
        assert s.state["over"] and app.journal.closed == []
        s.tick(app.now)
        assert app.journal.closed == ["g1"]
        s.tick(app.now)
        assert app.journal.closed == ["g1"]  # once


def test_an_undo_before_the_next_pass_leaves_the_game_open():
    with Modules():
        app = App(Closing())
        s = _last_round(app)
        assert s.submit({"type": "result", "points": 40}), app.toasts
        assert s.submit({"type": "undo"}), app.toasts  # (a long BACK read before the pass's tick)
        assert not s.state["over"]
        s.tick(app.now)
        assert app.journal.closed == []


def test_a_minute_that_runs_out_before_its_code_is_back_waits_for_it():
    """The bidding minute runs out while the code its end needs is not
    loaded (let go here by the test: as when the minute began with a
    screen over the game screen and stayed so, with no bid): no time-up in that
    pass; the code loads a share a pass, and the time-up is entered in a
    pass that loads nothing more."""
    with Modules():
        app = App()
        s = _bid_40(app)
        drop(AHEAD["moonstar"]["bidding"])
        assert s.fetch_ahead() and s.timer.running
        app.now += 61000
        n = s.match.count
        assert s.tick(app.now) and s.waiting and s.match.count == n
        passes = 0
        while s.match.count == n:
            before = set(sys.modules)
            s.tick(app.now)
            passes += 1
            assert passes < 10
            if s.match.count == n:
                assert s.waiting
            else:  # the pass that entered it loaded none of its code
                assert [k for k in sys.modules if k not in before and k in AHEAD["moonstar"]["bidding"]] == []
        assert passes >= 2 and not s.waiting
        assert app.journal.lines[-1]["type"] == "time_up" and s.state["phase"] == "playing"


def test_a_minute_that_runs_out_with_its_code_loaded_ends_in_that_pass():
    with Modules():
        app = App()
        s = _bid_40(app)
        app.board.ticks_ms = Ticks()
        while s.fetch_ahead(True):
            pass
        app.now += 61000
        n = s.match.count
        assert s.timer.running
        assert s.tick(app.now) and s.match.count == n + 1 and not s.waiting
        assert app.journal.lines[-1]["type"] == "time_up" and s.state["phase"] == "playing"


def test_a_minutes_end_is_not_held_back_by_code_that_does_not_load():
    with Modules():
        app = App()
        s = _bid_40(app)
        s.ahead_by_phase = dict(s.ahead_by_phase)
        s.ahead_by_phase["bidding"] = s.ahead_by_phase["bidding"] + ("shared_rules.moonstar.no_such_module",)
        assert "shared_rules.moonstar.no_such_module" in s.ahead()
        app.now += 61000
        n = s.match.count
        passes = 0
        while s.match.count == n:
            s.tick(app.now)
            passes += 1
            assert passes < 6, "the time-up waits for ever"
        assert app.journal.lines[-1]["type"] == "time_up" and not s.waiting
