"""The browser tests: the page built once per run into a temporary folder,
served from 127.0.0.1, and one headless Chromium per pytest process (each
xdist worker), its windows closed and storage cleared before each test
(so each starts as in a new browser). Without
Chromium they are skipped, saying how to install it; `make test` says so
too, and .ci/run installs it."""

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
ROOT = str(Path(__file__).resolve().parents[2])
for p in (ROOT, HERE):
    if p not in sys.path:
        sys.path.append(p)

import pagekit  # noqa: E402


@pytest.fixture(scope="session")
def page_server(tmp_path_factory):
    if pagekit.chromium_paths() is None:
        pytest.skip("no Chromium and chromedriver for the browser tests: install them with `%s`" % pagekit.INSTALL)
    dist = tmp_path_factory.mktemp("web") / "dist"
    pagekit.web_build().build(dist)
    server = pagekit.Server(dist)
    server.dist = dist
    yield server
    server.close()


@pytest.fixture(scope="session")
def _chromium(page_server, tmp_path_factory):
    """One headless Chromium for every browser test of this process (a
    start costs seconds of CPU)."""
    tmp = tmp_path_factory.mktemp("chromium")
    d = pagekit.new_browser(tmp / "profile", tmp / "downloads")
    yield d
    d.quit()


@pytest.fixture
def browser(_chromium, tmp_path):
    """(driver, downloads folder) of a headless Chromium as good as new:
    one blank window, no storage for the page (pagekit.forget)."""
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    pagekit.forget(_chromium, downloads)
    yield _chromium, downloads


@pytest.fixture
def page(browser, page_server):
    return pagekit.Page(browser[0], page_server.url).open()
