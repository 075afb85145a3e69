import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from _support import raises
from shared_rules.errors import RuleError
from test_moonstar__kit import NAMES, SIT, UP, M, bid, plan, run, start


def test_start_option_carries_scores_over_from_paper():
    s = M.new(NAMES[:3], {"start": [34, 12, 0]})
    assert s["scores"] == [34, 12, 0] and s["start_scores"] == [34, 12, 0]
    assert M.standings(s)[0] == ["Ann", 34]
    refused_new = [({"start": [1, 2]}, "one score per player (3)"),
                   ({"start": [200, 0, 0]}, "a start of 200, alone on top at or past the goal of 200"),
                   ({"start": [-5, 0, 0]}, "not -5"), ({"start": [1.0, 0, 0]}, "not 1.0"),
                   ({"start": [True, 0, 0]}, "not True"), ({"start": {}}, "one score per player"),
                   ({"game": 7, "start": [100, 0, 0]}, "past the goal of 100"),
                   ({"start": [10000, 0, 0]}, "from 0 to 9999, not 10000")]
    for options, match in refused_new:
        try:
            M.new(NAMES[:3], options)
        except RuleError as e:
            assert match in str(e), (str(e), match)
        else:
            raise AssertionError(options)
    assert M.new(NAMES[:2], {"game": 10, "start": [-40, 0]})["scores"] == [-40, 0]


def test_a_start_tied_at_or_past_the_goal_plays_on():
    """Issue 22: a tie at the top plays on, so it is a start in play."""
    s = M.new(NAMES[:3], {"start": [205, 205, 50]})
    assert s["scores"] == [205, 205, 50] and not s["over"] and s["winner"] is None
    raises(M.new, NAMES[:3], {"start": [205, 200, 50]}, match="a start of 205, alone on top")


def test_negative_start_only_with_game_10_or_12():
    """Only Game 10's challenges take a total below 0 (Game 12 may pick it)."""
    assert M.new(NAMES[:2], {"game": 12, "start": [-40, 0]})["scores"] == [-40, 0]
    assert M.new(NAMES[:2], {"game": [10, 11], "start": [-40, 0]})["scores"] == [-40, 0]
    raises(M.new, NAMES[:2], {"game": 11, "start": [-40, 0]}, match="from 0 to 9999, not -40")
    raises(M.new, NAMES[:2], {"start": [-1, 0]}, match="from 0 to 9999, not -1")


def test_turn_names_the_setter_and_who_acts():
    s = M.new(NAMES[:3], {})
    assert M.turn(s) == {"leader": None, "to_act": None} and s["first_leader"] is None
    s = start(3, setter=2)
    assert M.turn(s) == {"leader": 2, "to_act": 2} and s["first_leader"] == 2
    s = run(s, SIT, bid(1, 30))
    assert M.turn(s) == {"leader": 2, "to_act": None}  # open bidding
    s = run(s, UP)
    assert M.turn(s) == {"leader": 2, "to_act": 1}
    # the result as moves: this file is about turn(), and a plan needs no
    # solve (whose tables, after this file's other tests, may not fit 72K)
    s = M.apply(s, {"type": "result", "moves": plan()})
    assert M.turn(s) == {"leader": 0, "to_act": 0} and s["first_leader"] == 2
