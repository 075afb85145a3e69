"""The browser tests: the page built once per run into a temporary folder,
served from 127.0.0.1, and a fresh headless Chromium (new profile, so new
browser storage) per test. Without Chromium they are skipped, saying how
to install it; `make test` says so too, and .ci/run installs it."""

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


@pytest.fixture
def browser(page_server, tmp_path):
    """(driver, downloads folder) of a fresh headless Chromium."""
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    d = pagekit.new_browser(tmp_path / "profile", downloads)
    yield d, downloads
    d.quit()


@pytest.fixture
def page(browser, page_server):
    return pagekit.Page(browser[0], page_server.url).open()
