import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import M, fixed_round, refused, start


def test_seeded_setup_obeys_the_rules_and_the_counts():
    from shared_rules.moonstar.check import check_situation

    for opts in ({}, {"game": 3, "moons": 15, "dice": 7}, {"game": 4, "moons": 7, "dice": 11},
                 {"game": 5, "planets": [1, 2, 3, 4, 5, 6]}, {"game": 7}):
        s = start(2, opts)
        for seed in (0, 1, 77, 4294967295):
            sit = M.apply(s, {"type": "setup", "seed": seed})["sit"]
            check_situation(sit)
            cfg = s["cfg"]
            assert len(sit["moons"]) == cfg["moons"] and len(sit["dice"]) == cfg["dice"]
            assert sorted([p[1] for p in sit["planets"]]) == sorted(cfg["planets"])
    assert M.apply(start(), {"type": "setup", "seed": 5})["sit"] == M.apply(start(), {"type": "setup", "seed": 5})["sit"]


def test_a_bad_seed_is_refused_by_name_and_the_state_stays():
    s = start()
    for seed in (-1, 4294967296, True, "7", 1.5):
        refused(s, {"type": "setup", "seed": seed}, "seed must be a whole number from 0 to 4294967295, not %r" % (seed,))
    assert s["phase"] == "setup" and s.get("sit") is None


def test_fixed_round_by_moves():
    fixed_round()
