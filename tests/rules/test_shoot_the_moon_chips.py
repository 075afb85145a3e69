"""Shoot the Moon chips: starting chips, moon cards, tricks, partnerships,
winning (RULINGS.md "Chips", "Chips per round", "BIG/LITTLE MOON", "Winning")."""

from _support import raises
from _stm_kit import G, run, tr


def test_players_and_partnerships():
    assert G.new(["a", "b"], {})["scores"] == [2, 2]
    assert G.new(["a", "b", "c", "d", "e", "f"], {})["chips"] == [2] * 6
    raises(G.new, ["a"], {}, match="this game needs 2 to 6 players, not 1")
    raises(G.new, ["a", "b", "c", "d", "e", "f", "g"], {}, match="2 to 6")
    s = G.new(["a", "b", "c", "d"], {"teams": 2})
    assert s["chips"] == [2, 2] and s["scores"] == [2, 2, 2, 2]
    assert len(G.new(list("abcdef"), {"teams": 3})["chips"]) == 3
    assert len(G.new(list("abcdef"), {"teams": 2})["chips"]) == 2
    raises(G.new, list("abc"), {"teams": 2}, match="partnerships need 4 players in 2 teams, or 6 players in 2 or 3 teams, not 3 players in 2")
    raises(G.new, list("abcdef"), {"teams": 1}, match="not 6 players in 1")
    raises(G.new, list("abcde"), {"teams": 2}, match="partnerships need")
    raises(G.new, list("abcd"), {"teams": 3}, match="partnerships need")
    raises(G.new, list("abcd"), {"colour": 3}, match="unknown option 'colour' for shoot-the-moon (known: teams, target, dealer, start)")


def test_partners_alternate_seats_and_pool_tricks():
    s = G.new(list("abcdef"), {"teams": 3})
    # seats 0 and 3 are partners: one trick each pools to 2 = nothing;
    # seats 1 and 4: 3 tricks pooled = +1; seats 2 and 5: none.
    s = run(s, [tr(0), tr(3), tr(1), tr(4), tr(4)])
    assert s["chips"] == [2, 3, 2] and s["scores"] == [2, 3, 2, 2, 3, 2]


def test_chips_for_odd_tricks_and_shooting_the_moon():
    s = run(G.new(list("abcd"), {}), [tr(0), tr(1), tr(1), tr(1), tr(2)])
    assert s["scores"] == [3, 3, 3, 2] and s["round"] == 1  # 1, 3, 1, 0 tricks
    s = run(G.new(list("abc"), {}), [tr(0), tr(0), tr(1), tr(1), tr(2)])
    assert s["scores"] == [2, 2, 3]  # 2, 2 and 1 tricks: even counts win nothing
    s = run(G.new(list("abc"), {}), [tr(0)] * 4 + [tr(1)])
    assert s["scores"] == [2, 3, 2]  # 4 tricks: nothing
    s = run(G.new(list("abc"), {}), [tr(2)] * 5)
    assert s["scores"] == [2, 2, 4]  # shooting the moon: +2


def test_big_moon_pays_at_once_per_card():
    s = run(G.new(list("abc"), {}), [tr(1, big=2)])
    assert s["scores"] == [2, 4, 2] and s["round"] == 0


def test_little_moon_costs_at_once_never_below_zero_and_tricks_still_score():
    s = run(G.new(list("abc"), {}), [tr(0, little=2)])
    assert s["scores"] == [0, 2, 2] and s["round"] == 0
    s2 = G.new(list("abc"), {})
    s2["chips"] = [0, 2, 2]
    s2["start"] = [0, 2, 2]
    s2 = run(s2, [tr(0, little=1), tr(1), tr(1), tr(2), tr(2)])
    # at 0 the LITTLE MOON costs nothing; one trick still wins a chip
    assert s2["scores"] == [1, 2, 2]


def test_big_and_little_in_one_trick_count_together():
    s = G.new(list("abc"), {})
    s["chips"] = [0, 2, 2]
    s = run(s, [tr(0, big=1, little=1)])
    assert s["chips"][0] == 0


