"""What the app does once per power-up: open the data folder, count the
boot, read the settings and the roster, resume the game in progress from
its journal, and gather the warnings for the player.

It runs once, before the first screen is drawn, and is never needed again
in the boot: the app lets it go after App.boot (app.py), and with it what
only the boot needs (the resume, and the journal's rare code,
store/recovery.py, which counted the boot)."""

from config import DEFAULT_NAMES, check_settings, default_settings
from loader import Moment
from resume import resume
from store.files import Store
from store.journal import Journal, Uptime
from store.layout import ROSTER, SETTINGS
from store.recovery import count_boot


def load_data(board):
    """(store, uptime, journal, settings, roster) for the app: the data
    folder, this boot's clock, the journal, the settings in force and the
    player names."""
    store = Store(board.storage_root)
    try:
        store.ensure_dir()  # a file in the way is moved aside (with a warning)
    except OSError as e:
        store.warnings.append("cannot make the data folder: %s" % (e,))
    # Every journal line records this boot and its ms (no battery clock).
    uptime = Uptime(board.ticks_ms, count_boot(store))
    conf = default_settings()
    saved = store.read_json(SETTINGS, {})
    if isinstance(saved, dict):
        try:
            check_settings(saved)
            for k in saved:
                conf[k] = saved[k]
        except ValueError as e:
            store.warnings.append("settings ignored: %s" % e)
    roster = store.read_json(ROSTER, None)
    if roster is not None:
        with Moment():  # only when there is a roster to check
            from names import check_roster

            why = check_roster(roster)
        if why is not None:
            store.warnings.append("roster.json ignored: %s" % why)
            roster = None
    return store, uptime, Journal(store, uptime), conf, roster or list(DEFAULT_NAMES)


def boot(app):
    """Home, then the game in progress, then a notice of any warning."""
    from ui.menus.home import Home  # after the app's base mark: it goes while a game is played

    app.push(Home(app))
    warnings = resume(app)
    warnings = list(app.store.warnings) + app.journal.warnings + warnings
    app.store.warnings = []
    app.journal.warnings = []
    if app.session is not None:
        app.open_game()
    if warnings:
        from ui.dialogs import Notice

        app.push(Notice(app, "Warning", "\n".join(warnings)))
