"""Starting a game: the rules make and check the match, the journal gets
its header, the game screen opens. It runs once a game, so the app loads
it for the call and drops it after (modules.call), like app_boot.py."""

import gc
import sys

from modules import MENU_MODULES, drop
from shared_rules.errors import RuleError


def start_game(app, game, players, options):
    """The menus that asked for the game (or the finished game before a
    rematch) are let go first, so the new game's rules have the heap; a
    start the rules refuse goes back Home with their reason. True when the
    game is open."""
    app.stack = []
    if app.session is not None and app.session.state.get("over"):
        app.session = None
    gc.collect()
    drop(MENU_MODULES)
    gc.collect()
    from shared_rules.match import Match
    from screens.session import Session

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
    app.session = Session(app, gid, match, resident)
    app.session.after_change()
    app.session.shed()
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
    a new game needs (Moonstar's variants, moonstar_opts): those, and
    everything the rules import later on first use (a phase's handler,
    legal(), the board tables), are shed after each event (Session.shed)."""
    from shared_rules import get_game

    get_game(game)
    return [k for k in sys.modules if k.startswith("shared_rules")]
