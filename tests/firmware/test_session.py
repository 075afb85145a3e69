"""The game in progress (firmware/session.py): an event is checked,
journaled, applied, and the rules' on-demand modules are unloaded again
afterwards, while the game's resident rules stay. Plain test_* functions:
they run under CPython (pytest) and MicroPython (test_firmware_upy.py).

On CPython the modules a test unloads are put back when it ends, so the
rest of the suite keeps the module objects it imported."""

import sys

from start import rules_resident
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


class App:
    """The few parts of firmware/app.App a Session uses."""

    def __init__(self, journal=None):
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
    only the game's resident rules loaded (an earlier test may have loaded
    more)."""
    names = ON_DEMAND + ("shared_rules.moonstar.solver", "shared_rules.moonstar.piles")
    drop(names)
    # and no package attribute left by a module an earlier test's Modules
    # put back without it in sys.modules (CPython's `from package import
    # name` would take that old module instead of importing it)
    import shared_rules.moonstar as pkg

    for name in names:
        if name not in sys.modules and hasattr(pkg, name.rsplit(".", 1)[1]):
            delattr(pkg, name.rsplit(".", 1)[1])
    resident = rules_resident("moonstar")
    match = Match("moonstar", ["Ann", "Bob", "Cy"], {"game": 1})
    return Session(app, "g1", match, resident)


def _bid_40(app):
    """A session whose first round stands at Ann's bid of 40."""
    s = _session(app)
    for e in ({"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]},
              {"type": "setup"}, {"type": "bid", "player": 0, "amount": 40}):
        assert s.submit(e), app.toasts
    return s


def _loaded(names):
    return [n for n in names if n in sys.modules]


def _pass_ends(s):
    """What App.step does at the end of a loop pass: the shed an event
    (or a redraw's turn()) left due."""
    if s.shed_due:
        s.shed()


def test_on_demand_rules_are_unloaded_after_each_event():
    with Modules():
        app = App()
        s = _session(app)
        resident = list(s.resident)
        assert "shared_rules.moonstar" in resident
        # legal(), which every event asks, is kept (rules_code.KEEP)
        assert "shared_rules.moonstar.allowed" in resident and "shared_rules.moonstar.limits" in resident
        # the session holds its game's lists; the lists' module, every
        # game's, is let go
        assert s.keep == KEEP["moonstar"] and s.ahead_by_phase == AHEAD["moonstar"]
        assert "rules_code" not in sys.modules
        events = [
            {"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]},
            {"type": "setup", "planets": [[0, 10], [3, 5], [6, 10], [9, 5]], "moons": [1, 2, 4, 5, 7, 8, 11],
             "dice": [1, 2, 2, 1, 1, 1, 1]},
            {"type": "bid", "player": 0, "amount": 30},
            {"type": "bid", "player": 2, "amount": 45},
        ]
        for e in events:
            assert s.submit(e), app.toasts
            assert s.moves()  # legal() was computed before the shed, and is kept
            # the shed comes at the end of the loop pass (App.step), so
            # what the pass still asks of the rules finds them loaded
            assert s.shed_due
            s.shed()
            assert not s.shed_due
            # what stays is only what the next event needs (Session.ahead:
            # the phase's code the rules name, a repeat's: after a bid, the
            # bids')
            assert all(k in s.ahead() for k in _loaded(ON_DEMAND)), (_loaded(ON_DEMAND), s.ahead())
            assert _loaded(resident) == resident
        assert "shared_rules.moonstar.bid" in s.loads["bid"] and "shared_rules.moonstar.bid" in s.ahead()
        assert _loaded(ON_DEMAND) == ["shared_rules.moonstar.bid"]
        s.shed(False)  # and a solve's start lets those go too
        assert _loaded(ON_DEMAND) == [] and _loaded(resident) == resident
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
        _pass_ends(s)
        assert _loaded(ON_DEMAND) == [k for k in ON_DEMAND if k in s.ahead()]


def test_a_failed_flash_write_keeps_the_event_out_of_the_game():
    with Modules():
        app = App(Journal(fail=True))
        s = _session(app)
        before = s.state
        assert not s.submit({"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]})
        assert "flash write failed" in app.toasts[-1]
        assert s.state is before and s.match.count == 0


def test_undo_reloads_nothing_it_does_not_need():
    with Modules():
        app = App()
        s = _bid_40(app)
        assert s.submit({"type": "undo"})
        assert s.state["bid"] == 0 and s.state["phase"] == "bidding"
        _pass_ends(s)
        assert _loaded(ON_DEMAND) == [k for k in ON_DEMAND if k in s.ahead()]
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


def test_a_bid_keeps_its_code_for_the_next_bid_and_not_past_the_minute():
    with Modules():
        app = App()
        s = _session(app)
        for e in ({"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]},
                  {"type": "setup"}, {"type": "bid", "player": 0, "amount": 40}):
            assert s.submit(e), app.toasts
            _pass_ends(s)  # as the app's loop does after each
        # a bid may follow a bid in the same minute: its code stayed
        assert "shared_rules.moonstar.bid" in s.ahead() and "shared_rules.moonstar.bid" in sys.modules
        before = set(sys.modules)
        assert s.submit({"type": "bid", "player": 1, "amount": 45})
        _pass_ends(s)
        assert [k for k in sys.modules if k not in before and k.startswith("shared_rules.")] == []
        # the minute's end changes the phase: the bids' code is not kept
        # past it, only what the rules name for the result
        assert s.submit({"type": "time_up"})
        _pass_ends(s)
        assert s.state["phase"] == "playing" and s.ahead() == AHEAD["moonstar"]["playing"]
        assert "shared_rules.moonstar.result" in s.ahead()
        assert "shared_rules.moonstar.bid" not in sys.modules
        assert all(k in s.ahead() for k in _loaded(ON_DEMAND))
        assert s.submit({"type": "undo"}) and s.state["phase"] == "bidding"
        _pass_ends(s)
        assert s.ahead() == AHEAD["moonstar"]["bidding"]  # an undo is no repeat


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
        _pass_ends(s)
        assert s.state["phase"] == "first"
        want = AHEAD["moonstar"]["first"]
        assert s.ahead() == want and s.fetch_ahead()
        # a module a pass, each on its own (the list is leaf first)
        missing = [k for k in want if k not in sys.modules]
        assert "shared_rules.moonstar.first" in missing and len(missing) >= 2
        more = True
        while more:
            before = set(sys.modules)
            more = s.fetch_ahead(Ticks())
            assert [k for k in sys.modules if k not in before] == [missing.pop(0)]
            _pass_ends(s)
        assert missing == []
        assert _loaded(want) == list(want) and not s.fetch_ahead()
        # a pass that ends with them loaded keeps them (the shed knows)
        s.shed()
        assert _loaded(want) == list(want)
        # and the roll's pass loads no rules code
        before = set(sys.modules)
        assert s.submit({"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]})
        assert [k for k in sys.modules if k not in before and k.startswith("shared_rules.")] == []
        _pass_ends(s)
        # the phase moved on: what it alone needed is let go
        assert s.state["phase"] == "setup"
        assert "shared_rules.moonstar.first" not in sys.modules
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
    s = Session(app, "g1", match, rules_resident("moonstar"))
    for e in ({"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]},
              {"type": "setup"}, {"type": "bid", "player": 0, "amount": 40}, {"type": "time_up"}):
        assert s.submit(e), app.toasts
        _pass_ends(s)
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
        _pass_ends(s)
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
    loaded (a screen over the game screen let it go): no time-up in that
    pass; the code loads a share a pass, and the time-up is entered in a
    pass that loads nothing more."""
    with Modules():
        app = App()
        s = _bid_40(app)
        _pass_ends(s)
        s.shed(ahead=False)  # as a covering screen leaves it
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
        _pass_ends(s)
        while s.fetch_ahead(Ticks()):
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
        _pass_ends(s)
        s.loads["bid"] = s.loads.get("bid", ()) + ("shared_rules.moonstar.no_such_module",)
        assert "shared_rules.moonstar.no_such_module" in s.ahead()
        app.now += 61000
        n = s.match.count
        passes = 0
        while s.match.count == n:
            s.tick(app.now)
            passes += 1
            assert passes < 6, "the time-up waits for ever"
        assert app.journal.lines[-1]["type"] == "time_up" and not s.waiting
