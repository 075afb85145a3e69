"""Boot numbers as both ends read them (shared_rules/boots.py): only plain
ASCII digits name a boot in the clocks file, and a boot number is bounded,
so a damaged boot.json or clocks file can neither pass for another boot
nor overflow the PC's database. Runs under CPython, the unix port and the
32-bit port."""

from shared_rules.boots import BOOT_MAX, boot_key, plain_boot


def test_only_plain_ascii_digits_are_a_boot_key():
    assert boot_key("0") == 0 and boot_key("2") == 2 and boot_key("007") == 7
    assert boot_key(str(BOOT_MAX)) == BOOT_MAX
    for bad in (" 2", "2 ", "+5", "-5", "\u0665", "\uff15", "\u00b2", "1_0", "", "0x1", "1e3", "2.0",
                "1234567890", 5, None):
        assert boot_key(bad) == -1, bad


def test_boot_numbers_are_bounded_whole_numbers():
    assert plain_boot(0) and plain_boot(1) and plain_boot(BOOT_MAX)
    for bad in (-1, BOOT_MAX + 1, 10 ** 30, True, 1.0, "1", None):
        assert not plain_boot(bad), bad
    # a small int on a 32-bit port (31-bit signed)
    assert BOOT_MAX < (1 << 30)
