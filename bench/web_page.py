"""The web page's figures, measured in headless Chromium (Debian's
`chromium` and `chromium-driver`), with the page served from 127.0.0.1:

- first-load size: the bytes of the built folder (web/build.py), which a
  first visit fetches in full;
- time to the Home screen: from the navigation's start to the first panel
  frame painted (the firmware booted, Home drawn), first visit in a fresh
  profile and again after a reload;
- the loop's per-pass time: one app loop pass per timer call, on Home
  (idle) and with the sand timer running (the countdown redrawn), and the
  time to show a changed frame after its pass.

    .venv/bin/python bench/web_page.py [--runs 3] [--seconds 5]

Figures depend on the machine; the tests assert behaviour, never these.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "web")]

import pagekit  # noqa: E402


def pass_figures(page, seconds, key="recent"):
    page.js("moontable.stats.recent.length = 0; moontable.stats.frameRecent.length = 0")
    time.sleep(seconds)
    ms = page.js("return moontable.stats[arguments[0]].slice()", key)
    ms.sort()
    return {
        "passes": len(ms),
        "per_s": len(ms) / seconds,
        "mean": statistics.fmean(ms),
        "median": ms[len(ms) // 2],
        "p95": ms[int(len(ms) * 0.95)],
        "max": ms[-1],
    }


def show(name, f):
    print("  %-26s %5d (%.0f/s): mean %.2f ms, median %.2f ms, p95 %.2f ms, max %.1f ms"
          % (name, f["passes"], f["per_s"], f["mean"], f["median"], f["p95"], f["max"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="fresh-profile first loads to time")
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds of loop passes to time per case")
    args = ap.parse_args()
    if pagekit.chromium_paths() is None:
        raise SystemExit("bench/web_page.py: no Chromium: %s" % pagekit.INSTALL)
    with tempfile.TemporaryDirectory(prefix="moontable-web-bench-") as tmp:
        tmp = Path(tmp)
        sizes = pagekit.web_build().build(tmp / "dist")
        total = sum(sizes.values())
        print("first-load size: %d bytes (%.0f KB) in %d files" % (total, total / 1024, len(sizes)))
        for rel in sorted(sizes, key=sizes.get, reverse=True)[:4]:
            print("  %-22s %7d bytes" % (rel, sizes[rel]))
        server = pagekit.Server(tmp / "dist")
        first, again = [], []
        try:
            for i in range(args.runs):
                d = pagekit.new_browser(tmp / ("profile%d" % i), tmp / "dl")
                try:
                    page = pagekit.Page(d, server.url, test_clock=False).open()
                    page.wait_text("New game")
                    first.append(page.js("return moontable.stats.firstFrameMs"))
                    d.refresh()
                    page.open()
                    again.append(page.js("return moontable.stats.firstFrameMs"))
                    if i == args.runs - 1:
                        print("time to the Home screen (navigation start -> first frame), %d runs:" % args.runs)
                        print("  first visit: median %.0f ms (%s)" % (statistics.median(first), ", ".join("%.0f" % v for v in first)))
                        print("  reload:      median %.0f ms (%s)" % (statistics.median(again), ", ".join("%.0f" % v for v in again)))
                        print("loop pass (one firmware app.step() called from a page timer, 20 ms apart):")
                        show("Home, idle", pass_figures(page, args.seconds))
                        page.choose("Sand timer")
                        page.press("ok")
                        page.wait_text("running")
                        show("sand timer running", pass_figures(page, args.seconds))
                        print("a changed frame after its pass (the emulated panel packed, painted on the")
                        print("canvas, its text voiced):")
                        show("sand timer running", pass_figures(page, args.seconds, "frameRecent"))
                finally:
                    d.quit()
        finally:
            server.close()


if __name__ == "__main__":
    main()
