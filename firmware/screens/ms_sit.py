"""Moonstar's situation screen: the round's set-up drawn (screens/ms_ring.py)
with, on the right, the round, who set it up, the dice and what is special
about its scoring. Shown after the device rolls or the setter enters a
set-up, and from the game menu; OK or BACK goes back, and this module and
the drawing's are unloaded with the screen. Also the set-up entry (and its
correction before the result, the rules' fix_situation event), asked field
by field with only the free stars offered."""

from buttons import BACK, OK, PRESS
from screens import ms_ring
from screens.base import Screen


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
    d.text("by " + setter[:5], x, 10, 1)


class Situation(Screen):
    """`sit` is the rules' situation (state["sit"]), `rnd` the round
    counted from 1, `setter` the setter's name."""

    def __init__(self, app, sit, rnd, setter):
        super().__init__(app)
        self.sit = sit
        self.rnd = rnd
        self.setter = setter

    def button(self, b, kind, count):
        if kind == PRESS and (b == OK or b == BACK):
            from modules import drop

            self.app.pop()
            drop(("screens.ms_sit", "screens.ms_ring"))

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


def entry(s, spec, kind):
    """Enter the set-up star by star and die by die (`spec`: legal()'s
    setup or fix_situation move), then submit it as `kind` and draw it."""
    from screens.form import Form
    from screens.gcommon import event

    values = spec["planets"]
    nm = spec["moons"]
    nd = spec["dice"]
    per = spec.get("per_star", 3)
    stars = spec.get("stars", 12)

    def ask(ev):
        pl = ev.get("planets") or [None] * len(values)
        for i in range(len(values)):
            if pl[i] is None:
                free = [("Star %d" % k, k) for k in range(stars) if k not in pl]
                return (("planets", i, len(values)), "Planet %d star?" % values[i], "pick", free, "")
        mo = ev.get("moons") or [None] * nm
        for i in range(nm):
            if mo[i] is None:
                free = [("Star %d" % k, k) for k in range(stars) if mo.count(k) < per]
                return (("moons", i, nm), "Moon %d star?" % (i + 1), "pick", free, "")
        di = ev.get("dice") or [None] * nd
        for i in range(nd):
            if di[i] is None:
                return (("dice", i, nd), "Die %d of %d?" % (i + 1, nd), "num", (1, 6, 1), "")
        return None

    def done(ev):
        from screens.g_moonstar import show_situation

        ev["planets"] = [[ev["planets"][i], values[i]] for i in range(len(values))] if values else []
        if event(s, kind, ev):
            show_situation(s)

    Form(s.app, ask, done).start()
