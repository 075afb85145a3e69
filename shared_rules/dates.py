"""A calendar date from epoch seconds by arithmetic, for the device (the
Games list) and the PC (BG Stats dates) alike: MicroPython ports disagree
on their time module's epoch, so neither side asks it."""


def civil(epoch):
    """Epoch seconds -> (year, month, day, hour, minute, second) in the
    proleptic Gregorian calendar (days since 1970-01-01 to a civil date,
    by the usual era arithmetic)."""
    days, secs = divmod(int(epoch), 86400)
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    return year, month, day, secs // 3600, secs // 60 % 60, secs % 60
