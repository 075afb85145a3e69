"""Rebuilding a game from its journal: the game in progress at power-up
(startup.py) and when an abandoned game is taken back (Home's "Undo
abandon"), and a finished game set aside by New game (Home's "Finished
game"; ui/menus/abandon.py). Loaded for that and let go after."""

from loader import Moment
from shared_rules.errors import RuleError


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
        from start import rules_resident

        header, events, w = journal.load(gid)
        warnings.extend(w)
        if current:
            gid = journal.current()
        if header is None or gid is None:
            return warnings
        try:
            resident = rules_resident(header.get("game"))
        except RuleError:
            resident = None  # from_header names what is wrong with the header
        match = Match.from_header(header)
        refused = None
        for i in range(len(events)):
            if refused is None:
                try:
                    match.apply(events[i])
                except RuleError as e:
                    refused = (i, str(e))
            events[i] = None
        events = None
        if refused is not None:
            # Never append after an event the rules refuse: the journal
            # would no longer replay (the PC could keep only what comes
            # before it). The game goes on as a new one from the events
            # before, and this file stays as it is for the PC.
            old = gid
            with Moment():
                from store import recovery

                gid = recovery.continue_before(journal, old, header, refused[0])
            warnings.append("event %d of game %s is refused by the rules (%s): resumed from the %d events before "
                            "it, as game %s; the rest stays in game %s for the PC"
                            % (refused[0] + 1, old, refused[1], refused[0], gid, old))
        app.session = Session(app, gid, match, resident)
        app.session.after_change(resumed=True)
        app.session.shed()
    except Exception as e:  # a damaged game must never stop the device
        from store.files import failure

        app.session = None
        if gid is None:  # the journal itself (a full flash had no room for its folder)
            warnings.append("the games could not be read: %s" % failure(e))
        else:
            warnings.append("game %s could not be resumed: %s" % (gid, failure(e)))
    return warnings
