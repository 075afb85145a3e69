"""A screen on its way (App.prepare): its code loads a share of a loop pass
at a time (App.fetch), the screen shown meanwhile stays, and presses
made meanwhile wait for the new one. Loaded for that moment only: it lets
itself go as the screen opens."""

import loader


class Opening:
    """`then()` opens the screen once the modules `names` are loaded."""

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
        # this module goes before the screen is built (a next opening loads
        # it again): it would sit beside the screen for as long as it shows
        loader.drop(("opening",))
        try:
            if self.then is not None:  # (None: the screen on top, whose code this was, draws)
                self.then()
        except Exception as e:
            app.fault(e)
        app.replay(self.held)
