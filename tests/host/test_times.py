"""host.times: wall times of a game from a board without a battery clock."""

from host.times import clean_clocks, duration_minutes, format_epoch, game_times

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
    assert t["start"] == T and t["end"] == T + 60 and t["approx"] is False
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
