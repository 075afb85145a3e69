"""Moonstar's situation screen: the round's set-up drawn (ui/moonstar/ring.py)
with, on the right, the round, who set it up, the dice and what is special
about its scoring. Shown after the device rolls or the setter enters a
set-up, and from the game menu; OK or BACK goes back, and this module and
the drawing's are unloaded with the screen. Also the set-up entry (and its
correction before the result, the rules' fix_situation event), asked field
by field with only the free stars offered."""

from buttons import BACK, DOWN, OK, PRESS, UP
from ui.moonstar import ring as ms_ring
from ui.base import Screen, fit


def notes(sit):
    """Short words for a round that does not score the standard way."""
    out = []
    if sit["scoring"] != "planets":
        out.append(sit["scoring"])  # "squares" (Game 7), "chains" (Game 8)
    if sit.get("favorite_star"):
        out.append("fav star")
    if sit.get("movement") == "more":
        out.append("G9 moves")
    return out


def panel_head(d, rnd, setter):
    """The right half's top: the round in a band, the setter below it
    ("by Ann": Ann set this round up)."""
    x = ms_ring.PANEL_X
    d.fill_rect(x - 1, 0, 128 - x + 1, 9, 1)
    d.text("R%d" % rnd, x, 1, 0)
    d.text("by " + fit(setter, (128 - x) // 8 - 3), x, 10, 1)


class Situation(Screen):
    """`sit` is the rules' situation (state["sit"]), `rnd` the round
    counted from 1, `setter` the setter's name."""

    def __init__(self, app, sit, rnd, setter, go_on=False):
        super().__init__(app)
        self.sit = sit
        self.rnd = rnd
        self.setter = setter
        # shown as the bidding minute starts: OK also does what the game
        # screen's OK does (the bid), so no press is lost while time runs
        self.go_on = go_on

    def button(self, b, kind, count):
        if kind == PRESS and (b == OK or b == BACK):
            app = self.app
            app.pop()
            if b == OK and self.go_on:
                app.stack[-1].button(OK, PRESS, 0)

    def draw(self, d):
        sit = self.sit
        ms_ring.ring(d, sit["planets"])
        ms_ring.moons(d, sit["moons"])
        panel_head(d, self.rnd, self.setter)
        y = ms_ring.dice(d, sit["dice"], 20)
        for word in notes(sit):
            if y > 56:
                break
            d.text(word, ms_ring.PANEL_X, y + 1, 1)
            y += 9


class Entry(Screen):
    """The set-up entered on the drawn board: for each planet, then each
    moon, UP/DOWN walk a cursor round the ring to a star it may go on
    (only free stars for a planet, stars with fewer than `per_star` moons
    for a moon) and OK puts it there; then each die, UP/DOWN 1-6 and OK.
    BACK takes the last piece back (on the first, leaves). One screen for
    the whole entry, so a long set-up costs no stack of menus.

    `spec` is legal()'s setup (or fix_situation) move; on_done(ev) gets
    the event's planets, moons and dice."""

    def __init__(self, app, spec, on_done, rnd, setter):
        super().__init__(app)
        self.values = spec["planets"]
        self.nm = spec["moons"]
        self.nd = spec["dice"]
        self.per = spec.get("per_star", 3)
        self.on_done = on_done
        self.rnd = rnd
        self.setter = setter
        self.planets = []  # stars, in the order of self.values
        self.moons = []
        self.dice = []
        self.cursor = self._allowed_from(0, 1)
        self.die = 1

    def field(self):
        """0: a planet, 1: a moon, 2: a die, 3: done."""
        if len(self.planets) < len(self.values):
            return 0
        if len(self.moons) < self.nm:
            return 1
        return 2 if len(self.dice) < self.nd else 3

    def _ok(self, star):
        f = self.field()
        if f == 0:
            return star not in self.planets
        return self.moons.count(star) < self.per

    def _allowed_from(self, star, step):
        """The first star from `star` on (going `step`) the piece may take."""
        for i in range(12):
            t = (star + step * i) % 12
            if self._ok(t):
                return t
        return star

    def button(self, b, kind, count):
        f = self.field()
        if b == UP or b == DOWN:
            step = 1 if b == DOWN else -1  # DOWN: clockwise, as the stars count
            if f == 2:
                self.die = (self.die + (1 if b == UP else -1) - 1) % 6 + 1
            elif f < 2:
                self.cursor = self._allowed_from((self.cursor + step) % 12, step)
            return
        if kind != PRESS:
            return
        if b == OK:
            if f == 0:
                self.planets.append(self.cursor)
                self.cursor = self._allowed_from(self.cursor, 1) if self.field() == 0 else self._allowed_from(0, 1)
            elif f == 1:
                self.moons.append(self.cursor)  # the next moon starts on the same star
                self.cursor = self._allowed_from(self.cursor, 1)
            elif f == 2:
                self.dice.append(self.die)
            if self.field() == 3:
                self.on_done({"planets": [[self.planets[i], self.values[i]] for i in range(len(self.values))],
                              "moons": list(self.moons), "dice": list(self.dice)})
        elif b == BACK:
            if self.dice:
                self.die = self.dice.pop()
            elif self.moons:
                self.cursor = self.moons.pop()
            elif self.planets:
                self.cursor = self.planets.pop()
            else:
                self.app.pop()

    def draw(self, d):
        f = self.field()
        placed = [[self.planets[i], self.values[i]] for i in range(len(self.planets))]
        ms_ring.ring(d, placed)
        ms_ring.moons(d, self.moons)
        if f < 2:
            x, y = ms_ring.at(self.cursor, ms_ring.R_STAR)
            d.ellipse(x, y, ms_ring.R_PLANET + 2, ms_ring.R_PLANET + 2, 1)  # the cursor
            if f == 0:
                ms_ring.planet(d, self.cursor, self.values[len(self.planets)])
            else:
                k = self.moons.count(self.cursor)
                ms_ring.moon(d, self.cursor, k, True)
        panel_head(d, self.rnd, self.setter)
        x = ms_ring.PANEL_X
        y = 20
        if f == 0:  # "Planet", its value below: "value 15" fits where "Planet 15" would not
            d.text("Planet", x, y, 1)
            y += 9
            words = "value %d" % self.values[len(self.planets)]
        elif f == 1:
            words = "Moon %d/%d" % (len(self.moons) + 1, self.nm)
        else:
            words = "Die %d/%d" % (len(self.dice) + 1, self.nd)
        d.text(words[:8], x, y, 1)
        d.text("star %d" % self.cursor if f < 2 else "shows", x, y + 9, 1)
        if f == 2:
            shown = (self.dice + [self.die])[-10:]  # two rows of five: the newest ten
            ms_ring.dice(d, shown, 39, None, len(shown) - 1)


def show(s, go_on=False):
    """The round's set-up drawn as the board, if it is known. `go_on`:
    shown as the bidding starts, OK goes on to the bid (Situation)."""
    st = s.state
    sit = st.get("sit")
    if sit:
        s.app.push(Situation(s.app, sit, st["round"] + 1, st["players"][st["setter"]], go_on))


def show_set(s):
    """show() once a set-up was entered: its OK goes on to the bidding."""
    show(s, s.state["phase"] == "bidding")


def entry(s, spec, kind):
    """Enter the set-up on the drawn board (Entry), then submit it as `kind`
    (setup, or fix_situation to correct it) and draw it."""
    st = s.state
    app = s.app

    def done(ev):
        from ui.moonstar.result import submit_later

        app.pop()
        ev["type"] = kind
        submit_later(s, ev, show_set if kind == "setup" else show)  # on the next pass, when this screen and its code are gone

    app.push(Entry(app, spec, done, st["round"] + 1, st["players"][st["setter"]]))
