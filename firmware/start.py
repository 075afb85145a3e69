"""Starting a game: close the one left behind, make the match, journal its
header, open the game screen. Once a game, so the app loads it for the
call and lets it go after (App.start_game); resume.py takes the rules'
resident modules from here too."""

import gc
import sys


def start(app, game, players, options):
    """Start a game: the menus that asked for it (or the finished game
    before a rematch) are let go first, so the new game's rules have the
    heap; the rules make and check the match, the journal gets its header,
    the game screen opens. A start the rules refuse goes back Home with
    their reason. True when the game is open."""
    from shared_rules.errors import RuleError
    from shared_rules.match import Match

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
    app.reset()
    try:
        resident = rules_resident(game)
        match = Match(game, players, options, {"device": app.board.info.get("id")})
    except RuleError as e:
        app.home()
        app.toast(str(e))
        return False
    if app.journal.space_low():
        app.journal.reclaim()
    if app.journal.space_low():
        app.home()
        app.toast("Flash is almost full: delete synced games (Games menu) first")
        return False
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
    from session import Session

    app.session = Session(app, gid, match, resident)
    app.session.after_change()
    app.session.shed_due = True
    app.open_game()
    # what the table does first in a new game, if the game's screen
    # opens it itself (Moons: the tableaux)
    opening = getattr(app.stack[-1].ui, "opening", None)
    if opening is not None:
        opening(app.session)
    return True


def rules_resident(game):
    """The shared_rules modules a game keeps resident: its rules module and
    what that imports at load time (RuleError for an unknown game). Taken
    before the game's Match is made, since making it may load tables only
    a new game needs (Moonstar's variants): those, and everything the rules
    import later on first use (a phase's handler, legal(), the board
    tables), are shed after each event (Session.shed)."""
    from shared_rules import get_game

    get_game(game)
    return [k for k in sys.modules if k.startswith("shared_rules")]
