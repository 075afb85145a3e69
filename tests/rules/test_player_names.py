"""Player names (players.check_players, used by every game's new()): each
name is sound text, and no two are the same without regard to case."""

from _support import drop_games, raises
from shared_rules import game_names, get_game


def test_a_name_used_twice_is_refused_in_every_game_whatever_its_case():
    for name in game_names():
        G = get_game(name)
        raises(G.new, ["Ann", "Bob", "ann"], {},
               match="player name \"ann\" is used twice (names are compared without case)")
        raises(G.new, ["ANN", "Bob", "aNn"], {}, match="\"aNn\" is used twice")
        G = None
        drop_games()


def test_case_is_folded_for_every_letter_by_one_table_both_interpreters_share():
    """Issue 22: "Émile" and "émile" in one game are refused (the table is
    shared_rules/fold_table.py, test_names_fold.py)."""
    G = get_game("moon")
    raises(G.new, ["\u00c9mile", "\u00e9mile", "Bo"], {}, match="\"\u00e9mile\" is used twice")
    raises(G.new, ["Stra\u00dfe", "STRASSE", "Bo"], {}, match="\"STRASSE\" is used twice")
    raises(G.new, ["\u0410\u043d\u043d\u0430", "\u0430\u041d\u041d\u0410", "Bo"], {}, match="used twice")  # Анна
    raises(G.new, ["\u03a3\u03bf\u03c6\u03af\u03b1", "\u03c3\u03bf\u03c6\u03af\u03b1", "Bo"], {},
           match="used twice")  # Σοφία
    raises(G.new, ["Zoe", "zOE", "Bo"], {}, match="used twice")
    assert G.new(["\u00c9mile", "Emile", "Bo"], {})["players"] == ["\u00c9mile", "Emile", "Bo"]  # accents count


def test_names_must_be_sound_text():
    drop_games()  # one game's rules at a time, as on the device (the 72K test heap)
    G = get_game("moons")
    raises(G.new, ["Ann", 7], {}, match="a player name must be text of 1 to 64 characters, not 7")
    raises(G.new, ["Ann", ""], {}, match="text of 1 to 64 characters")
    raises(G.new, ["Ann", None], {}, match="not None")
    raises(G.new, ["Ann", "x" * 65], {}, match="1 to 64 characters")
    raises(G.new, ["Ann", "B\tob"], {}, match="holds a control character (code 9)")
    raises(G.new, ["Ann", "B\x7fob"], {}, match="control character (code 127)")
    raises(G.new, ["Ann", "Bob\ud800"], {}, match="lone surrogate (code d800)")
    raises(G.new, "Ann,Bob", {}, match="players must be a list of names, not str")
    assert G.new(["Ann", "x" * 64], {})["players"][1] == "x" * 64
