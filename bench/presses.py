"""Input effort: how many button presses one typical round or hand of each
game needs on the device, along the shortest path.

    .venv/bin/python bench/presses.py                 # all four games
    .venv/bin/python bench/presses.py moonstar        # one game (or several)
    .venv/bin/python bench/presses.py --json          # the figures as JSON
    .venv/bin/python bench/presses.py --steps moons   # presses of each step too

Each game is written as table facts: who bid what, who took which trick,
what the result was (FACTS below). A driver plays them on the headless
simulator (the real firmware under the real MicroPython) by reading the
panel and answering what it asks; nothing here knows the screens' layout
beyond the shared Menu and NumberPick.

How presses are counted. One press is one push of a button, short or long.
A number picker's UP/DOWN held counts in fives on round values (screens/
dialogs.py NumberPick.held: 20 -> 21 -> 25 -> 30, a step every other repeat at
first), a pace a player can follow and let go at; one hold, let go on the
value wanted, is one press, then taps for the rest. The driver plans each
hold with the firmware's own NumberPick.held, lets go after as many steps
as the plan says (counted from the panel's digits changing) and then reads
the value to check it landed there. The shortest path
is found by looking first: before choosing in a menu the driver walks the
whole (wrapping) menu once and comes back, and before setting a number it
walks down to the lowest value and back up; those looking presses change
nothing and are not counted. Then it counts the shorter way round the menu
(UP or DOWN) and OK, or the taps from the number shown to the one wanted
and OK. A toast is let time out (it costs no press); a notice the device
shows after an event is closed with OK (counted).

Two figures per game: "start", from Home to the first game screen (game,
player count, options, seats), and "round", one round or hand from the
game screen to the next one's first input. The round figure is the one
an evening repeats. After the round the PC-side replay of the journal
must show what the facts say (each game's "check"), so a shorter path
never skips an input.

Moonstar's round went 36 -> 29 with better defaults, then 29 -> 19 with
the hold in fives (the first bid 20 -> 30 is one hold, not ten taps).

Figures at the start of issue #11 (commit 8f182ac), start / round:
    Moonstar 12 / 36, Shoot the Moon 10 / 30, Moon 9 / 42, Moons 9 / 61."""

import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (str(ROOT), str(ROOT / "tests" / "sim"), str(ROOT / "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)

import simtools as st  # noqa: E402
from ui.dialogs import NumberPick  # noqa: E402  (how a held UP/DOWN moves the value)

# -- the table facts -----------------------------------------------------------
# A step is what the players tell the device about one thing that happened at
# the table. "act" names what happened as the device's action menu calls it
# (chosen if the device asks; where only one action is legal it does not).
# "do" is the list of answers to what the device asks, in order:
#   "Label"             choose the menu item whose text is Label
#   ["Label", "Other"]  choose whichever of them the menu has
#   (r"title", 34)      set the number picker whose title matches to 34
#   ("notice", r"text") a notice or result screen containing text: OK
#   ("ok",)             OK on a screen that is no menu (e.g. the game screen)
# The same fact may be asked in other ways by other versions of the device
# (a number picker for BIG MOONs, or one menu of the moon cards): every
# answer is offered, and one the device does not ask is not needed. "who"
# is the player a step is about: on a game screen that points at a player
# (its hint reads "OK: <name> ..."), UP/DOWN point at them before OK.
# "events" is how many journal events the step writes (default 1); "wait"
# lets virtual time run first (ms), e.g. for the minute to run out.
FACTS = {
    "moonstar": {
        "label": "Moonstar",
        "start": ["New game", "Moonstar", (r"Players", 4), "1 Basic", "P1", "P2", "P3", "P4",
                  # the table has chosen who sets up: P1
                  ("ok",), "Choose setter", "P1"],
        "start_events": 1,
        "round": [
            # the set-up was rolled on the table; the device is not told the dice
            {"act": "Skip set-up", "do": []},
            {"act": "Bid", "do": ["P2", (r"", 30)]},
            {"act": "Bid", "do": ["P4", (r"", 34)]},
            {"act": "Bid", "do": ["P2", (r"", 38)]},
            {"wait": 61000, "events": 0},  # the bidding minute runs out
            {"wait": 61000, "events": 0},  # the playing minute runs out
            {"act": "Enter result", "do": [(r"", 41)]},  # P2 scored 41: made
        ],
        "check": lambda s: s["scores"] == [0, 38, 0, 0] and s["round"] == 1,
    },
    "shoot-the-moon": {
        "label": "Shoot the Moon",
        "start": ["New game", "Shoot the Moon", (r"Players", 4), "Individual", (r"Chips", 7),
                  "P1", "P2", "P3", "P4"],
        "start_events": 0,
        "round": [
            {"act": "Trick won", "who": "P1", "do": ["P1", (r"BIG", 0), (r"LITTLE", 0), "no moons"]},
            {"act": "Trick won", "who": "P3", "do": ["P3", (r"BIG", 1), (r"LITTLE", 0), "1 BIG"]},
            {"act": "Trick won", "who": "P1", "do": ["P1", (r"BIG", 0), (r"LITTLE", 0), "no moons"]},
            {"act": "Trick won", "who": "P2", "do": ["P2", (r"BIG", 0), (r"LITTLE", 1), "1 LITTLE"]},
            {"act": "Trick won", "who": "P1", "do": ["P1", (r"BIG", 0), (r"LITTLE", 0), "no moons"]},
        ],
        # 2 chips each; P1 3 tricks +1, P3 1 trick +1 and +1 for the BIG MOON,
        # P2 1 trick +1 and -1 for the LITTLE MOON
        "check": lambda s: s["chips"] == [3, 2, 4, 2] and s["round"] == 1,
    },
    "moon": {
        "label": "Moon",
        "start": ["New game", "Moon", (r"Points", 21), "Seat 1", "P1", "P2", "P3"],
        "start_events": 0,
        "round": [
            {"act": "Pass", "do": []},  # P1
            {"act": "Bid", "do": ["5"]},  # P2 bids 5
            {"act": "Pass", "do": []},  # P3
            {"act": "Name trump", "do": ["Doubles"]},
            {"act": "Trick won", "who": "P2", "do": ["P2"]},
            {"act": "Trick won", "who": "P2", "do": ["P2"]},
            {"act": "Trick won", "who": "P1", "do": ["P1"]},
            {"act": "Trick won", "who": "P2", "do": ["P2"]},
            {"act": "Trick won", "who": "P3", "do": ["P3"]},
            {"act": "Trick won", "who": "P2", "do": ["P2"]},
            {"act": "Trick won", "who": "P2", "do": ["P2"]},
        ],
        "check": lambda s: s["scores"] == [1, 5, 1] and s["round"] == 1,
    },
    "moons": {
        "label": "Moons",
        "start": ["New game", "Moons", (r"Players", 3), ["Default", "1/2/3/10", "House 1/2/3/10"], "P1", "P2", "P3"],
        "start_events": 0,
        "round": [
            {"act": "Tableau", "who": "P1", "do": ["P1", "Jupiter", "Saturn", "Neptune"]},
            {"act": "Tableau", "who": "P2", "do": ["P2", "Saturn", "Neptune", "Uranus"]},
            {"act": "Tableau", "who": "P3", "do": ["P3", "Uranus", "Uranus", "Jupiter"]},
            {"act": "Trick won", "who": "P1", "do": ["P1", "Jupiter", "Nobody"]},
            # P2 takes a Uranus; P3's Saturn was the lowest off-suit card
            {"act": "Trick won", "who": "P2", "do": ["P2", "Uranus + low", "P3", "Saturn"]},
            {"act": "Trick won", "who": "P3", "do": ["P3", "Jupiter", "Nobody"]},
            {"act": "Trick won", "who": "P1", "do": ["P1", "Saturn", "Nobody"]},
            {"act": "End of round", "do": ["Neptune", "Uranus", "Jupiter"]},
        ],
        # P1 J S N (a group of three), P2 U, P3 S J (a pair)
        "check": lambda s: (s["scores"] == [3, 1, 2] and s["round"] == 1
                            and s["tokens"] == [[1, 1, 1, 0], [0, 0, 0, 1], [1, 1, 0, 0]]),
    },
}

ORDER = ("moonstar", "shoot-the-moon", "moon", "moons")


class Stuck(AssertionError):
    pass


def in_menu(board):
    """A menu is shown: a highlighted row (st.selected) that is not a
    full-width bar such as a game screen's hint line."""
    px = board.emu.pixels
    for y in range(10, 56):
        if px[y][0] and px[y][1] and px[y + 8][0]:
            return not px[y][123] and st.selected(board) is not None
    return False


def _is(text, label):
    """A menu row is `label` itself or `label` followed by more words
    ("Moon" is "Moon dominoes", never "Moons")."""
    return text == label or text.startswith(label + " ")


class Driver:
    """Plays answers on a SimBoard and counts the presses that matter."""

    def __init__(self, board, flash):
        self.b = board
        self.flash = Path(flash)
        self.presses = 0

    # -- looking (not counted) ---------------------------------------------------
    def events(self):
        games = sorted((self.flash / "data" / "games").glob("*.jsonl"))
        if not games:
            return 0
        return max(0, len([l for l in games[-1].read_bytes().splitlines() if l.strip()]) - 1)

    def lines(self):
        return st.screen_lines(self.b.emu)

    def title(self):
        ls = self.lines()
        return ls[0] if ls else ""

    def pixels(self):
        return [bytes(row) for row in self.b.emu.pixels]

    def look(self, key):
        self.b.press(key)

    def menu_items(self):
        """Every item of the menu shown, from the selected one on (walks
        down the wrapping menu once, back to where it started)."""
        first = st.selected(self.b)
        items = [first]
        for _ in range(60):
            self.look("down")
            sel = st.selected(self.b)
            if sel == first:
                return items
            items.append(sel)
        raise Stuck("menu does not wrap:\n" + "\n".join(self.lines()))

    def number_shown(self):
        """The value a number picker shows: walk down to its lowest value
        (the panel below the title bar stops changing: the title bar may
        hold a running minute), read that from the bottom line, walk back
        up."""
        steps = 0
        before = self.pixels()[10:]
        while True:
            self.look("down")
            now = self.pixels()[10:]
            if now == before:
                break
            before = now
            steps += 1
            if steps > 700:
                raise Stuck("number picker without a floor")
        low = int(self.lines()[-1].split()[0])
        for _ in range(steps):
            self.look("up")
        return low + steps, low

    def picker_top(self):
        """The number picker's highest value, printed bottom right."""
        return int(self.lines()[-1].split()[-1])

    def digits(self):
        """The picker's big digits (rows 22-53): they change when, and
        only when, the value does."""
        return self.pixels()[22:54]

    @staticmethod
    def hold_path(current, lo, hi, up):
        """The values one hold of UP (`up`) or DOWN shows in turn, the
        press's own step first: the firmware's NumberPick.held."""
        v = min(hi, max(lo, current + (1 if up else -1)))
        path = [v]
        for count in range(1, 400):
            if v == (hi if up else lo):
                break
            nv = NumberPick.held(v, lo, hi, count, up)
            if nv != v:
                path.append(nv)
            v = nv
        return path

    def hold_to(self, key, changes):
        """Hold `key` until the digits have changed `changes` times (the
        press's own step included), then let go: one press."""
        self.presses += 1
        bit = {"up": 1, "down": 2}[key]
        before = self.digits()
        seen = 0
        self.b.set_buttons(self.b.mask | bit)
        for _ in range(2000):
            self.b.advance(10)
            now = self.digits()
            if now != before:
                seen += 1
                before = now
                if seen == changes:
                    break
        else:
            raise Stuck("a held %s stopped changing the number" % key)
        self.b.set_buttons(self.b.mask & ~bit)
        self.b.advance(100)

    # -- acting (counted) ----------------------------------------------------------
    def press(self, key, long=False):
        self.presses += 1
        if long:
            self.b.long_press(key)
        else:
            self.b.press(key)

    def choose(self, label):
        items = self.menu_items()
        for i, text in enumerate(items):
            if text is not None and _is(text.strip(), label):
                break
        else:
            raise Stuck("no %r in menu %r" % (label, items))
        down, up = i, (len(items) - i) % len(items)
        key, n = ("down", down) if down <= up else ("up", up)
        for _ in range(n):
            self.press(key)
        self.press("ok")

    def set_number(self, value):
        """Taps from the value shown, or one hold to a value on its way
        and taps from there, whichever is fewer presses."""
        current, low = self.number_shown()
        hi = self.picker_top()
        best = (abs(value - current), None, 0, current)
        for key in ("up", "down"):
            path = self.hold_path(current, low, hi, key == "up")
            for k in range(1, len(path)):  # path[0] alone is a tap
                cost = 1 + abs(value - path[k])
                if cost < best[0]:
                    best = (cost, key, k + 1, path[k])
        _, key, changes, landed = best
        if key is not None:
            self.hold_to(key, changes)
            shown, _ = self.number_shown()
            if shown != landed:
                raise Stuck("the hold landed on %d, not %d as NumberPick.held says" % (shown, landed))
            current = shown
        key = "up" if value > current else "down"
        for _ in range(abs(value - current)):
            self.press(key)
        self.press("ok")

    def hint_name(self):
        m = re.match(r"OK: (\S+)", self.lines()[-1] if self.lines() else "")
        return m.group(1) if m else None

    def points(self):
        """The game screen points at a player."""
        name = self.hint_name()
        return name is not None and re.match(r"P\d$", name) is not None

    def point_at(self, name):
        """On a game screen that points at a player, point at `name` the
        shorter way round (looked up first, not counted)."""
        first = self.hint_name()
        if first is None or not re.match(r"P\d$", first):
            return
        ring = [first]
        for _ in range(12):
            self.look("down")
            now = self.hint_name()
            if now == first:
                break
            ring.append(now)
        if name not in ring:
            raise Stuck("the game screen never points at %r (%r)" % (name, ring))
        i = ring.index(name)
        down, up = i, (len(ring) - i) % len(ring)
        key, n = ("down", down) if down <= up else ("up", up)
        for _ in range(n):
            self.press(key)

    def settle(self):
        """Let a toast time out (no press) before the next input."""
        self.b.advance(3100)

    def answer(self, answers, want_events, optional=()):
        """Answer what the panel asks from `answers` until the journal
        holds `want_events` events and nothing in `answers` is left that
        the panel asks for (those in `optional` may stay unasked)."""
        todo = list(answers)
        for _ in range(80):
            if self.events() >= want_events and all(a in optional for a in todo):
                return
            if in_menu(self.b):
                items = [t.strip() for t in self.menu_items() if t is not None]
                for k, a in enumerate(todo):
                    labels = [a] if isinstance(a, str) else (a if isinstance(a, list) else [])
                    found = [x for x in labels if any(_is(t, x) for t in items)]
                    if found:
                        del todo[k]
                        self.choose(found[0])
                        break
                else:
                    raise Stuck("menu %r asks for none of %r" % (items, todo))
                continue
            text = "\n".join(self.lines())
            for k, a in enumerate(todo):
                if a == ("ok",):
                    del todo[k]
                    self.press("ok")
                    break
                if isinstance(a, tuple) and a[0] == "notice":
                    if re.search(a[1], text):
                        del todo[k]
                        self.press("ok")
                        break
                elif isinstance(a, tuple) and re.search(a[0], self.title()):
                    del todo[k]
                    self.set_number(a[1])
                    break
            else:
                if self.events() >= want_events:
                    raise Stuck("answers left over %r; screen:\n%s" % (todo, text))
                raise Stuck("no answer for the screen:\n%s\n(left: %r)" % (text, todo))
        raise Stuck("too many screens")


def play(game, seed=7, steps=None, env=None):
    """Presses for `game`: {"start": n, "round": n}; `steps`, a list, gets
    (step, presses) for each step of the round; `env`, the board's extra
    environment (the layout test's $MOONSIM_DRAWLOG)."""
    facts = FACTS[game]
    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash"
        b = st.SimBoard(flash, seed=seed, env=env).start()
        try:
            d = Driver(b, flash)
            d.answer(facts["start"], facts["start_events"])
            start = d.presses
            d.presses = 0
            for step in facts["round"]:
                before = d.presses
                d.settle()
                if step.get("wait"):
                    b.advance(step["wait"])
                want = d.events() + step.get("events", 1)
                if "act" in step:
                    d.settle()
                    if in_menu(b):
                        pass  # the device asks already (e.g. the next tableau follows the last)
                    elif "who" in step:
                        d.point_at(step["who"])
                        d.press("ok")  # on the game screen: enter what happened
                    elif d.points():
                        d.press("back")  # OK means "this player..."; the rest is in the game menu
                    else:
                        d.press("ok")
                    # an answer the device does not ask (one choice only) is not needed
                    d.answer([step["act"]] + step["do"], want, optional=[step["act"]] + step["do"])
                if steps is not None:
                    steps.append((step, d.presses - before))
            st.no_faults(b)
            state = st.replay(flash).state
            if not facts["check"](state):
                raise Stuck("the round did not end as the facts say: %r" % (state,))
            return {"start": start, "round": d.presses}
        finally:
            b.kill()


def main(argv):
    as_json = "--json" in argv
    show_steps = "--steps" in argv
    games = [a for a in argv if not a.startswith("--")] or list(ORDER)
    for g in games:
        if g not in FACTS:
            raise SystemExit("unknown game %r (one of: %s)" % (g, ", ".join(ORDER)))
    out = {}
    for g in games:
        steps = [] if show_steps else None
        out[g] = play(g, steps=steps)
        for step, n in steps or ():
            print("  %3d  %s" % (n, json.dumps(step)))
        if not as_json:
            print("%-16s start %3d presses   round %3d presses" % (FACTS[g]["label"], out[g]["start"], out[g]["round"]))
            sys.stdout.flush()
    if as_json:
        print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
