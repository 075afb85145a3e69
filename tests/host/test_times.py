"""moontable.times: wall times of a game from a board without a battery clock."""

from moontable.times import clean_clocks, doubts, duration_minutes, format_epoch, game_times

T = 1767258000  # 2026-01-01 09:00:00 device time


def lines(boot, ms_list, t_at=None):
    """Header + events in one boot at the given ms; t_at: {index: epoch}."""
    out = []
    for i, ms in enumerate(ms_list):
        obj = {"type": "header" if i == 0 else "x", "b": boot, "ms": ms}
        if t_at and i in t_at:
            obj["t"] = t_at[i]
        out.append(obj)
    return out


def test_known_boot_clock_dates_every_line_even_before_the_sync():
    # the PC set the clock at ms 3_000_000 of boot 4; the game ran from ms 600_000
    game = lines(4, [600000, 900000, 2400000])
    t = game_times(game, {4: T})
    assert t == {"start": T + 600, "end": T + 2400, "seconds": 1800, "minutes": 30, "approx": False}


def test_a_t_stamp_anchors_the_rest_of_its_boot():
    game = lines(2, [0, 60000, 120000], t_at={2: T + 500})
    t = game_times(game, {})
    assert (t["start"], t["end"], t["minutes"], t["approx"]) == (T + 380, T + 500, 2, False)


def test_no_clock_keeps_the_length_and_marks_the_date_approximate():
    game = lines(9, [1000, 61000, 1801000])
    t = game_times(game, {3: T}, fallback=T + 86400)
    assert t["approx"] is True and t["end"] == T + 86400 and t["seconds"] == 1800
    assert t["start"] == T + 86400 - 1800
    # and with no fallback, no date is invented
    t = game_times(game, {})
    assert (t["start"], t["end"], t["minutes"], t["approx"]) == (None, None, 30, True)


def test_a_game_across_an_undated_reboot_has_no_length():
    game = lines(5, [0, 60000]) + lines(6, [1000, 2000])[1:]
    t = game_times(game, {5: T})
    assert t["seconds"] is None and t["minutes"] is None
    # the game went on in a power-up nobody dated: its end is a guess (issue 22)
    assert t["start"] == T and t["end"] == T + 60 and t["approx"] is True
    # both boots dated: the length is exact again
    t = game_times(game, {5: T, 6: T + 3600})
    assert t["seconds"] == 3602 and t["minutes"] == 60


def test_old_logs_with_t_only():
    game = [{"type": "header", "t": T}, {"type": "x", "t": T + 100}, {"type": "x"}, {"type": "x", "t": T + 400}]
    t = game_times(game)
    assert (t["start"], t["end"], t["seconds"], t["approx"]) == (T, T + 400, 400, False)
    # a clock never set counts from 2000 or from boot: not a date
    t = game_times([{"type": "header", "t": 12345}, {"type": "x", "t": 12400}], fallback=T)
    assert t["approx"] is True and t["end"] == T and t["seconds"] is None


def test_durations_are_whole_minutes_never_zero():
    assert duration_minutes(None) is None
    assert duration_minutes(5) == 1 and duration_minutes(89) == 1 and duration_minutes(91) == 2


def test_clocks_from_a_hello_are_checked():
    assert clean_clocks({"3": T * 1000, "x": 5, "4": "soon", "5": True, "6": 12345}) == {3: float(T)}
    assert clean_clocks(None) == {} and clean_clocks([1, 2]) == {}
    assert format_epoch(T) == "2026-01-01 09:00:00" and format_epoch(None) is None


def test_garbage_stamps_are_ignored_not_fatal():
    game = [{"type": "header", "b": "7", "ms": -5, "t": float("nan")}, {"type": "x", "b": True, "ms": 1.5}, 7]
    assert game_times(game, {7: T}) == {"start": None, "end": None, "seconds": None, "minutes": None,
                                        "approx": True}


# -- issue 22: every time field range-checked; the impossible refused, the doubtful approximate


def test_ms_out_of_range_is_ignored_and_the_dates_marked_approximate():
    game = lines(4, [600000, 10 ** 20, 2400000])
    t = game_times(game, {4: T})
    assert t["approx"] is True and t["start"] is None and t["end"] is None  # no "t": nothing dates it
    assert format_epoch(t["end"]) is None
    assert doubts(game) == ['line 2: "ms" 100000000000000000000 is not a time since power-up (0 to 31622400000 ms, a year)']
    t = game_times(lines(4, [0, -5, 10]), {4: T})
    assert t["approx"] is True
    assert doubts([{"b": -1, "ms": 0}, {"b": 2 ** 40, "ms": 0}, {"b": 1, "ms": 1.5}]) == [
        'line 1: "b" -1 is not a boot number (0 to 2147483647)',
        'line 2: "b" 1099511627776 is not a boot number (0 to 2147483647)',
        'line 3: "ms" 1.5 is not a time since power-up (0 to 31622400000 ms, a year)']


def test_ms_running_back_within_a_boot_gives_no_length():
    """It gave a 17,896-minute game: the count from power-up never runs back."""
    game = lines(4, [1073741000, 5000, 65000])
    t = game_times(game, {4: T})
    assert t["seconds"] is None and t["approx"] is True
    assert doubts(game) == ['line 2: "ms" goes back within boot 4 (from 1073741000 to 5000)']


def test_an_impossible_length_is_refused_and_a_doubtful_one_marked():
    """"t" from 2001 to 2100 gave a BG Stats duration of 51 million minutes."""
    game = [{"type": "header", "t": 1000000000}, {"type": "x", "t": 4102444000}]
    t = game_times(game)
    assert t["seconds"] is None and t["minutes"] is None and t["approx"] is True
    game = [{"type": "header", "t": T}, {"type": "x", "t": T + 2 * 86400}]
    t = game_times(game)
    assert t["seconds"] == 2 * 86400 and t["approx"] is True
    game = [{"type": "header", "t": T}, {"type": "x", "t": T + 3 * 3600}]
    assert game_times(game)["approx"] is False
    assert doubts([{"t": 5}, {"t": T}]) == ['line 1: "t" 5 is not a date from 2001 to 2099 (epoch seconds)']


def test_a_resumed_game_starts_at_its_header():
    """The header in a power-up nobody dated, the game resumed after a
    restart in a dated one: it began before its first dated line."""
    game = lines(7, [5000, 65000]) + lines(8, [0, 1000, 61000])[1:]
    t = game_times(game, {8: T})
    assert t["start"] == T + 1 and t["end"] == T + 61 and t["approx"] is True
    # dated header: the start is the header's time
    game = lines(7, [5000, 65000], t_at={0: T}) + lines(8, [0, 1000, 61000])[1:]
    t = game_times(game, {8: T + 600})
    assert t["start"] == T and t["end"] == T + 661 and t["approx"] is False


def test_format_epoch_never_fails():
    assert format_epoch(10 ** 20) is None and format_epoch(-1) is None and format_epoch(float("nan")) is None
    assert format_epoch(253402300799) == "9999-12-31 23:59:59"


def test_a_date_is_from_2001_to_2099_as_documented():
    """2100-01-01 00:00:00 (4102444800) was taken as a date."""
    from moontable.times import plausible_epoch

    assert plausible_epoch(4102444799) == 4102444799  # 2099-12-31 23:59:59
    assert plausible_epoch(4102444800) is None
    assert doubts([{"t": 4102444800}]) == ['line 1: "t" 4102444800 is not a date from 2001 to 2099 (epoch seconds)']
    assert clean_clocks({"3": 4102444800 * 1000}) == {}


def test_why_a_date_is_approximate():
    """The reasons a BG Stats comment gives: nothing dated the game, only
    part of it was dated, or its clock has it last over a day."""
    from moontable.times import approx_why

    undated = game_times(lines(9, [1000, 61000]), {}, fallback=T + 86400)
    assert approx_why(undated["start"], undated["end"], T + 86400) == "unset"
    assert approx_why(None, None) == "unset"  # no fallback (the web page): no date at all
    across = game_times(lines(5, [0, 60000]) + lines(6, [1000, 2000])[1:], {5: T}, fallback=T + 86400)
    assert across["approx"] and approx_why(across["start"], across["end"], T + 86400) == "part"
    resumed = game_times(lines(7, [5000, 65000]) + lines(8, [0, 1000, 61000])[1:], {8: T}, fallback=T + 86400)
    assert approx_why(resumed["start"], resumed["end"], T + 86400) == "part"
    long = game_times([{"type": "header", "t": T}, {"type": "x", "t": T + 2 * 86400}], fallback=T + 3 * 86400)
    assert long["approx"] and approx_why(long["start"], long["end"], T + 3 * 86400) == "long"
    # a stamp refused, nothing else dating the game: the fallback does
    refused = game_times([{"type": "header", "b": 1, "ms": 0}, {"type": "x", "b": 1, "ms": 9, "t": 4102444800}],
                         fallback=T)
    assert refused["end"] == T and approx_why(refused["start"], refused["end"], T) == "unset"
