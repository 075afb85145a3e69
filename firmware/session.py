"""The game in progress on the device: its Match (rules core), its journal,
and the sand timer of a timed phase.

Order of work for every event, so that a power cut can lose nothing the
players were shown: check it with the rules, append it to the journal
(written and flushed), apply it, and only then let the screen confirm it.
The timer is not part of the rules' state; its remaining time is saved in a
small file tied to the journal position, so a restart resumes it paused,
with the minutes of the phases left behind (an undo back into one finds
it as it was, after a restart too).

The rules' modules a game loads stay loaded until the game is set aside
(App.keep): on a Pico a module takes 10-40 ms to load (mostly littlefs
path lookups: bench/import_cost.py), and a game's whole rules fit the
heap's budget beside its screens (docs/device.md, the ablation)."""

import sys

from loader import drop
from shared_rules.errors import RuleError
from store.files import failure

TIMER_FILE = "timer.json"


def describe(ev, names):
    """A few words naming an event for a player ("P3 bid 34", "P2 won
    trick", "time up"): presentation only, from the event's own fields."""
    who = ev.get("player", ev.get("winner"))
    words = []
    if isinstance(who, int) and 0 <= who < len(names):
        words.append(names[who])
    kind = ev.get("type", "")
    words.append({"trick": "won trick", "time_up": "time up", "start_play": "play started",
                  "roll_for_setter": "setter roll", "choose_setter": "set up"}.get(kind, kind.replace("_", " ")))
    for k in ("amount", "points", "bid", "trump", "on"):
        if k in ev:
            words.append(str(ev[k]))
            break
    return " ".join(words)


class Session:
    def __init__(self, app, gid, match):
        self.app = app
        self.gid = gid
        self.match = match
        # What the device loads ahead for this game (firmware/rules_code.py):
        # its own lists, held here, and the module let go (it holds every
        # game's).
        import rules_code

        game = match.header["game"]
        self.ahead_by_phase = rules_code.AHEAD.get(game)  # {phase: modules}: ahead()
        self.code_by_event = rules_code.CODE.get(game, {})  # {event type: modules}: what applying it loads
        drop(("rules_code",))
        self.timer = None
        self.timer_phase = None
        self._legal = {}  # match.legal() for event number _legal_n
        self._legal_n = -1
        self._turn = None  # match.turn() for event number _turn_n
        self._turn_n = -1
        self.finish_due = False  # the game ended: close it on flash in the next pass (tick)
        self._saved_shown = -1
        self.changed = 0  # bumps on every accepted event, for screens to notice
        # What the events an undo can take back were, in a few words
        # (newest last, as deep as the rules' undo), so the undo toast can
        # name what it undid. Empty after a resume: an undo then says only
        # "Undone".
        self.done = []
        # Timers of phases left behind ({phase: snapshot}): an undo back
        # into a phase finds its minute as it was, paused. Saved with the
        # minute's time (save_timer), so a restart keeps them too.
        self.left_timers = {}
        self.save_due = False  # left_timers changed with no minute to save them: tick saves them
        self.undone = None  # what the last undo took back
        self.time_up_at = None  # tick when a minute last ran out (the app's visual alarm)
        # OK on the game screen opened an entry (Play.actions) that is
        # still on the stack: a minute running out meanwhile waits for it
        # (waiting), since a bid called in time counts; its time-up is
        # entered once the entry is confirmed or cancelled.
        self.entry = False
        self.waiting = False
        # What a game's screens remember between events (defaults for the
        # next entry, such as Moonstar's last bids): kept with the game,
        # never in a module that may be let go.
        self.notes = {}
        # Work the game screen does for the game between events while it
        # is alone on the device (Moonstar: the round's best possible,
        # solved ahead: ui/moonstar/game.py), an object with update(),
        # done() and stop(). It holds code and tables, so it is stopped
        # before an event is applied (the rules' code would load beside
        # them) and by the presses that open a screen (ui/play.py).
        self.job = None

    # -- reading ------------------------------------------------------------
    @property
    def state(self):
        return self.match.state

    @property
    def game(self):
        return self.match.header["game"]

    def names(self):
        return self.match.state["players"]

    def legal(self):
        """match.legal(), cached until the next event."""
        if self._legal_n != self.match.count:
            self._legal = self.match.legal()
            self._legal_n = self.match.count
        return self._legal

    def moves(self):
        return self.legal()["moves"]

    def turn(self):
        """match.turn(): whose turn it is as the rules say ({"leader",
        "to_act"}), cached until the next event (every redraw asks)."""
        if self._turn_n != self.match.count:
            self._turn = self.match.turn()
            self._turn_n = self.match.count
        return self._turn

    # -- changing -----------------------------------------------------------
    def submit(self, event, checked=None):
        """Check, journal, apply. Returns True when accepted; otherwise the
        rules' message is shown as a toast and nothing changes. `checked`:
        the state the rules already gave for this event on the current
        state (a result checked in slices, ui/moonstar/check.py)."""
        self.stop_job()
        app = self.app
        m = self.match
        undo = event.get("type") == "undo"
        try:
            if undo:
                if not m.can_undo():
                    raise RuleError("nothing to undo")
            elif checked is None:
                checked = m.rules.apply(m.state, event)  # raises RuleError; state untouched
        except RuleError as e:
            app.toast(str(e))
            return False
        t = app.epoch()
        if t is not None:
            event["t"] = t
        try:
            app.journal.append(event)
        except OSError as e:
            app.toast("flash write failed (%s): event not kept" % (failure(e),))
            return False
        m.apply(event, checked)
        checked = None
        self.changed += 1
        if undo:
            self.undone = self.done.pop() if self.done else None
        else:
            self.done.append(describe(event, m.state["players"]))  # a few bytes, not the event
            if len(self.done) > 10:
                self.done.pop(0)
        self.after_change(undo)
        if m.state.get("over"):
            # the game is closed on flash in the next loop pass (tick):
            # with the last event's journal write, one pass took a Pico
            # over 100 ms. A power cut between them leaves what one
            # between the two writes always could: the game still open,
            # resumed at its end.
            self.finish_due = True
        return True

    def ahead(self):
        """The code the next event likely needs: what rules_code.AHEAD
        names for the game's phase (its usual event's code). Once loaded
        it stays with the game (App.keep), so each phase's comes ahead
        once."""
        table = self.ahead_by_phase
        return table.get(self.match.state["phase"], ()) if table is not None else ()

    def fetch_ahead(self, load=False):
        """True while some of ahead() is not loaded; with `load`, load a
        share of it first (App.fetch: a loop pass's share, one module at
        least), so the pass that applies the next event finds its code
        loaded."""
        names = self.ahead()
        if load:
            self.app.fetch(names)
        for name in names:
            if name not in sys.modules:
                return True
        return False

    def stop_job(self):
        """Stop the game screen's work between events (self.job), and let
        go of its code and tables."""
        job = self.job
        if job is not None:
            self.job = None
            job.stop()

    def _finish(self):
        try:
            self.app.journal.finish(self.gid)
        except Exception as e:  # finishing is bookkeeping; the game is safe
            self.app.toast("could not close the game file: %s" % (e,))

    # -- the timer ----------------------------------------------------------
    def after_change(self, undo=False, resumed=False):
        """Start, keep or drop the timer for the phase the game is now in.
        An undo never touches the minute of the phase it stays in (time
        left, running or paused); undone back into an earlier phase, that
        phase's minute comes back as it was left, paused, after a restart
        too (the left minutes are saved with the current one's time)."""
        spec = self.moves().get("time_up")
        phase = self.state["phase"]
        old = self.timer
        snap = None
        if resumed:
            snap = self.app.store.read_json(TIMER_FILE, None)
            if snap and snap.get("game") == self.gid:
                left = snap.get("left")
                self.left_timers = left if isinstance(left, dict) else {}
            else:
                snap = None
        if old is not None and self.timer_phase != phase:
            self.left_timers[self.timer_phase] = old.snapshot()
            # no minute in the new phase saves them: the next pass does
            # (an event's pass does not carry another write)
            self.save_due = spec is None
        if spec is None:
            self.timer = None
            self.timer_phase = None
        elif old is None or self.timer_phase != phase or resumed:
            length = spec.get("seconds", 60) * 1000
            self.timer = self._sand_timer(length)
            self.timer_phase = phase
            if resumed:
                if snap and snap.get("n") == self.match.count and "left_ms" in snap:
                    self.timer.restore(snap)
            elif undo and phase in self.left_timers:
                self.timer.restore(self.left_timers[phase])
            elif not undo:
                self.timer.start()
            self.save_timer()
        elif undo:
            self.save_timer()  # same minute, now tied to the new journal position
        self.app.sound.watch(self.timer)

    def _sand_timer(self, length):
        """A new SandTimer."""
        return self.timer_code()(self.app.ticks, length)

    def timer_code(self):
        """The SandTimer class. Its module loads with the first timed phase
        (a game without one never loads it; a set-up entered on the device
        loads it a pass ahead of the minute it starts) and then stays with
        the game's rules (App.keep)."""
        from shared_rules.timer import SandTimer

        return SandTimer

    def undo_text(self):
        """What the last undo took back, for its toast: "Undone: P3 bid 34"."""
        what = self.undone
        return "Undone: " + what if what else "Undone"

    def save_timer(self):
        """Write the timer's remaining time, tied to this journal position,
        and the minutes of the phases left behind (left_timers)."""
        self.save_due = False
        t = self.timer
        left = self.left_timers
        if t is None and not left:
            return
        snap = {} if t is None else t.snapshot()
        snap["game"] = self.gid
        snap["n"] = self.match.count
        if left:
            snap["left"] = left
        if t is not None:
            self._saved_shown = t.seconds_shown()
        try:
            self.app.store.write_json(TIMER_FILE, snap)
        except OSError:
            pass  # a lost snapshot costs only precision: a resume starts paused at full length

    def toggle_pause(self):
        t = self.timer
        if t is None:
            return
        if t.running:
            t.pause()
        elif t.remaining() > 0:
            t.resume()
        self.save_timer()
        self.app.sound.watch(t)

    def tick(self, now):
        """Every loop pass: time up -> the time_up event, or, while an entry
        opened before it is on the screen, once that entry is done (the
        event it enters first); save each second. And a game that ended
        in the last pass is closed on flash (unless an undo reopened it)."""
        if self.finish_due:
            self.finish_due = False
            if self.state.get("over"):
                self._finish()
        t = self.timer
        if t is None:
            self.waiting = False
            if self.save_due:
                self.save_timer()
            return False
        if self.waiting:
            if self.entry and len(self.app.stack) > 1:
                return False
            if self.fetch_ahead():  # the time-up's code first, a share a pass (expired() below)
                self.stop_job()  # (a solve ahead would let it go again for its room)
                n = len(sys.modules)
                self.fetch_ahead(True)
                if len(sys.modules) != n:
                    return False
                # (nothing more would load: a name that does not import
                # must not hold the minute's end back)
            self.waiting = False
            if "time_up" in self.moves() and not t.running and t.remaining() == 0:
                self.submit({"type": "time_up"})
            return True
        if not t.running:
            return False
        if t.expired():
            t.pause()
            self.time_up_at = now
            # It waits for an entry opened before it, and for its own code
            # when that is not loaded (a screen over the game screen let
            # it go, and the minute ran out before the idle passes loaded
            # it back: on a Pico that time-up's pass took 104 ms): loaded
            # a share a pass, then entered in a pass of its own.
            if self.entry and len(self.app.stack) > 1 or self.fetch_ahead():
                self.waiting = True  # App.draw says so in the corner
                self.save_timer()
                return True
            self.submit({"type": "time_up"})
            return True
        shown = t.seconds_shown()
        if shown != self._saved_shown:
            self.save_timer()
            return True
        return False
