"""Sync from the simulated board itself: the real firmware app running under
`micropython` behind its printed pty (`moontable sim --headless`), the real
pyserial on the PC side and a real SQLite file.

The fault-injection test in test_sync_e2e.py cuts the link 100+ times
against the device's protocol alone; here the whole app serves the sync
from its main loop, and the board is powered off (SIGKILL) in the middle
of transfers and booted again, as a pulled cable or a reset would."""

import os
import re
import signal
import subprocess
import sys
import threading
import time

import synckit
from host.db import Database
from host.serial_link import Link
from host.sim.board_link import deploy
from host.sync import sync

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PORT_LINE = re.compile(r"USB serial port: (\S+)")


class SimProcess:
    """`moontable sim --headless` as a real process on a flash folder."""

    def __init__(self, flash):
        self.flash = flash
        self.proc = None
        self.port = None

    def start(self):
        env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host.cli", "sim", "--headless", "--flash", str(self.flash)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        seen = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            m = PORT_LINE.search(line)
            if m:
                self.port = m.group(1)
                return self
        self.kill()
        raise AssertionError("the simulator printed no port:\n" + "".join(seen))

    def kill(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


def board_with_games(tmp_path, games):
    flash = tmp_path / "flash"
    deploy(flash)
    _journal, made = synckit.make_device(str(flash / "data"), games=games, open_game=True, seed=3, max_events=120)
    return flash, made


def run_sync(port, db_path, timeout=2.0):
    db = Database.open(db_path)
    try:
        with Link.open(port, timeout=timeout) as link:
            return sync(link, db, roster=True, clock=True)
    finally:
        db.close()


def test_sync_from_the_running_app_stores_every_finished_game_once(tmp_path):
    flash, made = board_with_games(tmp_path, games=3)
    sim = SimProcess(flash).start()
    try:
        db_path = tmp_path / "moontable.db"
        res = run_sync(sim.port, db_path)
        assert sorted(gid for gid, _ in res.stored) == sorted(gid for gid, _, _ in made[:3])
        first = synckit.db_state(db_path)
        run_sync(sim.port, db_path)
        assert synckit.db_state(db_path) == first  # syncing twice changes nothing
    finally:
        sim.stop()


def test_power_cuts_mid_sync_resume_to_the_clean_database(tmp_path):
    import shutil

    flash, _made = board_with_games(tmp_path / "clean", games=4)
    # The same flash contents for the cut run: game ids carry a tag drawn
    # when a data folder is first used, so a fresh folder would differ.
    shutil.copytree(flash, tmp_path / "cut" / "flash")
    sim = SimProcess(flash).start()
    clean_db = tmp_path / "clean.db"
    try:
        run_sync(sim.port, clean_db)
    finally:
        sim.stop()

    flash = tmp_path / "cut" / "flash"
    db_path = tmp_path / "cut.db"
    cuts = 0
    for delay in (0.05, 0.15, 0.3, 0.5, 0.8, 1.2):
        sim = SimProcess(flash).start()
        timer = None
        try:
            timer = threading.Timer(delay, sim.kill)
            timer.start()
            try:
                run_sync(sim.port, db_path, timeout=0.5)
            except Exception:
                cuts += 1  # the link died under the sync: expected
        finally:
            if timer:
                timer.cancel()
            sim.kill()
    sim = SimProcess(flash).start()
    try:
        run_sync(sim.port, db_path)
    finally:
        sim.stop()
    assert cuts > 0, "no sync was actually cut; the test proved nothing"
    got = synckit.db_state(db_path)
    want = synckit.db_state(clean_db)
    assert got == want
