"""The device's standings screen (firmware/ui/standings.py) ranks by
the game's win rule (Match.placings), not by score: a Moon bidder who went
out with a lower total is first and named as the winner, and Shoot the
Moon partners share one place with the next team second (issue 22).
Plain test_* functions: they run under CPython (pytest) and MicroPython
(test_firmware_upy.py)."""


class Display:
    """Records the text drawn, by line (y)."""

    def __init__(self):
        self.lines = {}

    def text(self, s, x, y, c=1):
        self.lines.setdefault(y, []).append((x, s))

    def fill_rect(self, *a):
        pass

    def hline(self, *a):
        pass

    def line_text(self, y):
        return " ".join([s for _, s in sorted(self.lines.get(y, []))])


class Session:
    def __init__(self, match):
        self.match = match
        self.state = match.state


class App:
    def __init__(self, session):
        self.session = session
        self.popped = 0
        self.went_home = 0

    def pop(self):
        self.popped += 1

    def home(self):
        self.went_home += 1


def _rows(match):
    from ui.standings import Standings

    d = Display()
    Standings(App(Session(match))).draw(d)
    return [d.line_text(y) for y in (11, 20, 29, 38, 47, 56)]


def _moon_bidder_out():
    """P3 bids 5 and makes it to reach 21; P1 ends on 22: P3 wins."""
    from shared_rules.match import Match

    m = Match("moon", ["P1", "P2", "P3"], {"start": [20, 5, 16]})
    for e in ({"type": "pass", "player": 0}, {"type": "pass", "player": 1},
              {"type": "bid", "player": 2, "bid": 5}, {"type": "trump", "player": 2, "trump": 6},
              {"type": "totals", "tricks": [2, 0, 5]}):
        m.apply(e)
    return m


def test_moon_bidder_who_went_out_is_first():
    m = _moon_bidder_out()
    assert m.state["scores"] == [22, 5, 21] and m.state["over"]
    rows = _rows(m)
    assert rows[:3] == ["1 P3 21", "2 P1 22", "3 P2 5"], rows
    assert rows[5] == "Won: P3", rows


def test_shoot_the_moon_partners_share_a_place():
    from shared_rules.match import Match

    m = Match("shoot-the-moon", ["A", "B", "C", "D", "E", "F"], {"teams": 3, "start": [1, 5, 3]})
    rows = _rows(m)
    assert rows[:5] == ["1 B 5", "1 E 5", "2 C 3", "2 F 3", "3 A 1"], rows


def test_an_arrow_that_cannot_scroll_leaves_the_standings_open():
    """A player found UP or DOWN at the end of a short list closed it; only
    OK and BACK close it."""
    import buttons
    from ui.standings import Standings

    app = App(Session(_moon_bidder_out()))
    screen = Standings(app)
    for b in (buttons.UP, buttons.DOWN):
        for kind in (buttons.PRESS, buttons.REPEAT):
            screen.button(b, kind, 0)
    assert app.popped == 0 and app.went_home == 0
    screen.button(buttons.OK, buttons.PRESS, 0)
    assert app.popped == 1
