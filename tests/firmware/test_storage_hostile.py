"""The data folder when flash holds what the device did not write: a file
where the data folder should be, an oversized small file, a folder where
an atomic write puts its temporary file, a missing file on a port whose
error numbers differ. Reading never raises and never loses anything;
each case leaves a warning for the screen. Plain test_* functions: CPython
(pytest) and MicroPython (test_journal_upy.py)."""

import os

from store import layout as storage
from store.files import Store
from store.layout import SMALL_MAX
from shared_rules.wire import encode
from test_journal_kit import Folder, exists, is_dir, read, write


def test_data_that_is_a_file_is_kept_aside_and_a_folder_made():
    with Folder() as root:
        data = root + "/data"
        write(data, b"not a folder")
        st = Store(data)
        st.ensure_dir("games")
        assert is_dir(data) and is_dir(data + "/games")
        assert read(data + ".file1") == b"not a folder"
        assert len(st.warnings) == 1 and "was a file" in st.warnings[0] and "data.file1" in st.warnings[0]
        # A second file in the way later gets the next free name.
        os.rmdir(data + "/games")
        os.rmdir(data)
        write(data, b"again")
        st2 = Store(data)
        st2.write_json("settings.json", {"k": 1})
        assert read(data + ".file1") == b"not a folder" and read(data + ".file2") == b"again"
        assert st2.read_json("settings.json") == {"k": 1}


def test_an_oversized_small_file_reads_as_default_and_stays():
    with Folder() as root:
        st = Store(root)
        names = ["N%02d" % i + "x" * 60 for i in range(SMALL_MAX // 60)]
        big = encode({"v": names})
        assert len(big) > SMALL_MAX
        write(st.path("roster.json"), big)
        assert st.read_json("roster.json", "DEFAULT") == "DEFAULT"
        assert len(st.warnings) == 1 and "too large" in st.warnings[0] and "roster.json" in st.warnings[0]
        assert read(st.path("roster.json")) == big  # never thrown away
        # One byte under the cap is still read.
        st.write_json("settings.json", {"pad": "x" * (SMALL_MAX - 40)})
        assert len(read(st.path("settings.json"))) <= SMALL_MAX
        assert st.read_json("settings.json")["pad"] == "x" * (SMALL_MAX - 40)


def test_a_folder_at_the_tmp_path_is_removed_if_empty_else_left():
    with Folder() as root:
        st = Store(root)
        st.write_json("settings.json", {"contrast": 9})
        os.mkdir(st.path("settings.json.tmp"))
        assert st.read_json("settings.json") == {"contrast": 9}
        assert not exists(st.path("settings.json.tmp"))
        assert "empty folder" in st.warnings[0]
        st.write_json("settings.json", {"contrast": 10})  # the path is free again
        os.mkdir(st.path("settings.json.tmp"))
        write(st.path("settings.json.tmp") + "/keep.txt", b"mine")
        st.warnings = []
        assert st.read_json("settings.json") == {"contrast": 10}
        assert read(st.path("settings.json.tmp") + "/keep.txt") == b"mine"
        assert "with files in it" in st.warnings[0]
        try:
            st.write_json("settings.json", {"contrast": 11})
            raise AssertionError("writing through a folder must fail")
        except OSError:
            pass
        assert st.read_json("settings.json") == {"contrast": 10}  # the old value is intact


def test_missing_files_are_told_by_errno_name_not_number():
    import errno
    import sys

    assert storage._is_missing(OSError(errno.ENOENT))
    assert not storage._is_missing(OSError(errno.EACCES))
    if sys.implementation.name == "cpython":
        # MicroPython folds errno.ENOENT into the port's own number when it
        # compiles; under CPython the module can be swapped for the
        # WebAssembly port's numbering, where 2 is not ENOENT.
        class Emscripten:
            ENOENT = 44

        storage.errno = Emscripten
        try:
            assert storage._is_missing(OSError(44))
            assert not storage._is_missing(OSError(2))
        finally:
            storage.errno = errno
    with Folder() as root:
        st = Store(root)
        st.remove(root + "/nothing")  # a missing file is not an error
        assert st.read_json("nothing.json", 5) == 5 and st.warnings == []


def test_scan_gives_names_and_kinds_one_at_a_time():
    with Folder() as root:
        st = Store(root)
        assert list(st.scan("games")) == []  # no folder yet: nothing
        st.ensure_dir("games")
        write(st.path("games", "a.jsonl"), b"x")
        os.mkdir(st.path("games", "b.jsonl"))
        got = sorted(st.scan("games"))
        assert got == [("a.jsonl", storage._FILE), ("b.jsonl", storage._DIR)]
        assert st.size(st.path("games", "b.jsonl")) == -1 and st.size(st.path("games", "a.jsonl")) == 1
        assert st.is_file(st.path("games", "a.jsonl")) and not st.is_file(st.path("games", "b.jsonl"))


def test_free_space_is_read_before_the_data_folder_exists_and_a_full_flash_is_named():
    """A board never booted may have no room for the data folder: its free
    space is the filesystem's all the same, and a write that found no room
    says so in words (the Pico's firmware names an error by number alone;
    the emulated chip's run: tests/board)."""
    from store.files import failure

    with Folder() as root:
        st = Store(root + "/data")
        assert st.free_bytes() > 0 and not exists(root + "/data")
    assert failure(OSError(28)) == "the flash is full"
    assert failure(OSError(5)) == str(OSError(5))
