"""Starting a game: close the one left behind, make the match, journal its
header, open the game screen. Once a game, so the app loads it for the
start and lets it go after (App.start_game).

A start takes a few loop passes (begin(), then the Starting screen): on a
Pico each module takes 10-40 ms to load (bench/import_cost.py), so the
code a start needs comes one module a pass, the buttons and the link
going on meanwhile, and only the rest loads in the pass that starts it."""

import gc

import loader
import shared_rules
from shared_rules.errors import RuleError


def begin(app, game, players, options):
    """A start's first pass: the menus that asked for it (or the finished
    game before a rematch) are let go first, so the new game's code and
    rules have the heap; then the Starting screen loads that code and
    starts the game (start())."""
    # the game left behind (finished, or abandoned from Home): closed when
    # this one starts, and not kept at all if no round of it was scored
    old = app.session
    drop = None
    if old is not None:
        if not old.state.get("round"):
            drop = old.gid
        if old.state.get("over"):
            app.session = None
    elif app.abandoned is not None and not app.abandoned[1]:
        drop = app.abandoned[0]
    old = None
    app.reset("start")
    app.push(Starting(app, (game, players, options, drop)))


# What every game's start loads besides its own (the players' checks),
# fetched ahead with the game's rules_code.NEW.
NEW = ("shared_rules.names", "shared_rules.players")


class Starting:
    """The screen of a start under way: it shows, and its next loop pass
    asks the flash's free space (nearly full: the pass after deletes synced
    games, and refuses the start if that is not enough, before any of its
    code loads); each pass after loads some of the code of
    the match, the game's rules, the session (and rules_code, the lists
    of what a game keeps and loads ahead, which the session takes its
    game's of) and the game screen (App.fetch: a share of a pass); then
    what the device keeps for the game (rules_code.KEEP); then what
    making a new game loads (rules_code.NEW, and the players' checks),
    which goes again after the start; then start()'s steps run, one a
    pass. Presses meanwhile are kept, and go to the game screen once it
    is open. An error is the app's fault() as it was in the press that
    started the game."""

    def __init__(self, app, args):
        from ui import GAMES  # (the ui package is loaded again as the app resets: App.reset)

        game = args[0]
        self.app = app
        self.args = args
        # What the rules modules import as they load comes first, so the
        # game's own import starts a pass: on an emulated Pico Shoot the
        # Moon's (with its tricks) took 62 ms of a 68 ms pass; after the
        # match's, with these inside it, 91 ms of a 111 ms pass
        # (bench/long_passes.py).
        names = ["shared_rules.dispatch", "shared_rules.util", "shared_rules.places", shared_rules._MODULES.get(game),
                 "shared_rules.match", "session", "rules_code", "ui.play", dict(GAMES).get(game)]
        self.names = tuple(n for n in names if n)
        self.held = []  # (button, kind, count, now) pressed meanwhile
        self.passes = 0
        self.before = loader.mark()  # the modules loaded before the first of them
        self.stage = 0  # 0: the code above; 1: the game's KEEP; 2: a new game's (NEW)
        self.fresh = None  # the modules loaded only to make the new game (stage 2)
        self.mark = None  # the modules loaded before those (loader.mark)
        self.low = None  # the flash nearly full (the second pass asks, the third deletes synced games)
        self.steps = None  # start()'s steps, once its code is loaded
        self.got = None  # the modules loaded for the start (the game's, once it is open)

    @property
    def pending(self):
        """The start under way: the loop runs the next pass at once."""
        return self

    def enter(self):
        pass

    def button(self, b, kind, count):
        self.held.append((b, kind, count, self.app.board.ticks_ms()))

    def update(self, now):
        app = self.app
        if self.low is None:
            # the flash's free space, in a pass of its own unless this one
            # (the press that began the start) is young: statvfs walks
            # littlefs (some 45 ms on a Pico), and nothing is written
            # before the start
            if not app.young():
                return True
            self.low = app.journal.space_low()
            self.passes += 1
            return True
        if self.low:
            self.low = False
            try:
                app.journal.reclaim()
            except OSError:  # nothing to reclaim on a flash too full for the journal's folder
                pass
            if app.journal.space_low():
                app.home()
                app.toast("Flash is almost full: delete synced games (Games menu) first")
                return self._end()
            self.passes += 1
            return True
        if self.steps is None:
            if app.fetch(self.names) or self._next():
                self.passes += 1
                return True
            # what was loaded for the start (those modules and what they
            # import) is the game's now: the game screen's opening
            # (App.open_game) must not let it go, nor load it a second time
            before = self.before
            self.got = tuple(k for k in loader.mark() if k not in before)
            game, players, options, drop = self.args
            self.steps = start(app, game, players, options, drop, self.fresh)
        base = app.base
        got = self.got
        app.base = base + got
        going = True
        try:
            # start()'s steps while this pass is young (on a Pico: one)
            while app.young():
                next(self.steps)  # (a Pico's next() takes no default)
        except StopIteration:
            going = False
        except Exception as e:  # as for a button: a bug must not stop the device
            going = False
            app.fault(e)
        finally:
            app.base = base
        if going:
            self.passes += 1
            return True
        return self._end()

    def _end(self):
        """The start is over, the game screen open or Home: presses held
        meanwhile go to it."""
        app = self.app
        loader.drop(("start",))
        app.before = loader.mark()
        held = self.held
        self.held = []
        app.replay(held)
        return True

    def _next(self):
        """The next stage's modules to fetch once a stage's are loaded:
        True while there is one (its loading is the next passes' work)."""
        if self.stage == 2:
            before = self.mark or ()
            self.fresh = tuple(k for k in loader.mark() if k not in before)
            return False
        import rules_code

        game = self.args[0]
        if self.stage == 0:
            self.names = rules_code.KEEP.get(game, ())
        else:
            self.mark = loader.mark()
            self.names = NEW + rules_code.NEW.get(game, ())
        self.stage += 1
        return True

    def draw(self, d):
        d.text("Starting" + "." * (self.passes % 4), 28, 28, 1)


def start(app, game, players, options, drop, fresh):
    """Start a game (begin() closed the one before: `drop`, the id of a
    game to delete once this one is journaled): the rules make and check
    the match, the journal gets its header, the game screen opens. A start
    the rules refuse goes back Home with their reason. `fresh`: the
    modules loaded ahead only to make the new game (Starting), which the
    game does not keep. A generator: each step is a loop pass's
    share (the match; the journal's header; the session; the game
    screen), 20-70 ms each on a Pico."""
    from shared_rules.match import Match

    # the match's module is not the game's (its class lives on with the
    # match): it is let go at once
    loader.drop(("shared_rules.match",))
    try:
        match = Match(game, players, options, {"device": app.board.info.get("id")})
    except RuleError as e:
        app.home()
        app.toast(str(e))
        return
    # what only making the match needed goes now (the passes to the game
    # screen hold the journal's code and the session's), but what the
    # first phase's event needs (rules_code.AHEAD: Session.ahead)
    from rules_code import AHEAD

    ahead = AHEAD.get(game, {}).get(match.state["phase"], ())
    loader.drop([k for k in fresh if k not in ahead])
    gc.collect()
    yield
    t = app.epoch()
    if t is not None:
        match.header["t"] = t
    app.session = None
    gc.collect()
    gid = app.journal.new_game(match.header)
    app.abandoned = None
    if drop is not None and drop != gid:
        try:
            app.journal.delete(drop, force=True)
        except Exception:  # bookkeeping: the new game is safe either way
            pass
    yield
    from session import Session

    app.session = Session(app, gid, match)
    app.session.after_change()
    yield
    app.open_game()
    # what the table does first in a new game, if the game's screen
    # opens it itself (Moons: the tableaux)
    opening = getattr(app.stack[-1].ui, "opening", None)
    if opening is not None:
        opening(app.session)
