"""Scripted games for the power-cut tests, their cuts, and one restart trial.

The scripts press buttons blind (no screen reading), so a run is cheap and
exactly reproducible under the virtual clock and a fixed seed: a run cut at
a point is the clean run up to that point, which is what cuts() copies."""

import shutil
from pathlib import Path

from moontable.sim.board_link import SimBoard, deploy
from shared_rules.log import Replay, iter_lines, parse_line

SEED = 11


def journal(flash):
    """Events of the (newest) game journal as the PC reads them; [] if none."""
    games = sorted((Path(flash) / "data" / "games").glob("*.jsonl"))
    if not games:
        return None, []
    with open(games[-1], "rb") as f:
        rows = [parse_line(raw, n, last) for n, raw, last in iter_lines(f)]
    return rows[0], rows[1:]


def moonstar_script(b, mark):
    """Two players, one round and the start of a second: setter roll,
    device set-up, two bids, time up from the menu, pause/resume in the
    playing minute, a failed result, a skipped set-up, a bid and its undo."""
    p = b.press
    p("ok"); p("ok")                      # New game, Moonstar
    p("down"); p("down"); p("ok")         # 2 players
    p("ok")                               # Game 1
    p("ok"); p("ok")                      # seats P1, P2
    mark()
    p("ok"); p("ok"); mark()              # roll for setter
    b.advance(3100)
    p("ok"); p("ok"); mark()              # device rolls the set-up
    p("back")                             # close the situation: bidding runs (its OK would go on to the bid)
    b.advance(2000); mark()
    p("ok"); p("ok")                      # bidder P1
    for _ in range(3):
        p("up", 40, 40)
    p("ok"); mark()                       # P1 bids 23
    b.advance(1500)
    p("ok"); p("down"); p("ok"); p("up", 40, 40); p("ok"); mark()  # P2 bids 25
    b.advance(2000); mark()
    p("back"); p("down"); p("ok"); mark()  # game menu: time up now
    b.advance(2000); mark()
    b.long_press("ok"); b.advance(1000); mark()   # pause the playing minute
    b.long_press("ok"); b.advance(1000); mark()   # resume it (a short OK is the points, as the hint says)
    p("ok")
    for _ in range(5):
        p("down", 40, 40)
    p("ok"); mark()                       # 20 points: P2 fails 25
    b.advance(3100)
    p("ok")                               # close the points / best possible screen
    p("ok"); p("down"); p("down"); p("ok"); mark()  # skip the set-up
    b.advance(1000)
    p("ok"); p("ok"); p("ok"); mark()     # P1 (P2 sits out) bids 20
    b.advance(500)
    b.long_press("back"); mark()          # undo that bid
    b.advance(3100); mark()


def stm_script(b, mark):
    """Shoot the Moon, three players: tricks with moon cards and an undo."""
    p = b.press
    p("ok"); p("down"); p("ok")           # New game, Shoot the Moon
    p("down"); p("ok")                    # 3 players
    p("ok")                               # 7 chips to win
    p("ok"); p("ok"); p("ok"); mark()     # seats
    for winner, big in ((1, 1), (0, 0), (2, 0), (0, 1)):
        p("ok"); p("ok")                  # Trick won
        for _ in range(winner):
            p("down")
        p("ok")
        for _ in range(big):
            p("up", 40, 40)
        p("ok")
        p("ok"); mark()                   # LITTLE MOONs: none
    b.long_press("back"); mark()
    b.advance(1500); mark()


SCRIPTS = {"moonstar": moonstar_script, "stm": stm_script}


def template(tmp_root):
    """A deployed flash folder without data, copied for each trial."""
    t = Path(tmp_root) / "template"
    if not t.exists():
        deploy(t)
    return t


def reference(tmp_root, name):
    """Clean run: (board messages it took, the events it journaled)."""
    flash = Path(tmp_root) / ("ref-" + name)
    shutil.copytree(template(tmp_root), flash)
    b = SimBoard(flash, seed=SEED, do_deploy=False).start()
    SCRIPTS[name](b, lambda: None)
    total = b.messages
    events = journal(flash)[1]
    b.kill()
    return total, events


def cuts(tmp_root, name, points):
    """One run of the script, its flash copied at each of `points` (board
    messages seen, ascending) with the board stopped there (SimBoard.pause_at),
    as a power cut at that point leaves it: [(folder, cut point, events
    confirmed on screen by then)]. The script is exactly reproducible, so
    each copy is what a run of its own cut there would leave, at the cost
    of one run."""
    flash = Path(tmp_root) / ("cuts-" + name)
    shutil.copytree(template(tmp_root), flash)
    b = SimBoard(flash, seed=SEED, do_deploy=False).start()
    confirmed = [0]
    out = []

    def cut(seen):
        dest = Path(tmp_root) / ("cut-%s-%d" % (name, len(out)))
        shutil.copytree(flash, dest)
        out.append((str(dest), seen, confirmed[0]))

    def mark():
        confirmed[0] = len(journal(flash)[1])

    b.pause_at = list(points)
    b.on_pause = cut
    SCRIPTS[name](b, mark)
    b.kill()
    assert len(out) == len(points), "the run ended after %d of the %d cuts" % (len(out), len(points))
    return out


def trial(args):
    """Restart the board on one power cut's flash (cuts()), and check.

    Returns a list of problems (empty when every check holds); an
    unexpected error becomes a problem too, with its traceback, so one bad
    trial is reported by name instead of breaking the worker pool."""
    try:
        return _trial(args)
    except Exception:
        import traceback

        return ["kill %d of %s: %s" % (args[2], args[1], traceback.format_exc())]


def _trial(args):
    folder, name, kill_at, confirmed, ref_events = args
    flash = Path(folder)
    problems = []
    snap_path = flash / "data" / "timer.json"
    snap_before = snap_path.read_bytes() if snap_path.exists() else None
    b2 = SimBoard(flash, seed=SEED, do_deploy=False)
    try:
        b2.start()
        b2.advance(300)
    except Exception as e:
        return ["kill %d: restart failed: %s" % (kill_at, e)]
    out = b2.serial_text()
    if "Traceback" in out:
        problems.append("kill %d: traceback after restart:\n%s" % (kill_at, out))
    header, events = journal(flash)
    if events != ref_events[: len(events)]:
        problems.append("kill %d: journal is not a prefix of the clean run's" % kill_at)
    if len(events) < confirmed:
        problems.append("kill %d: %d events were confirmed on screen, only %d kept" % (kill_at, confirmed, len(events)))
    if header is not None:
        rep = Replay()
        rep.start(header)
        for i, ev in enumerate(events):
            rep.step(ev, i + 2)
        problems.extend(check_screen(b2, rep.match, kill_at, snap_before, flash))
    b2.kill()
    shutil.rmtree(flash, ignore_errors=True)
    return problems


def check_screen(b, match, kill_at, snap_before, flash):
    """The resumed device shows the replayed game, a timed phase paused
    with the time it had."""
    from simtools import screen
    from shared_rules.wire_read import decode

    text = screen(b)
    if text.startswith("Warning"):
        b.press("ok")
        text = screen(b)
    st = match.state
    problems = []
    if st.get("phase") in ("bidding", "playing") and match.header["game"] == "moonstar":
        if "PAUSED" not in text and "TIME UP" not in text:
            problems.append("kill %d: timed phase did not resume paused:\n%s" % (kill_at, text))
        snap = decode((flash / "data" / "timer.json").read_bytes())["v"]
        if snap.get("n") != match.count:
            problems.append("kill %d: timer not re-saved for event %d" % (kill_at, match.count))
        if snap_before is not None:
            old = decode(snap_before)["v"]
            if old.get("n") == match.count and old["left_ms"] != snap["left_ms"]:
                problems.append("kill %d: timer resumed with %d ms, had %d" % (kill_at, snap["left_ms"], old["left_ms"]))
    first = text.split("\n")[0] if text else ""
    if match.header["game"] == "moonstar" and st["phase"] not in ("over",):
        want = "R%d" % (st["round"] + 1)
        if want not in first and "moontable" not in first:
            problems.append("kill %d: screen title %r does not show round %s" % (kill_at, first, want))
    return problems
