"""A volume tag in index.json that is not the firmware's own form: before,
"TAG" made new games 00005-TAG that `ls` never listed (so they never
synced, with no warning) and "../../x" gave a traceback when a game was
started. Now the tag is checked at boot (a new one drawn, a warning), and
`ls` lists every journal a game id can name, those an old index named
00005-TAG too. The journal runs under the real `micropython`; the sync is
the real one over a pty."""

import json
import os
import re
import subprocess

import pytest

import synckit
from moontable.cli import main

SCRIPT = r"""
import sys, json
sys.path.insert(0, ROOT)
sys.path.insert(0, ROOT + "/firmware")
from store.journal import Journal
from store.files import Store
from link.protocol import PAGE
j = Journal(Store(DATA))
header = {"type": "header", "game": "moons", "players": ["A", "B"], "options": {}, "rules": 1}
gid = j.new_game(header)
j.finish()
rows = []
start = 0
while start is not None:
    page, start, total = j.page(start, PAGE)
    rows += [r["id"] for r in page]
print(json.dumps({"id": gid, "warnings": j.warnings, "listed": rows}))
"""


def run_upy(folder):
    code = SCRIPT.replace("ROOT", repr(synckit.ROOT)).replace("DATA", repr(folder))
    proc = subprocess.run([synckit.micropython(), "-c", code], capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr.decode() + proc.stdout.decode()
    return json.loads(proc.stdout.decode().splitlines()[-1])


OWN = re.compile(r"^\d{5}-[abcdefghjkmnpqrstuvwxyz23456789]{4}$")


@pytest.mark.parametrize("tag", ["TAG", "../../x", "", 7, "abc", "abcd/", "ABCD", "a-b-"])
def test_a_tag_not_of_the_firmware_form_is_replaced_and_every_game_is_listed(tmp_path, tag):
    folder = str(tmp_path / "data")
    j, made = synckit.make_device(folder, games=2, open_game=False, seed=3, max_events=6)
    idx = j.store.read_json("index.json", None)
    idx["vol"] = tag
    j.store.write_json("index.json", idx)
    out = run_upy(folder)
    assert OWN.match(out["id"]), out
    assert os.path.isfile(os.path.join(folder, "games", out["id"] + ".jsonl"))
    assert out["listed"] == [g for g, _, _ in made] + [out["id"]]
    if tag != "":
        assert any("volume tag" in w for w in out["warnings"]), out
    assert not os.path.exists(os.path.join(str(tmp_path), "x.jsonl"))


def test_games_an_old_index_named_with_its_tag_are_listed_and_synced(tmp_path, capsys):
    """00005-TAG.jsonl, left by a firmware that took the index's tag as it
    was: listed by `ls` and stored by a sync; a journal whose name no
    game id has is named at boot instead of passed over in silence."""
    folder = str(tmp_path / "data")
    j, made = synckit.make_device(folder, games=1, open_game=False, seed=4, max_events=6)
    header, events = synckit.moonstar_game(["Ann", "Bob", "Cy"], 41, max_events=8)
    head = dict(header, id="00002-TAG")  # as the old firmware wrote it, named by the index's tag
    with open(os.path.join(folder, "games", "00002-TAG.jsonl"), "wb") as f:
        f.write(synckit.journal_bytes([head] + events))
    with open(os.path.join(folder, "games", "junk name.jsonl"), "wb") as f:
        f.write(b"x\n")
    out = run_upy(folder)
    assert out["listed"][:2] == [made[0][0], "00002-TAG"]
    assert any("junk name.jsonl is not named like a game" in w for w in out["warnings"]), out
    dev = synckit.Device(folder, device_id="dev-t", direct=True)
    try:
        status = main(["sync", "--port", dev.path, "--db", str(tmp_path / "m.db"), "--json", "--quiet",
                       "--timeout", "10"])
    finally:
        dev.close()
    res = json.loads(capsys.readouterr().out)
    assert status == 0
    assert sorted(res["stored"]) == sorted([made[0][0], "00002-TAG", out["id"]]), res
