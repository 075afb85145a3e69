"""Rebuilding the game in progress from its journal: at power-up
(startup.py), and when an abandoned game is taken back (Home's "Undo
abandon", ui/menus/home.py). Loaded for that and let go after."""

from shared_rules.errors import RuleError


def resume(app):
    """Rebuild the game in progress from its journal; warnings out.
    Never raises: whatever is on flash, the device boots."""
    warnings = []
    gid = None
    journal = app.journal
    try:
        gid = journal.current()
        if gid is None:
            return warnings
        from shared_rules.match import Match
        from session import Session, rules_resident

        header, events, w = journal.load(gid)
        warnings.extend(w)
        gid = journal.current()
        if header is None or gid is None:
            return warnings
        try:
            resident = rules_resident(header.get("game"))
        except RuleError:
            resident = None  # from_header names what is wrong with the header
        match = Match.from_header(header)
        skipped = 0
        for i in range(len(events)):
            try:
                match.apply(events[i])
            except RuleError as e:
                skipped += 1
                if skipped == 1:
                    warnings.append("event %d not accepted by the rules (%s); skipped" % (i + 1, e))
            events[i] = None
        if skipped > 1:
            warnings.append("%d events skipped in all" % skipped)
        events = None
        app.session = Session(app, gid, match, resident)
        app.session.after_change(resumed=True)
        app.session.shed()
    except Exception as e:  # a damaged game must never stop the device
        app.session = None
        warnings.append("game %s could not be resumed: %s" % (gid or "in progress", e))
    return warnings
