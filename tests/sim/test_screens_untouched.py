"""A test run changes no tracked file (issue 21, item 16): the docs'
screenshots (docs/screens/*.png) are made again only by `make screens`,
which sets $MOONTABLE_SCREENS; the tests that draw them otherwise make the
PNG in memory and write nothing."""

import simtools as st


def stamp(folder):
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.glob("*.png")}


def test_snap_writes_no_tracked_file_unless_make_screens_asks(tmp_path, monkeypatch):
    monkeypatch.delenv("MOONTABLE_SCREENS", raising=False)
    before = stamp(st.DOCS)
    assert "home.png" in before  # the docs' screenshot this test would have rewritten
    b = st.new_board(tmp_path / "board")
    try:
        data = st.snap(b, "home")
        assert stamp(st.DOCS) == before  # not rewritten, nothing added
        assert data.startswith(b"\x89PNG")
        # `make screens`: the same call writes the screenshot where it says
        out = tmp_path / "screens"
        monkeypatch.setenv("MOONTABLE_SCREENS", str(out))
        assert st.snap(b, "home") == data
        assert (out / "home.png").read_bytes() == data
        assert stamp(st.DOCS) == before
    finally:
        b.kill()
