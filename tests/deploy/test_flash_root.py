"""No file the app puts at the flash's root is small enough for littlefs to
keep inline. littlefs stores a file of at most INLINE_MAX bytes inside its
folder's own record, and every import reads the root's record a few times
(the name as a folder, as .py, as .mpy), so one such file at the root makes
every import slower: at 90bbb06 the 476-byte loader.mpy took every import
on the emulated Pico some 5% longer, and put a loop pass of the evening's
Settings over the 100 ms budget (docs/device.md, "On the chip").

INLINE_MAX is the Pico's: its MicroPython mounts the flash with progsize
256 and readsize 32, so littlefs's cache is min(4096, 4 * 256) = 1,024
bytes, and a file is kept inline up to min(cache, LFS_ATTR_MAX = 1,022,
block size / 8 = 512). littlefs-python, which makes the emulated chip's
image (tests/board/harness.py), keeps the same files inline."""

import os

from littlefs import LittleFS

from moontable import appbuild

INLINE_MAX = 512
BLOCK = 4096  # the Pico's flash block (tests/board/harness.FS_BLOCK)


def test_a_file_of_512_bytes_is_kept_inside_the_roots_record_and_one_of_513_is_not():
    fs = LittleFS(block_size=BLOCK, block_count=16, prog_size=256)
    small, big = os.urandom(INLINE_MAX), os.urandom(INLINE_MAX + 1)
    for name, data in (("small.mpy", small), ("big.mpy", big)):
        with fs.open(name, "wb") as f:
            f.write(data)
    fs.unmount()
    image = bytes(fs.context.buffer)
    record = image[:2 * BLOCK]  # the root's record: the metadata pair in blocks 0 and 1
    assert small in record
    assert big not in record and big in image


def test_no_file_at_the_flash_root_is_kept_inline():
    files = appbuild.build("pico")
    inline = sorted((name, len(data)) for name, data in files.items()
                    if "/" not in name and len(data) <= INLINE_MAX)
    assert inline == [], ("files of %d bytes or less at the flash's root (littlefs keeps them inside the root's "
                          "record, which every import reads): %r" % (INLINE_MAX, inline))
