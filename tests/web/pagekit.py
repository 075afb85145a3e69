"""The web page in a real headless Chromium, for the tests: build the page
(web/build.py) into a temporary folder, serve it from 127.0.0.1 on a free
port with Python's own static file server, and drive it with selenium.

Chromium and chromedriver are Debian's `chromium` and `chromium-driver`
(.ci/run installs them). Without them these tests are skipped with a
reason that says how to install them; `make test` says so too.
"""

import functools
import http.server
import shutil
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTALL = "apt-get install -y chromium chromium-driver"
# Generous: the tests must pass on a slow, loaded machine. They wait on
# conditions, never on wall-clock figures.
WAIT_S = 120

BITS = {"up": 1, "down": 2, "ok": 4, "back": 8}
LOOP_MS = 20  # one loop pass of the page's test clock (web/page/app.mjs)
ORIGINS = set()  # every origin a Server served: a reused browser forgets their storage between tests


def web_build():
    """web/build.py as a module (loaded by path: `build` is too common a
    name to import by)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("moontable_web_build", ROOT / "web" / "build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def chromium_paths():
    """(chromium, chromedriver) or None when either is missing."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


class Server:
    """A static file server for `folder` on 127.0.0.1, on a free port."""

    def __init__(self, folder):
        handler = functools.partial(QuietHandler, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = "http://127.0.0.1:%d/" % self.httpd.server_address[1]
        ORIGINS.add(self.url.rstrip("/"))
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def new_browser(profile, downloads, width=420, height=900):
    """A headless Chromium with a fresh profile, downloads into `downloads`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = chromium_paths()
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--autoplay-policy=no-user-gesture-required",
                "--user-data-dir=%s" % profile, "--window-size=%d,%d" % (width, height)):
        opts.add_argument(arg)
    opts.add_experimental_option("prefs", {
        "download.default_directory": str(downloads),
        "download.prompt_for_download": False,
        "safebrowsing.enabled": False,
    })
    d = webdriver.Chrome(options=opts, service=Service(driver))
    d.set_script_timeout(WAIT_S)
    d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    d.first_size = d.get_window_size()  # forget() puts a test's resizing back
    return d


def forget(d, downloads):
    """Make a browser used by an earlier test as a fresh one: one blank
    window, no storage, cache or service worker for any origin a Server
    served, its first size, downloads into `downloads`."""
    handles = d.window_handles
    for h in handles[1:]:
        d.switch_to.window(h)
        d.close()
    d.switch_to.window(handles[0])
    d.get("about:blank")
    if d.get_window_size() != d.first_size:
        d.set_window_size(d.first_size["width"], d.first_size["height"])
    for origin in ORIGINS:
        d.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})


class Page:
    """The device page in one browser: its buttons, its screen text, its
    panel pixels.

    With `test_clock` (the default) the page runs on the clock the test
    moves (?clock=test, web/page/app.mjs): no loop pass runs until the
    test advances it, so holds, minutes and repeats come out the same on
    a busy machine. press(), settle() and wait() move it on; advance(ms)
    moves it by hand. bench/web_page.py measures the browser's own pace
    with test_clock=False."""

    def __init__(self, driver, url, test_clock=True):
        self.d = driver
        self.test_clock = test_clock
        self.url = url + "?clock=test" if test_clock else url

    def open(self):
        self.d.get(self.url)
        self.wait(lambda: self.js("return moontable.ready && moontable.frame !== null") or self.error(), "the device to start")
        assert not self.error(), self.error()
        return self

    def js(self, code, *args):
        return self.d.execute_script(code, *args)

    def error(self):
        return self.js("return window.moontable ? moontable.error : null")

    def advance(self, ms):
        """Move the page's test clock on by `ms` (loop passes run); the
        passes run so far."""
        return self.js("return moontable.advance(arguments[0])", ms)

    def step(self, ms):
        """advance(ms), read back in the same call to the page: (passes
        before, passes after, the screen's text, the page's error). For a
        test that looks after every step: each call to the browser is a
        round trip through the driver."""
        return self.js("""
            const before = moontable.stats.passes;
            moontable.advance(arguments[0]);
            return [before, moontable.stats.passes, document.getElementById('screen-text').textContent,
                    moontable.error];""", ms)

    def wait(self, cond, what, timeout=WAIT_S):
        """Until cond() holds: the test clock moved on a few passes between
        looks once the device runs (before that, and on the browser's own
        clock, a short pause of wall time between looks); `timeout` is wall
        time, a guard against a hang."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if cond():
                return
            if self.test_clock and self.js("return Boolean(window.moontable && moontable.advance)"):
                self.advance(5 * LOOP_MS)
            else:
                time.sleep(0.05)
        raise AssertionError("timed out waiting for %s; screen:\n%s\nconsole:\n%s" % (what, self.text(), self.console()))

    def text(self):
        """The screen as the aria-live region tells a screen reader."""
        from selenium.webdriver.common.by import By

        return self.d.find_element(By.ID, "screen-text").get_attribute("textContent")

    def console(self):
        return self.js("return moontable.console")

    def frame(self):
        """The emulated panel's bytes (MONO_VLSB) the page last painted."""
        return bytes(self.js("return Array.from(moontable.frame)"))

    def canvas_pixels(self):
        """The canvas, read back: 64 rows of 128 values, 1 = lit."""
        data = self.js("""
            const c = document.getElementById('panel');
            const d = c.getContext('2d').getImageData(0, 0, 128, 64).data;
            const out = [];
            for (let i = 0; i < d.length; i += 4) out.push(d[i] || d[i + 1] || d[i + 2] ? 1 : 0);
            return out;""")
        return [data[y * 128:(y + 1) * 128] for y in range(64)]

    def passes(self):
        return self.js("return moontable.stats.passes")

    def settle(self, passes=4):
        """Let the firmware see every queued button change, then run a few
        more loop passes (past the debounce, and a redraw)."""
        if self.test_clock:
            left = self.js("""
                let n = 0;
                while (moontable.pendingLevels && n < 1000 && !moontable.error) { moontable.advance(%d); n += 1; }
                moontable.advance(%d);
                return moontable.pendingLevels;""" % (LOOP_MS, passes * LOOP_MS))
            assert left == 0 or self.error(), "the buttons were never taken:\n" + self.text()
            return
        self.wait(lambda: self.js("return moontable.pendingLevels") == 0, "the buttons to be taken")
        start = self.passes()
        self.wait(lambda: self.passes() >= start + passes, "%d loop passes" % passes)

    def press(self, name, after=4):
        """A click of an on-screen button (mouse down and up at once)."""
        from selenium.webdriver.common.by import By

        self.d.find_element(By.ID, "btn-" + name).click()
        self.settle(after)

    def long_press(self, name, hold_s=1.0):
        """Hold an on-screen button down for hold_s (of the test clock, once
        the firmware has seen it go down), then let go."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        el = self.d.find_element(By.ID, "btn-" + name)
        if not self.test_clock:
            ActionChains(self.d).click_and_hold(el).pause(hold_s).release().perform()
            self.settle()
            return
        ActionChains(self.d).click_and_hold(el).perform()
        try:
            self.settle(0)
            self.advance(int(hold_s * 1000))
        finally:
            ActionChains(self.d).release(el).perform()
        self.settle()

    def screenshot(self, name):
        """The page as a PNG, saved as <name>.png in $MOONTABLE_SCREENS
        when `make screens` asks for the docs' screenshots; otherwise only
        taken, never written (a test run changes no tracked file)."""
        import os

        data = self.d.get_screenshot_as_png()
        assert data.startswith(b"\x89PNG\r\n\x1a\n"), name
        out = os.environ.get("MOONTABLE_SCREENS")
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            (Path(out) / (name + ".png")).write_bytes(data)
        return data

    def wait_text(self, needle, what=None):
        self.wait(lambda: needle in self.text(), what or repr(needle))

    def lines(self):
        return [l for l in self.text().split("\n") if l.strip()]

    def selected(self):
        for l in self.lines():
            if l.startswith("> "):
                return l[2:]
        return None

    def choose(self, label, max_steps=30):
        """Move the menu selection down to the row containing `label`, then OK."""
        for _ in range(max_steps):
            sel = self.selected()
            if sel is not None and label in sel:
                self.press("ok")
                return
            self.press("down")
        raise AssertionError("menu item %r not found; screen:\n%s" % (label, self.text()))
