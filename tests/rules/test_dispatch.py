"""Every game's apply() goes through its table of events and one shared
check (shared_rules/dispatch.py): the same refusals in each game, and
every row names a handler that exists (a misspelt name would otherwise
only fail when its event comes)."""

from _support import drop_games, raises
from shared_rules import game_names, get_game

# the game as its messages name it, and players it can start with
GAMES = {"moonstar": ("Moonstar", ["Ann", "Bob", "Cy"]), "shoot-the-moon": ("shoot-the-moon", ["a", "b"]),
         "moon": ("moon", ["a", "b", "c"]), "moons": ("moons", ["a", "b"])}


def test_every_row_names_a_handler_and_its_phases():
    for game in game_names():
        rules = get_game(game)
        seen = []
        for row in rules.EVENTS:
            kind, phases, module, name = row
            assert kind not in seen and kind != "undo", (game, kind)
            seen.append(kind)
            assert phases is None or (type(phases) is tuple and phases and all(type(p) is str for p in phases)), row
            assert module is None or (type(module) is str and "." not in module), row
            module = rules.__name__ + ("." + module if module else "")
            name = name or kind
            handler = getattr(__import__(module, None, None, (name,)), name, None)
            assert callable(handler), (game, row)
        drop_games()  # one game's rules at a time, as on the board


def test_the_shared_refusals_are_worded_alike_in_every_game():
    for game in game_names():
        said, players = GAMES[game]
        rules = get_game(game)
        s = rules.new(players, {})
        listed = ", ".join([row[0] for row in rules.EVENTS]) + ", undo"
        raises(rules.apply, s, ["bid"], match="an event must be an object with a \"type\" naming it")
        raises(rules.apply, s, {"player": 0}, match="an event needs a \"type\": one of " + listed)
        raises(rules.apply, s, {"type": "dance"}, match="%s has no 'dance' event (events: %s)" % (said, listed))
        drop_games()


def test_an_event_out_of_its_phases_is_refused_in_the_games_words():
    moons = get_game("moons")
    s = moons.new(["a", "b"], {})
    raises(moons.apply, s, {"type": "trick", "winner": 0},
           match="record every tableau before the first trick (missing: a, b)")
    drop_games()
    moon = get_game("moon")
    s = moon.new(["a", "b", "c"], {})
    raises(moon.apply, s, {"type": "play", "player": 0, "tile": [6, 6]},
           match="cannot play a tile now: the players are still bidding")
    drop_games()
