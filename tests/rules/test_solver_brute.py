"""The exhaustive search the solver is checked against, a random situation
maker, and tests of the search itself on cases small enough to count by hand.

The exhaustive search lives here, in the tests, and nowhere in the product:
it is the independent second opinion, written the plainest way possible.
It walks every complete plan moon by moon: a moon either stays out (only
while there are more moons left than dice, Game 3) or takes one of the dice
still free and goes to one of the stars that die allows. Two dice showing
the same number are interchangeable, so at each moon it tries each distinct
free number once; every distinct set of landings is still visited. Each
finished plan is scored by moonstar_plan.score_landings, once per
possible Favorite Star, with its landings sorted so that moons on the same
star move one after another (the best order for Game 8's chains; the order
does not matter to the other scorings).

It runs under MicroPython too, so the dual-interpreter tests can use it.
"""

from shared_rules.moonstar.board import STARS, destinations, planet_values
from shared_rules.moonstar.check import check_situation
from shared_rules.moonstar.plan import score_landings


def brute(situation):
    """The best score of `situation`, by trying every complete plan."""
    sit = check_situation(situation)
    moons = sit["moons"]
    dice = sit["dice"]
    movement = sit["movement"]
    need = min(len(moons), len(dice))
    if sit["favorite_star"]:
        values = planet_values(sit)
        favorites = [s for s in range(STARS) if values[s]]
    else:
        favorites = [None]
    free = [0] * 7
    for d in dice:
        free[d] += 1
    landings = []
    best = [-1]

    def leaf():
        order = sorted(landings)
        for fav in favorites:
            score = score_landings(sit, order, fav)
            if score > best[0]:
                best[0] = score

    def walk(i):
        if len(landings) == need:
            leaf()
            return
        if len(moons) - i > need - len(landings):
            walk(i + 1)  # this moon gets no die (Game 3)
        for value in range(1, 7):
            if not free[value]:
                continue
            free[value] -= 1
            for to in destinations(moons[i], value, movement):
                landings.append(to)
                walk(i + 1)
                landings.pop()
            free[value] += 1

    walk(0)
    return best[0]


def random_situation(rng, moons, dice, planets=0, scoring="planets", movement="standard",
                     favorite=False, values=None):
    """A legal situation drawn with `rng` (shared_rules.util.Rng): moons on
    random stars (at most 3 a star), planets on distinct random stars with
    values drawn from `values` (default 1-12), dice 1-6."""
    count = [0] * STARS
    where = []
    while len(where) < moons:
        s = rng.below(STARS)
        if count[s] < 3:
            count[s] += 1
            where.append(s)
    stars = rng.shuffle(list(range(STARS)))[:planets]
    if values is None:
        values = list(range(1, 13))
    return {
        "stars": STARS,
        "planets": [[s, values[rng.below(len(values))]] for s in stars],
        "moons": where,
        "dice": [1 + rng.below(6) for _ in range(dice)],
        "scoring": scoring,
        "movement": movement,
        "favorite_star": favorite,
    }


def _sit(moons, dice, planets=(), scoring="planets", movement="standard", favorite=False):
    return {"stars": 12, "planets": [list(p) for p in planets], "moons": list(moons), "dice": list(dice),
            "scoring": scoring, "movement": movement, "favorite_star": favorite}


def test_brute_one_moon_picks_the_better_side():
    # a 3 from star 0 reaches 3 (planet 10) or 9 (planet 5)
    assert brute(_sit([0], [3], [(3, 10), (9, 5)])) == 10


def test_brute_counts_an_empty_star_as_one():
    assert brute(_sit([0, 0], [2, 4], [(6, 10)])) == 2


def test_brute_assignment_matters():
    # moon on 0 with a 5 hits the 10 on star 5; moon on 1 with a 1 hits the 10 on star 2
    assert brute(_sit([0, 1], [1, 5], [(5, 10), (2, 10)])) == 20


def test_brute_more_moons_than_dice_places_every_die():
    # two dice, three moons: moons 4 and 8 both reach the 9 on star 6
    assert brute(_sit([0, 4, 8], [2, 2], [(2, 7), (10, 3), (6, 9)])) == 18


def test_brute_more_dice_than_moons_picks_the_best_die():
    assert brute(_sit([0], [1, 2, 6], [(6, 8), (2, 5)])) == 8


def test_brute_favorite_star_doubles():
    assert brute(_sit([0, 0], [5, 5], [(5, 3), (7, 4)], favorite=True)) == 16


def test_brute_squares_and_chains_pile_up():
    # moons on 0, 2, 4 with dice 4, 2, 4: no star is reachable by all three
    # (star 4 would need the moon on 4 to stay), so the best is two on one
    # star (moon 0 +4 and moon 2 +2 on star 4) and one elsewhere: 4 + 1.
    sit = _sit([0, 2, 4], [4, 2, 4], scoring="squares")
    assert brute(sit) == 5
    sit["scoring"] = "chains"
    assert brute(sit) == 3 + 1


def test_brute_game9_die_of_one_may_stay():
    # Game 9: a 1 moved counter-clockwise goes 1//2 = 0 stars, so moon 3 stays
    # on 3 and moon 4 comes back to it with the other 1: two on star 3.
    assert brute(_sit([3, 4], [1, 1], scoring="squares", movement="more")) == 4
    # standard movement: 3 and 6 are three apart, two 1s cannot join them
    assert brute(_sit([3, 6], [1, 1], scoring="squares")) == 2
    # Game 9: moon 3 moves 1 clockwise to 4; moon 6 moves 2 counter-clockwise to 4
    assert brute(_sit([3, 6], [1, 2], scoring="squares", movement="more")) == 4


def test_brute_random_situations_are_legal():
    from shared_rules.util import Rng

    rng = Rng(7)
    for _ in range(20):
        sit = random_situation(rng, 1 + rng.below(15), 1 + rng.below(11), rng.below(7))
        assert check_situation(sit)["moons"] == sit["moons"]
