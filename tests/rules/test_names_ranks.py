"""Display names and shared ranks: one place for both, used by the device,
the PC listings, the report and the exports."""

from shared_rules import display_name, game_names, ranks


def test_every_game_has_its_box_name():
    names = [display_name(g) for g in game_names()]
    assert names == ["Moonstar", "Shoot the Moon", "Moon (dominoes)", "Moons"]


def test_unknown_id_is_shown_as_it_is():
    assert display_name("chess") == "chess"


def test_ties_share_a_rank_and_the_next_rank_skips():
    assert ranks([100, 80, 80, 50]) == [1, 2, 2, 4]
    assert ranks([0, 0, 0]) == [1, 1, 1]
    assert ranks([]) == []


def test_ranks_read_standings_rows():
    assert ranks([["Ann", 7], ["Bob", 3], ["Cy", 3]]) == [1, 2, 2]
