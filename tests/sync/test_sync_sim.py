"""Sync from the simulated board itself: the real firmware app running under
`micropython` behind its printed pty (`moontable sim --headless`), the real
pyserial on the PC side and a real SQLite file.

The fault-injection test in test_sync_e2e.py cuts the link 100+ times
against the device's protocol alone; here the whole app serves the sync
from its main loop, and the board is powered off (SIGKILL) in the middle
of transfers and booted again, as a pulled cable or a reset would. Where
each cut falls is counted in bytes on the wire (a relay between the PC and
the board's pty), never in seconds, so a fast or a slow machine cuts at
the same points."""

import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

import synckit
from moontable.db import Database
from moontable.serial_link import Link, LinkError
from moontable.sim.board_link import deploy
from moontable.sync import sync

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
            [sys.executable, "-m", "moontable.cli", "sim", "--headless", "--flash", str(self.flash)],
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
                self._wait_ready()
                return self
        self.kill()
        raise AssertionError("the simulator printed no port:\n" + "".join(seen))

    def _wait_ready(self):
        """Until the app answers a hello: it may still be importing after
        printing its port, for as long as a loaded machine takes."""
        end = synckit.PortEnd(self.port)
        try:
            synckit.wait_ready(end.fd, self.proc)
        finally:
            end.close()

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


def run_sync(port, db_path, timeout=10.0):
    """One sync. The default timeout is long: over a sound link no reply is
    lost, so it is never waited out, however slowly a loaded machine runs
    the board."""
    db = Database.open(db_path)
    try:
        with Link.open(port, timeout=timeout) as link:
            res = sync(link, db, roster=True, clock=True, now=synckit.T0)
            res.wire = link.bytes_in + link.bytes_out
            return res
    finally:
        db.close()


def test_sync_from_the_running_app_stores_every_game_once(tmp_path):
    flash, made = board_with_games(tmp_path, games=3)
    sim = SimProcess(flash).start()
    try:
        db_path = tmp_path / "moontable.db"
        res = run_sync(sim.port, db_path)
        finished = sorted(gid for gid, _, _ in made[:3])
        playing = made[3][0]
        # The game on the table is stored as it stands too, never acked.
        assert sorted(gid for gid, _ in res.stored) == sorted(finished + [playing])
        assert sorted(res.acked) == finished and res.open == [playing]
        first = synckit.db_state(db_path)
        # Named as unfinished: the game on the table, and any game closed before its end.
        unfinished = sorted(g[1] for g in first["games"] if not g[8])
        assert playing in unfinished and sorted(gid for gid, _ in res.unfinished) == unfinished
        again = run_sync(sim.port, db_path)
        assert again.stored == [] and again.acked == [] and again.bytes == 0
        assert synckit.db_state(db_path) == first  # syncing twice changes nothing
    finally:
        sim.stop()


# Where each power cut falls, as a share of the wire bytes the sync still
# needs at that point: together they land from the first request to the
# last ack of the whole transfer.
CUT_SHARES = (0.04, 0.3, 0.5, 0.7, 0.9)


def test_power_cuts_mid_sync_resume_to_the_clean_database(tmp_path):
    import shutil

    flash, _made = board_with_games(tmp_path / "clean", games=4)
    # The same flash contents for the cut run: game ids carry a tag drawn
    # when a data folder is first used, so a fresh folder would differ.
    shutil.copytree(flash, tmp_path / "cut" / "flash")
    sim = SimProcess(flash).start()
    clean_db = tmp_path / "clean.db"
    try:
        total = run_sync(sim.port, clean_db).wire
    finally:
        sim.stop()

    flash = tmp_path / "cut" / "flash"
    db_path = tmp_path / "cut.db"
    left = total  # wire bytes the sync still needs, at least (see CUT_SHARES)
    cut_at = []
    for share in CUT_SHARES:
        sim = SimProcess(flash).start()
        board = synckit.PortEnd(sim.port, power_off=sim.kill)
        faults = synckit.Faults(random.Random(0), cut_after=max(1, int(left * share)), reboot=True)
        relay = synckit.Relay(board, faults)
        try:
            with pytest.raises(LinkError):
                run_sync(relay.path, db_path, timeout=0.5)
        finally:
            relay.close()
            board.close()
            sim.kill()
        # The board lost power at that byte, under the sync, every time.
        assert relay.cut_done and relay.rebooted, "cut %d never came" % len(cut_at)
        cut_at.append(total - left + relay.wire)
        # What the cut run moved counts at most once towards the rest.
        left = left - relay.wire
    assert cut_at[-1] > 0.8 * total and cut_at[0] < 0.1 * total, (cut_at, total)
    sim = SimProcess(flash).start()
    try:
        res = run_sync(sim.port, db_path)
    finally:
        sim.stop()
    assert res.problems == []
    got = synckit.db_state(db_path)
    want = synckit.db_state(clean_db)
    assert got == want
