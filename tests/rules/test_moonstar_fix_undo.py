import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import NAMES, SIT, M, refused


def test_a_correction_is_undone_like_any_event():
    from shared_rules.match import Match

    m = Match("moonstar", NAMES[:3], {})
    m.apply({"type": "choose_setter", "player": 0})
    m.apply(dict(SIT, dice=[1, 1, 1, 1, 1, 1, 1]))
    m.apply(dict(SIT, type="fix_situation"))
    assert m.state["sit"]["dice"] == SIT["dice"]
    m.apply({"type": "undo"})
    assert m.state["sit"]["dice"] == [1, 1, 1, 1, 1, 1, 1] and m.state["phase"] == "bidding"
    refused(m.state, {"type": "variants", "games": [2] * 11}, "no variants now")
    refused(_choose(), {"type": "variants", "games": [2] * 11}, "each at most once")


def _choose():
    s = M.new(NAMES[:2], {"game": 12})
    return M.apply(s, {"type": "choose_setter", "player": 0})
