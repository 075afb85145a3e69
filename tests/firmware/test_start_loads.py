"""What a device loads ahead of a game's start (firmware/start.py,
Starting): the game's rules module, then what the device keeps with it
(firmware/rules_code.py: KEEP), then what making a new game loads (NEW
and start.NEW), so the pass that starts the game loads no rules code of
its own. These lists are checked against what the rules really import:
in a fresh interpreter per game, new() after the rules module, its KEEP
and the lists are loaded must load no further shared_rules module, and
every name listed must exist."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, sys
sys.path[:0] = [%(root)r, %(root)r + "/firmware"]
import shared_rules
from rules_code import KEEP, NEW
from start import NEW as START_NEW
game = %(game)r
rules = shared_rules.get_game(game)
for name in KEEP.get(game, ()) + NEW.get(game, ()) + START_NEW:
    __import__(name)
before = set(sys.modules)
from shared_rules.match import Match
before.add("shared_rules.match")
Match(game, ["Ann", "Bob", "Cy"] if game != "shoot-the-moon" else ["Ann", "Bob"], {})
print(json.dumps({"more": sorted(k for k in set(sys.modules) - before if k.startswith("shared_rules"))}))
"""


@pytest.mark.parametrize("game", ["moonstar", "shoot-the-moon", "moon", "moons"])
def test_a_new_game_loads_nothing_its_start_did_not_load_ahead(game):
    out = subprocess.run([sys.executable, "-c", PROBE % {"root": str(ROOT), "game": game}],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1])["more"] == []


def test_a_misnamed_module_in_the_lists_fails_to_import():
    # fetch() passes over a name that does not import, so a typo would only
    # make a start slower: every listed name must be a module
    from rules_code import KEEP, NEW
    from start import NEW as START_NEW

    for game in ("moonstar", "shoot-the-moon", "moon", "moons"):
        for name in KEEP.get(game, ()) + NEW.get(game, ()) + START_NEW:
            if name.startswith("store."):
                continue  # the firmware's own (its store package needs a board's os)
            __import__(name)


def test_the_lists_are_keyed_by_game_names():
    # a misspelt game would only make its game's passes slower
    import shared_rules
    import rules_code

    games = set(shared_rules.game_names())
    for table in (rules_code.KEEP, rules_code.NEW, rules_code.AHEAD, rules_code.CODE):
        assert set(table) <= games, sorted(set(table) - games)
    for game in set(rules_code.AHEAD) | set(rules_code.CODE):
        for table in (rules_code.AHEAD.get(game, {}), rules_code.CODE.get(game, {})):
            for names in table.values():
                assert type(names) is tuple and names, (game, names)


def test_every_module_a_screen_loads_ahead_exists():
    # App.prepare passes over a name that does not import, as fetch() does:
    # a typo would only make a screen open in one long pass again
    from ui import GAMES
    from ui.menus import home
    from ui import play
    from ui.moonstar import game, result

    lists = [home._NEW_GAME, game._SOLVING_POINTS, game._PLAIN, play._BANNER, game._ACTIONS, game._MORE, game._SEEDED, game._SKIP, game.OPTIONS_CODE,
             ("ui.moonstar.ring", "ui.moonstar.situation"), result._BEST,
             ("ui.gcommon", "ui.bigdigits") + tuple(m for _, m in GAMES)]
    for names in lists:
        assert names
        for name in names:
            __import__(name)
