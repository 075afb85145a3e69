"""A screen on its way (App.prepare): its code loads a share of a loop pass
at a time (loader.fetch), the screen shown meanwhile stays, and presses
made meanwhile wait for the new one. Loaded for that moment, after the
mark its screen gets (App.push), so it goes when that screen goes."""

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
        if loader.fetch(self.names, app.board.ticks_ms):
            return
        app.prep = None
        try:
            self.then()
        except Exception as e:
            app.fault(e)
        app.replay(self.held)
