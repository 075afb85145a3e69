"""The device app: one loop that reads the buttons, runs the timer and the
sound, serves the PC over the serial link and redraws the screen when
something changed. Everything hardware comes from the Board (boards/).

Screens sit on a stack; the top one gets the buttons and draws. A long
press of BACK on a game screen is undo. Errors from the rules are shown as
toasts. Ctrl-C from a PC (KeyboardInterrupt) saves the timer and returns,
which on a board drops to the REPL."""

import gc
import sys

from buttons import BACK, LONG, OK, PRESS, Buttons

import loader
from shared_rules.ticks import ticks_diff
from sound import Sound
from store.layout import SETTINGS

# What the serial protocol loads, in the order it loads them (each after
# what it imports), let go after SERIAL_IDLE_MS of silence.
SERIAL_MODULES = ("shared_rules.wire_read", "names", "config", "link.hooks", "link.protocol")
LOOP_MS = 20
STILL_MS = 500  # the sleep while nothing but a button or the PC can change the panel
TOAST_MS = 3000
SERIAL_IDLE_MS = 30000  # the serial protocol is unloaded after this long without a byte
SERIAL_MS = 10  # at most this much of a loop pass goes to serving the PC
FETCH_MS = 20  # the share of a loop pass that loading ahead may take (App.fetch)
ALARM_MS = 10000  # the panel flashes in a minute's last 10 s ...
ALARM_AFTER_MS = 3000  # ... and this long after its time is up
# A pass whose work took this long leaves its drawing (a full frame: 25-50
# ms on a Pico) to the next pass, 1 ms later, which draws before its own
# work: no pass carries both, and the panel does not wait for that work.
DRAW_AFTER_MS = 50

class App:
    inverted = False  # the panel is inverted now (the visual alarm)

    def __init__(self, board):
        self.board = board
        self.d = board.display
        import startup  # dropped again once boot() is done

        self.store, self.uptime, self.journal, self.conf, self.roster = startup.load_data(board)
        now = board.ticks_ms()
        self.buttons = Buttons(now, held_at_start=board.buttons.read())
        self._since = getattr(board.buttons, "since", None)  # the pins' edge times, on a board that keeps them
        self.sound = Sound(board.buzzer, self.conf["sound"])
        self.stack = []
        # marks[i]: the modules loaded before the press that opened
        # stack[i]; popping it lets go of what came since (loader)
        self.marks = []
        self.before = loader.mark()  # refreshed at a pass's start when modules came or went
        self.base = self.before  # what the app holds whatever the screen
        self.session = None
        self.abandoned = None  # (id, scored, over) of a game set aside for a new one, until that starts (ui/menus/home.py)
        self.toast_lines = None
        self.toast_until = 0
        self.dirty = True
        self.deferred = False  # the drawing was left to the next pass (DRAW_AFTER_MS)
        self.pass_at = now  # when this loop pass began
        self.prep = None  # a screen on its way (prepare(): an Opening)
        self.running = True
        self.screen_on = True
        self.last_input = now
        self.epoch_base = None  # epoch ms at uptime 0, once a PC sets the clock
        # The serial protocol is loaded when a byte arrives and unloaded
        # after SERIAL_IDLE_MS of silence: a game at the table never pays
        # for its code.
        self.protocol = None
        self.serial_at = now
        self._byte = None  # the byte that woke the protocol, handed to it first
        self.d.contrast(self.conf["contrast"])

    # -- clock ---------------------------------------------------------------
    def ticks(self):
        return self.board.ticks_ms()

    def young(self):
        """True while this loop pass has taken under FETCH_MS: there is
        time left in it to load some code or take another step."""
        return ticks_diff(self.board.ticks_ms(), self.pass_at) < FETCH_MS

    def fetch(self, names):
        """Import the `names` not loaded yet, one at least, until FETCH_MS
        have gone (a Pico takes 10-40 ms a module); True while the caller
        should wait a pass. A name that fails to import is skipped, so a
        step (a minute's end) never waits on it."""
        ticks = self.board.ticks_ms
        t0 = ticks()
        for name in names:
            if name not in sys.modules:
                try:
                    __import__(name)
                except ImportError:
                    pass
                if ticks_diff(ticks(), t0) >= FETCH_MS:
                    return True
        return False

    def epoch(self):
        """Epoch seconds now, once a PC has set the clock this boot. From
        the monotonic uptime, which outlives the ticks' 12.4-day wrap."""
        if self.epoch_base is None:
            return None
        return (self.epoch_base + self.uptime.ms()) // 1000

    # -- screens -------------------------------------------------------------
    def push(self, screen):
        """Open `screen` over the stack; what was loaded for it since the
        press that opened it (its mark) goes when it is popped. The
        screens below keep their code meanwhile."""
        self.stack.append(screen)
        self.marks.append(self.before)  # what was loaded before this screen came
        self.dirty = True

    def prepare(self, names, then):
        """Call `then()` (which opens a screen; None: the screen on top
        draws) once the modules `names` are loaded: a share of them a loop
        pass (Opening, below), so a screen
        whose code takes 100 ms or more to load on a Pico opens over a few
        short passes instead of one long one. The screen shown meanwhile
        stays; presses meanwhile wait and go to what `then()` opened. What
        loads so goes with that screen (its mark is the one taken before
        this press)."""
        self.prep = Opening(self, names, then)
        if self.young():
            self.prep.step()  # a first share in this pass, unless its work took its time

    def replay(self, held):
        """Presses kept while a screen was on its way ((button, kind,
        count, ms) each), handed to the screen now on top, in order."""
        for b, kind, count, at in held:
            try:
                self.on_button(b, kind, count, at)
            except Exception as e:
                self.fault(e)

    def swap(self, screen):
        """`screen` in the top one's place (a form's next field): the top's
        mark stays, so what both loaded goes when this one is popped."""
        self.stack[-1] = screen
        self.dirty = True

    def pop(self, keep=(), collect=True):
        """Close the top screen and let go what it loaded, but `keep` (what
        it hands on: a solve still under way goes on in the next screen).
        `collect=False`: no collection unless code went (the caller's next
        step, an event's submit, is the pass's work; the heap collects when
        it needs the room)."""
        freed = False
        if len(self.stack) > 1:
            self.stack.pop()
            freed = self.release(self.marks.pop(), self.keep(*keep))
        self.stack[-1].enter()
        self.dirty = True
        if not freed and collect:  # (a release collects: once is enough, 8-10 ms on a Pico)
            gc.collect()

    def pop_to(self, depth):
        freed = False
        while len(self.stack) > depth and len(self.stack) > 1:
            self.stack.pop()
            freed = self.release(self.marks.pop(), self.keep()) or freed
        self.stack[-1].enter()
        self.dirty = True
        if not freed:
            gc.collect()

    def reset(self, *more):
        """An empty stack, and the code every screen loaded let go (but
        the modules named in `more`)."""
        self.stack = []
        self.marks = []
        self.prep = None
        gc.collect()
        self.release(self.base, self.keep(*more))

    def release(self, mark, keep):
        """loader.release (True when some code went), and the mark the next
        screen opened in this pass gets is what is loaded now (not what was
        let go)."""
        freed = loader.release(mark, keep)
        self.before = loader.mark()
        return freed

    def keep(self, *more):
        """What must stay loaded whatever screen goes: the game's session
        and every rules module it loaded (a game's code goes when the game
        is set aside), the serial protocol while a PC talks."""
        keep = list(more)
        if self.session is not None:
            keep.append("session")
            keep.extend(k for k in sys.modules if k.startswith("shared_rules."))
        if self.protocol is not None or self._byte is not None:  # (or it is loading: serial())
            keep.extend(SERIAL_MODULES)
        return keep

    def home(self):
        """Back to the home menu. While a game is open the stack holds only
        the game screen, so Home is built again here and the game screen's
        code is let go (the session itself stays: Home offers to resume
        it, a finished game for its standings and a rematch)."""
        if self.stack and getattr(self.stack[0], "is_home", False):
            self.pop_to(1)
            return
        self.reset()
        from ui.menus.home import Home

        self.push(Home(self))

    def toast(self, text, ms=TOAST_MS):
        from ui.base import wrap

        self.toast_lines = wrap(text, 15, 5)
        self.toast_until = (self.board.ticks_ms() + ms) & ((1 << 30) - 1)
        self.dirty = True

    # -- games ---------------------------------------------------------------
    def start_game(self, game, players, options):
        """Create the match, journal its header, open the game screen
        (start.py, loaded for it: its Starting screen loads the game's
        code a module a loop pass, starts the game and lets start.py go)."""
        import start

        start.begin(self, game, players, options)

    def open_game(self):
        """The game screen, alone on the stack: the menus' code is let go
        while a game is played (home() brings them back)."""
        self.reset()
        from ui.play import Play

        self.push(Play(self))

    def apply_settings(self):
        self.sound.set_enabled(self.conf["sound"])
        self.d.contrast(self.conf["contrast"])
        self.dirty = True

    def save_settings(self):
        self.store.write_json(SETTINGS, self.conf)
        self.apply_settings()

    # -- the loop --------------------------------------------------------------
    def boot(self):
        """Home, then the game in progress resumed from its journal, and any
        warning the data folder gave (startup.py, let go afterwards)."""
        import startup

        try:
            startup.boot(self)
        finally:
            loader.drop(("startup", "resume", "start", "config", "names", "store.recovery"))
            self.before = loader.mark()
            # the base holds only what stays: one of these loaded again later
            # (the settings' config, an undone abandon's resume) goes with
            # its screen, or at Home
            self.base = tuple(k for k in self.base if k in sys.modules)

    def run(self):
        try:
            self.boot()
            while self.running:
                self.step()
        except KeyboardInterrupt:
            pass
        self.shutdown()

    def step(self):
        board = self.board
        prep = self.prep
        if prep is None and len(self.before) != len(sys.modules):
            self.before = loader.mark()
        now = self.pass_at = board.ticks_ms()
        if self.deferred:  # the drawing the last pass left goes first, before this pass's own work
            self.deferred = False
            if self.dirty and self.screen_on and prep is None:
                self.paint()
        self.uptime.ms()  # counts a ticks wrap even on a day with no event
        buttons = self.buttons
        buttons.long_mask = getattr(self.stack[-1], "long_keys", 0)  # (Play and Starting are no Screen)
        for b, kind, count in buttons.update(board.buttons.read(), now, self._since):
            if prep is not None:  # for the screen on its way (prepare())
                prep.held.append((b, kind, count, now))
                continue
            try:
                self.on_button(b, kind, count, now)
            except Exception as e:  # a bug in a screen must not stop the timer or lose the game
                self.fault(e)
        if prep is not None:
            prep.step()
        s = self.session
        if s is not None and s.tick(now):
            self.dirty = True
        if self.stack[-1].update(now):
            self.dirty = True
        if self.toast_lines is not None and ticks_diff(now, self.toast_until) >= 0:
            self.toast_lines = None
            self.dirty = True
        self.sound.update(now)
        self.alarm(now)
        self.serial(now)
        self.check_sleep(now)
        if self.dirty and self.screen_on and self.prep is None:
            if ticks_diff(board.ticks_ms(), now) < DRAW_AFTER_MS:
                self.paint()
            else:  # drawn first thing in the next pass, 1 ms from now
                self.deferred = True
        # The sleep: a pass's LOOP_MS; 1 ms while the top screen has work
        # under way (its `pending`: a solve, a result's check, a game's
        # start), a screen's code or the serial protocol's is loading
        # (prepare(), serial()) or the drawing was left to the next pass,
        # so the next slice comes at once. While the game's minute runs on the game
        # screen with nothing else to watch (no button down, no tone, no
        # toast, no alarm near), until its shown second next changes: a
        # pass every 20 ms would find the same second. STILL_MS while
        # nothing moves at all (still()). A board sleeps less
        # when it must (one whose sleep does not end at a button's edge).
        # Never past a button's debounce: its PRESS is due then.
        ms = LOOP_MS
        s = self.session
        if (self.deferred or self.prep is not None or getattr(self.stack[-1], "pending", None) is not None
                or self.protocol is None and self._byte is not None):
            ms = 1
        elif s is not None and len(self.stack) == 1 and s.fetch_ahead():
            # The next event's code, loaded ahead while the game screen is
            # alone (a screen over it is an entry with code of its own, a
            # solve wants the room) in a pass that had nothing else
            # to do (its work under FETCH_MS so far, no button moving); a
            # busy pass is followed by a short sleep and such a pass.
            b = self.buttons
            if not (b.stable | b.raw) and self.young():
                s.fetch_ahead(True)
        elif s is not None and len(self.stack) == 1 and s.timer is not None and s.timer.running:
            b = self.buttons
            if not (self.toast_lines or self.sound.off_at is not None or b.stable | b.raw
                    or s.time_up_at is not None and ticks_diff(now, s.time_up_at) < ALARM_AFTER_MS):
                left = s.timer.remaining() - 1
                if left >= ALARM_MS + 1000:
                    ms = max(LOOP_MS, left % 1000 + 1)
        elif self.still(now):
            ms = STILL_MS
        due = self.buttons.settle_in(board.ticks_ms())
        if due is not None and due < ms:
            ms = due
        board.idle(ms)

    def still(self, now):
        """Whether nothing but a press or a byte from the PC (each of which
        ends a board's sleep) can change what the panel shows: no button
        down, no tone, toast or alarm, no minute running, nothing the
        session owes the flash, and a top screen that says it waits
        (Screen.still). On a Pico an idle pass costs about 1 ms of CPU, so
        passes 20 ms apart at Home kept the core 5-10% busy for nothing."""
        b = self.buttons
        if b.stable | b.raw or self.toast_lines is not None or self.sound.off_at is not None or self.inverted:
            return False
        s = self.session
        if s is not None and (s.timer is not None and s.timer.running or s.waiting or s.save_due or s.finish_due
                              or s.time_up_at is not None and ticks_diff(now, s.time_up_at) < ALARM_AFTER_MS):
            return False
        still = getattr(self.stack[-1], "still", None)  # (not every screen is a Screen: Play, Starting)
        return still is not None and still()

    def alarm(self, now):
        """The visual alarm, for loud tables and for when the sound is off:
        the panel flashes (inverts twice a second) in a minute's last 10 s
        and while its time is up. The timer shown is the top screen's own
        (the sand timer) or the game's."""
        top = self.stack[-1]
        t = getattr(top, "timer", None)
        if t is None and self.session is not None:
            t = self.session.timer
        on = False
        if t is not None and t.running:
            left = t.remaining()
            if left <= ALARM_MS:
                on = (left // 250) % 2 == 0  # 0 left and still running: steady
        s = self.session
        if s is not None and s.time_up_at is not None and ticks_diff(now, s.time_up_at) < ALARM_AFTER_MS:
            on = (now // 250) % 2 == 0
        if on != self.inverted and self.screen_on:
            self.inverted = on
            self.d.invert(1 if on else 0)

    def serial(self, now):
        """Serve the PC: load the protocol when a byte arrives, unload it
        after SERIAL_IDLE_MS with nothing received."""
        p = self.protocol
        if p is None:
            if self._byte is None:
                b = self.board.read_byte()
                if b is None:
                    return
                self._byte = b
                gc.collect()
            # The protocol's code, a share a loop pass (fetch()): all of
            # it in one pass took 168 ms on a Pico. The first byte waits
            # here, the rest in the link's buffer; the PC's hello is patient.
            if self.fetch(SERIAL_MODULES):
                return
            from link.hooks import Hooks
            from link.protocol import Protocol

            p = self.protocol = Protocol(self.journal, self.store, self._read_byte, self.board.write, Hooks(self))
        ticks = self.board.ticks_ms
        start = ticks()
        if not p.poll():
            if ticks_diff(now, self.serial_at) >= SERIAL_IDLE_MS:
                self.protocol = None
                loader.drop(SERIAL_MODULES)
            return
        self.serial_at = now
        # A sync sends request after request: serve the ones already waiting
        # in this pass too (poll() answers at most one frame per call), but
        # only while SERIAL_MS have not gone by since the first began, so
        # the buttons and the timer keep their pace: a request that reads
        # the journal (30-75 ms on a Pico) is the pass's last.
        while ticks_diff(ticks(), start) < SERIAL_MS and p.poll():
            pass

    def _read_byte(self):
        b = self._byte
        if b is not None:
            self._byte = None
            return b
        return self.board.read_byte()

    def on_button(self, b, kind, count, now):
        self.last_input = now
        if not self.screen_on:
            self.screen_on = True
            self.d.poweron()
            self.dirty = True
            return  # the press that wakes the screen does nothing else
        self.dirty = True
        if self.toast_lines is not None and kind == PRESS and (b == OK or b == BACK):
            self.toast_lines = None
            return
        if b == OK or b == BACK:
            self.hourglass()
        top = self.stack[-1]
        if b == BACK and kind == LONG and getattr(top, "undo_ok", False) and self.session is not None:
            if self.session.submit({"type": "undo"}):
                self.toast(self.session.undo_text(), 2000)
            return
        top.button(b, kind, count)

    def hourglass(self):
        """An hourglass in the panel's top right corner, on the panel at
        once, before an OK or a BACK is acted on; the redraw after it
        wipes it out. Why: what such a press opens or applies may first
        read its code from flash (100-250 ms on a Pico), and until this
        the panel did not show that the press had been taken. Only the
        corner's bytes go out (oled.py), under 1 ms of the bus."""
        d = self.d
        d.fill_rect(118, 0, 10, 8, 0)
        d.hline(120, 1, 7, 1)
        d.hline(120, 7, 7, 1)
        d.line(121, 2, 125, 6, 1)
        d.line(125, 2, 121, 6, 1)
        try:
            d.show()
        except OSError:  # a bus fault: the next draw sends the whole frame again (oled.py)
            pass

    def fault(self, e):
        """An unexpected error in a screen: report it (serial and toast) and
        go back to a known screen. The journal is untouched by screens."""
        sys.print_exception(e)
        if self.session is not None:
            self.open_game()
        else:
            self.home()
        self.toast("internal error: %s" % (e,))

    def check_sleep(self, now):
        minutes = self.conf["screen_off"]
        if not minutes or not self.screen_on:
            return
        s = self.session
        if s is not None and s.timer is not None and s.timer.running:
            self.last_input = now  # never sleep while sand runs
            return
        if ticks_diff(now, self.last_input) >= minutes * 60000:
            self.screen_on = False
            self.d.poweroff()

    def paint(self):
        """draw(), a fault in a screen's drawing reported (fault())."""
        try:
            self.draw()
        except Exception as e:
            self.fault(e)

    def draw(self):
        d = self.d
        d.fill(0)
        top = self.stack[-1]
        s = self.session
        txt = None
        w = 0
        paused = False
        if s is not None and s.timer is not None and not getattr(top, "shows_timer", False):
            # a small countdown on every other screen while a timer exists:
            # seconds while it runs, a pause mark before them while it waits
            secs = s.timer.seconds_shown()
            if s.waiting:  # the time is up, entered once this entry is done
                txt = "TIME UP"
                w = 8 * len(txt) + 2
            elif s.timer.running:
                txt = "%d" % secs
                w = 8 * len(txt) + 2
            else:  # m:ss from a minute up; under it the seconds, as they run
                txt = "%d:%02d" % (secs // 60, secs % 60) if secs >= 60 else "%d" % secs
                w = 8 * len(txt) + 7
                paused = True
        # the title's room: whole characters left of the countdown, one
        # column apart from it (ui.base.title_bar reads it)
        d.room = (125 - w) // 8 if w else 16
        top.draw(d)
        if txt is not None:
            d.fill_rect(128 - w, 0, w, 9, 0)
            d.text(txt, 127 - 8 * len(txt), 1, 1)
            if paused:  # the pause mark: two bars
                d.fill_rect(129 - w, 1, 2, 7, 1)
                d.fill_rect(132 - w, 1, 2, 7, 1)
        if self.toast_lines is not None:
            n = len(self.toast_lines)
            h = 9 * n + 6
            y = (64 - h) // 2
            d.fill_rect(0, y, 128, h, 0)
            d.rect(0, y, 128, h, 1)
            for i in range(n):
                d.text(self.toast_lines[i], 4, y + 4 + 9 * i, 1)
        d.show()
        self.dirty = False

    def shutdown(self):
        """Leave the display and the files in a state a restart resumes
        from. Also runs when Ctrl-C arrives a second time."""
        try:
            if self.session is not None and self.session.timer is not None:
                self.session.timer.pause()
                self.session.save_timer()
            self.sound.silence()
            self.board.buzzer.off()
            d = self.d
            d.invert(0)
            d.fill(0)
            d.text("REPL", 48, 20, 1)
            d.text("app stopped", 20, 36, 1)
            d.show()
        except BaseException:
            pass


def run(board):
    App(board).run()


class Opening:
    """A screen on its way (App.prepare): `then()` opens it once the
    modules `names` are loaded, a share of a loop pass at a time
    (App.fetch). The screen shown meanwhile stays, and presses made
    meanwhile wait for the new one."""

    def __init__(self, app, names, then):
        self.app = app
        self.names = names
        self.then = then
        self.held = []  # (button, kind, count, ms) pressed meanwhile

    def step(self):
        """A loop pass's share of the code; once all of it is loaded, the
        screen opens and gets the presses kept meanwhile."""
        app = self.app
        if app.fetch(self.names):
            return
        app.prep = None
        try:
            if self.then is not None:  # (None: the screen on top, whose code this was, draws)
                self.then()
        except Exception as e:
            app.fault(e)
        app.replay(self.held)
