"""A Moonstar set-up entered, rolled or skipped on the device, applied over
the next loop passes: its code first, then the event, then what follows."""

from ui.base import Screen


class Later(Screen):
    """Submits a set-up on a later loop pass, once the screen that entered
    it and its code are gone: the rules then need the room (legal()
    follows every event). First it loads what applying the event loads
    (the rules' CODE for its kind, leaf first), FETCH_MS of a pass at a
    time, so no pass carries all of it, saying "one moment..." meanwhile.
    `then(s)` follows an accepted event (the board drawn)."""

    def __init__(self, app, s, ev, then):
        super().__init__(app)
        self.s = s
        self.ev = ev
        self.then = then
        self.title = "Set-up"
        self.opened = True  # the pass that opened it has done its share

    @property
    def pending(self):
        """Loading the event's code: the loop runs the next pass at once."""
        return self

    def update(self, now):
        s = self.s
        app = self.app
        then = self.then
        if self.opened:
            self.opened = False
            return False
        try:
            from loader import fetch

            code = s.match.rules.CODE.get(self.ev["type"], ())
            if fetch(code, app.board.ticks_ms):
                return False  # loading was this pass's work
            app.pop(code)  # this screen goes, the code it loaded stays for the event
            if s.submit(self.ev) and then is not None:
                then(s)
        except Exception as e:  # as for a button: the game and the timer go on
            app.fault(e)
        return True

    def button(self, b, kind, count):
        """Nothing to cancel: the entry is done, and this lasts some passes."""

    def draw(self, d):
        super().draw(d)
        d.text("one moment...", 0, 20, 1)


def submit_later(s, ev, then=None):
    """Apply `ev` (a set-up, or its correction) on the next loop passes,
    once the screen that entered it is gone; `then(s)` if accepted."""
    s.app.push(Later(s.app, s, ev, then))
