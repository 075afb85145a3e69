"""The game screen, the same for every game: the game's UI module draws it
and lists the actions the rules allow now (legal()): its ACTIONS table
("move|label|key" lines, gcommon.offered), or its own actions(s) where a
table does not say it all.

OK: the main action (or a menu of the legal ones, titled by what it asks,
in a fixed order, the cursor on the game's likely answer),
whether a minute runs or waits paused; long OK: pause or resume it; short BACK: the game menu (pause/resume the timer, standings, situation,
home); long BACK: undo (handled by the app for every screen that sets
undo_ok). UP/DOWN: while a minute runs for the phase shown, add or take
10 s; in a game whose screen points at a player (its UI's pointing(s) gives
the seat to start from; OK then enters what that player did, act_on),
move the pointer; else scroll the list.

After the last event: the winner's banner, then the game-over screen
shows both ways on: OK a rematch (same players, seats rotated, options
kept), BACK Home (where the finished game stays until another starts)."""

from shared_rules.ticks import const, ticks_diff
import loader
from buttons import BACK, DOWN, LONG, OK, PRESS, UP
from ui import ui_module
from ui.base import Menu
from ui.gcommon import offered

_ADJUST_MS = const(10000)  # UP/DOWN on a running minute
# The game's work between events gets a pass whose own work so far (a
# second's redraw due, the minute's time saved, a press) took under this
# long: a slice of it (up to some 70 ms on a Pico) beside those would make
# the pass too long. The next pass comes 1 ms later.
_AHEAD_MS = const(10)
_BANNER = ("shared_rules.places", "ui.banner")  # what the winner's banner loads, leaf first


class Play:
    undo_ok = True
    long_keys = (1 << OK) | (1 << BACK)  # long OK: pause or resume; long BACK: undo
    shows_timer = True

    def __init__(self, app):
        self.app = app
        ui_module(app.session.game)  # the game's UI module loads as its screen opens
        self.seen = -1
        self.shown = -1
        self.scroll = 0
        self.cursor = None  # the seat a pointing game screen points at (None: its default)
        self.over_seen = bool(app.session.state.get("over"))
        self.asked = -1  # the event count the game's ahead() last looked at
        app.session.stop_job()  # a last game screen's (gone with a fault): its code went with that screen

    @property
    def ui(self):
        """The game's UI module (ui.ui_module), looked up by the game's
        name at each use: the `ui` package is let go and loaded again when
        the app resets its screens (App.open_game), so a reference kept
        here could outlive the package it came from."""
        return ui_module(self.app.session.game)

    def enter(self):
        self.seen = -1
        self.asked = -1  # alone again: the game's work between events may start again

    @property
    def pending(self):
        """The game's work between events while it is under way
        (Session.job), or to be asked for after an event (update): the
        loop runs the next pass at once."""
        s = self.app.session
        if s is None or s.job is not None:
            return s.job if s is not None else None
        return self if self.asked != s.changed and hasattr(self.ui, "ahead") else None

    def still(self):
        """Only a press changes this screen once its work between events
        is done (while it runs, `pending` has the loop pass at once) and
        no minute runs (App.still watches the minute for every screen)."""
        return True

    def timed(self, s):
        """The minute of the phase on screen, if one runs or waits."""
        t = s.timer
        if t is not None and s.state["phase"] == s.timer_phase:
            return t
        return None

    def button(self, b, kind, count):
        app = self.app
        s = app.session
        if s is None:
            app.home()
            return
        if (b == OK or b == BACK) and kind == PRESS and s.job is not None:
            # what these open (an entry, a menu) would load beside the
            # game's work between events: it stops, and starts again when
            # this screen is next alone (update). What it let go is not
            # among what was loaded before the screen that opens now. (A
            # long BACK is an undo, an event: Session.submit stops it.)
            s.stop_job()
            self.asked = -1
            app.before = loader.mark()
        if b == OK and kind == PRESS:
            # what the hint says, whether the minute runs or waits paused
            # (a long OK resumes it, and the paused screen says so)
            if s.state.get("over"):
                self.rematch()
                return
            self.actions()
        elif b == OK and kind == LONG:
            s.toggle_pause()
        elif b == BACK and kind == PRESS:
            if s.state.get("over"):
                app.home()  # as the game-over screen says (OK: Rematch, BACK: Home)
                return
            self.game_menu()
        elif b == UP or b == DOWN:
            t = self.timed(s)
            if t is not None:
                t.adjust(_ADJUST_MS if b == UP else -_ADJUST_MS)
                s.save_timer()
                app.sound.watch(t)
                self.shown = -1
            else:
                at = self.pointed(s)
                if at is None:
                    self.scroll = max(0, self.scroll + (-1 if b == UP else 1))
                    return
                # round the seats (a game may point at more, e.g. the Dummy's hand)
                n = self.ui.ring(s) if hasattr(self.ui, "ring") else len(s.names())
                self.cursor = (at + (-1 if b == UP else 1)) % n

    def pointed(self, s):
        """The seat the screen points at: where UP/DOWN left it, else the
        game's default (e.g. the last trick's winner); None when the game
        screen points at nobody now."""
        if not hasattr(self.ui, "pointing"):
            return None
        p = self.ui.pointing(s)
        if p is None:
            return None
        return self.cursor if self.cursor is not None else p

    def actions(self):
        app = self.app
        s = app.session
        s.entry = True  # what opens now is an entry a time-up waits for (Session.tick)
        p = self.pointed(s)
        if p is not None:
            self.ui.act_on(s, p)
            return
        if hasattr(self.ui, "actions"):
            acts = self.ui.actions(s)
        else:
            acts = offered(s.moves(), self.ui.ACTIONS)
        if not acts:
            return
        if len(acts) == 1:
            self.ui.act(s, acts[0][1])
            return

        def chosen(key):
            app.pop()
            self.ui.act(s, key)

        question = self.ui.question(s) if hasattr(self.ui, "question") else "What happened?"
        # the items keep their order; the game's likely answer (its
        # likely(s), an action's key) only moves the cursor
        want = self.ui.likely(s) if hasattr(self.ui, "likely") else None
        first = 0
        for i in range(len(acts)):
            if acts[i][1] == want:
                first = i
        app.push(Menu(app, question, acts, chosen, index=first))

    def rematch(self):
        """The same players again, seats rotated by one, options kept: the
        game-over screen's OK, as it says ("OK: Rematch")."""
        app = self.app
        h = app.session.match.header
        names = list(h["players"])
        opts = dict(h.get("options") or {})
        opts.pop("start", None)  # a rematch starts from nothing, not from paper
        app.start_game(h["game"], names[1:] + names[:1], opts)

    def game_menu(self):
        """BACK: the game menu (ui/gmenu.py, loaded when opened)."""
        from ui.gmenu import game_menu

        self.app.session.entry = False  # no entry: a minute ends on time meanwhile
        game_menu(self)

    def update(self, now):
        s = self.app.session
        if s is None:
            return False
        s.entry = False  # this screen is on top: no entry of its is open
        dirty = False
        if s.changed != self.seen:
            self.seen = s.changed
            self.cursor = None  # back to the game's own default after every event
            dirty = True
            over = bool(s.state.get("over"))
            if over and not self.over_seen:
                self.over_seen = True
                # the winner's banner, its code and the places' loaded over
                # the passes after the last event's (App.prepare): in that
                # one they took a Pico 38 ms more, past 100 ms in all
                self.app.prepare(_BANNER, self.won)
            elif not over:
                self.over_seen = False
        if s.timer is not None:
            shown = s.timer.seconds_shown() * 2 + (1 if s.timer.running else 0)
            if shown != self.shown:
                self.shown = shown
                dirty = True
        app = self.app
        if (s.job is not None or self.asked != s.changed) and len(app.stack) == 1 and app.prep is None \
                and not (dirty or app.dirty) and ticks_diff(app.board.ticks_ms(), app.pass_at) < _AHEAD_MS:
            # the game's work between events, while this screen is alone
            # (its UI's ahead(s): Moonstar solves the round's best
            # possible), asked again after each event and each press that
            # stopped it (button); in a pass with no redraw of its own
            self.asked = s.changed
            if hasattr(self.ui, "ahead"):
                self.ui.ahead(s)
        return dirty

    def won(self):
        from ui.banner import winners

        winners(self.app)

    def draw(self, d):
        s = self.app.session
        if s is None:
            return
        self.ui.draw(d, s, self)
