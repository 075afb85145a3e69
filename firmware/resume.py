"""Rebuilding a game from its journal: the game in progress at power-up
(startup.py) and when an abandoned game is taken back (Home's "Undo
abandon"), and a finished game set aside by New game (Home's "Finished
game"; ui/menus/abandon.py). Loaded for that and let go after."""

from shared_rules.errors import RuleError
from store.files import failure


def resume(app, gid=None):
    """Rebuild the game in progress from its journal, or the finished game
    `gid` (closed at its end, so not the journal's current one); warnings
    out. Never raises: whatever is on flash, the device boots."""
    warnings = []
    journal = app.journal
    current = gid is None
    try:
        if current:
            gid = journal.current()
        if gid is None:
            return warnings
        from shared_rules.match import Match
        from session import Session
        held = []  # the match

        def take(line):
            # Each line replayed as the journal reads it, never held: a
            # journal may be longer than the heap. A refused event ends
            # the replay there (the journal forks the game in progress).
            if not held:
                held.append(Match.from_header(line))
                return None
            try:
                held[0].apply(line)
            except RuleError as e:
                return str(e)
            return None

        header, _, w = journal.load(gid, take)
        warnings.extend(w)
        if current:
            gid = journal.current()
        if header is None or gid is None:
            return warnings
        match = held[0]
        if current and gid == journal.rebuilt and match.state.get("over"):
            # An index rebuilt from the game files took the newest game
            # as the one in progress; it had ended, so it was closed.
            journal.finish(gid)
            return warnings
        app.session = Session(app, gid, match)
        app.session.after_change(resumed=True)
    except Exception as e:  # a damaged game must never stop the device
        app.session = None
        if gid is None:  # the journal itself (a full flash had no room for its folder)
            warnings.append("the games could not be read: %s" % failure(e))
        else:
            warnings.append("game %s could not be resumed: %s" % (gid, failure(e)))
    return warnings
