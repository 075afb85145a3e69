from shared_rules.dates import civil


def test_civil_dates_across_leap_years_and_centuries():
    assert civil(0) == (1970, 1, 1, 0, 0, 0)
    assert civil(951782400) == (2000, 2, 29, 0, 0, 0)  # a leap day of a 400-year leap century
    assert civil(1709164799) == (2024, 2, 28, 23, 59, 59)
    assert civil(1709164800) == (2024, 2, 29, 0, 0, 0)
    assert civil(1795477500) == (2026, 11, 23, 23, 45, 0)
    assert civil(4107542399) == (2100, 2, 28, 23, 59, 59)  # 2100 is no leap year
    assert civil(4107542400) == (2100, 3, 1, 0, 0, 0)
