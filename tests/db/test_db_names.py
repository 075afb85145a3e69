"""Names at import (issue 22, "Names and people"): `replay` and `import`
agree on names that differ only in case, for every letter, and refuse
invisible characters, special spaces, edge spaces and decomposed accents
in an imported log with the rule's own words; the game is quarantined
whole and nothing else changes."""

import json

import pytest

import dbkit
from moontable.db import Database

CASES = [
    (["Stra\u00dfe", "STRASSE", "Bo"], "\"STRASSE\" is used twice (names are compared without case)"),
    (["\u00c9mile", "\u00e9mile", "Bo"], "\"\u00e9mile\" is used twice"),
    (["\u0410\u043d\u044f", "\u0430\u043d\u042f", "Bo"], "is used twice"),
    (["Ann\u200b", "Bob", "Cy"], "invisible character (U+200B)"),
    (["Ann\u00a0Lee", "Bob", "Cy"], "special space (U+00A0)"),
    (["Ann ", "Bob", "Cy"], "starts or ends with a space"),
    (["Zoe\u0308", "Bob", "Cy"], "combining accent (U+0308)"),
]


def _log(players):
    return (json.dumps({"type": "header", "game": "moon", "players": players, "options": {}, "rules": 1},
                       ensure_ascii=False) + "\n").encode()


@pytest.mark.parametrize("players,words", CASES)
def test_replay_and_import_agree(tmp_path, players, words):
    path = tmp_path / "g.jsonl"
    path.write_bytes(_log(players))
    code, out, err = dbkit.cli("replay", path)
    assert code == 2 and words in err, (code, out, err)
    db = Database.open(tmp_path / "m.db")
    before = db.dump(skip=("quarantine",))
    status, msg, _ = db.import_log(path)
    assert status == "quarantined" and words in msg, msg
    assert db.dump(skip=("quarantine",)) == before
    db.close()


def test_composed_names_are_accepted(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(_log(["Zo\u00eb", "\u00c9mile", "\u0410\u043d\u044f"]))
    assert dbkit.cli("replay", path)[0] == 0
    db = Database.open(tmp_path / "m.db")
    assert db.import_log(path)[0] == "stored"
    db.close()
