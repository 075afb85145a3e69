from test_moonstar_examples import check, example_names


def test_example_games_7_and_8_match_the_hand_worked_results():
    check(example_names(True))
