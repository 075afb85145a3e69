"""Leaving a game in progress for a new one, and taking it back: Home's
New game and From paper ask first ("Abandon Moonstar, round 3? It will
not count."), and "Undo abandon" brings the game back until the next one
starts. A finished game is set aside without a question: its session
and rules leave the heap while the new game's menus load, and Home's
"Finished game" reads it back from its journal until the next game
starts. Loaded for that moment only."""

import gc

import loader
from shared_rules import display_name
from ui.dialogs import Ask
from ui.menus.newgame import start


def new_game(app, paper):
    """The new-game menus; over a game in progress, after the question."""
    s = app.session
    if s is None or s.state.get("over"):
        if s is not None:
            _set_aside(app)
        start(app, paper)
        return

    def yes():
        app.pop()
        abandon(app)
        start(app, paper)

    # named as its game screen names it: Moon's rounds are hands (ui/moon.py)
    app.push(Ask(app, "Abandon?", "Abandon %s, %s %d? It will not count."
                 % (display_name(s.game), "hand" if s.game == "moon" else "round", s.state["round"] + 1), yes))


def abandon(app):
    """Leave the game in progress for a new one. Its journal stays the
    game in progress until the next game starts (start.start closes
    it then), so until then Home's "Undo abandon" (or a restart) brings
    it back as it was, its minute paused. Only its id and name are kept
    meanwhile: the session and its rules leave the heap for the new
    game's menus."""
    s = app.session
    if s.timer is not None:
        s.timer.pause()
        s.save_timer()
    _set_aside(app)
    app.toast("Abandoned. Home: Undo abandon brings it back until a game starts", 2500)


def _set_aside(app):
    """The session goes (app.abandoned keeps its id, whether a round of it
    was scored, and whether it is over), and the code only it held is let
    go now, before the next menus load: "session" and the game's rules
    modules, those the app held from its start excepted."""
    s = app.session
    held = app.keep()
    app.abandoned = (s.gid, bool(s.state["round"]), bool(s.state.get("over")))
    app.session = None
    app.sound.watch(None)
    s = None
    kept = app.keep()
    loader.drop([m for m in held if m not in kept and m not in app.base])
    gc.collect()


def unabandon(app):
    """The abandoned game again, read back from its journal (as a restart
    would: the minute paused with the time it had); a finished game set
    aside, as it ended."""
    gid, _, over = app.abandoned
    app.abandoned = None
    app.reset()
    try:
        from resume import resume

        warnings = resume(app, gid if over else None)
    finally:
        loader.drop(("resume", "start"))
    if app.session is not None:
        app.open_game()
        if warnings:
            app.toast("; ".join(warnings))
    else:
        app.home()
        app.toast("; ".join(warnings) if warnings else "the game could not be read back")

