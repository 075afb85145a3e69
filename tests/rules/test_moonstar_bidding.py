import shared_rules.moonstar.board  # noqa: F401  (first: the biggest compile, see the kit)
from test_moonstar__kit import M, fixed_round, UP, bid, refused, run, start


def test_bids_are_20_to_70_and_strictly_rising():
    s = run(start(), {"type": "setup"}, bid(1, 40))
    refused(s, bid(2, 35), "bid 35 must be higher than the standing bid 40")
    refused(s, bid(2, 40), "bid 40 must be higher than the standing bid 40")
    refused(s, bid(2, 71), "a bid must be from 20 to 70, not 71")
    refused(s, bid(2, 19), "a bid must be from 20 to 70, not 19")
    refused(s, bid(2, "50"), "a bid must be a whole number")
    refused(s, bid(3, 50), "player must be a seat from 0 to 2")
    s = M.apply(s, bid(1, 45))  # a player may raise his own bid
    assert s["bid"] == 45 and s["bidder"] == 1


def test_70_closes_bidding_but_the_minute_runs_on():
    s = run(start(), {"type": "setup"}, bid(0, 70))
    refused(s, bid(1, 70), "bidding is closed: 70 is the maximum bid")
    assert s["phase"] == "bidding"
    assert M.apply(s, UP)["phase"] == "playing"


def test_no_bid_scores_the_setter_20_and_he_sets_up_again():
    s = run(start(3, None, 2), {"type": "setup"}, UP)
    assert s["scores"] == [0, 0, 20] and s["round"] == 1
    assert s["setter"] == 2 and s["phase"] == "setup"
    assert s["last"]["bidder"] is None


def test_events_out_of_phase_are_refused():
    s = start()
    refused(s, bid(0, 30), "no bid now: this is the set-up (now: set-up)")
    refused(s, {"type": "result", "points": 3}, "no result now")
    refused(s, {"type": "dance"}, "Moonstar has no 'dance' event (events: bid, time_up, result, setup, ")
    refused(s, {"player": 1}, "an event needs a \"type\": one of bid, time_up, ")
    refused(s, ["bid"], "an event must be an object with a \"type\" naming it")
    refused(s, {"type": "challenge", "player": 1}, "no challenge now")


def test_fixed_round_by_moves():
    fixed_round()
