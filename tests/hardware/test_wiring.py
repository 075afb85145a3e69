"""The wiring diagrams are current (regenerated in memory, byte for byte)
and every GPIO they show comes from the board's pin map, on the right wire."""

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hardware"))

import wiring  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"


def pins(board):
    cfg = json.loads((ROOT / "hardware" / "boards" / ("%s.json" % board)).read_text())
    want = {"wire-sda": cfg["i2c"]["sda"], "wire-scl": cfg["i2c"]["scl"], "wire-buzzer": cfg["buzzer"]["pin"]}
    for name, pin in cfg["buttons"].items():
        want["wire-button-" + name] = pin
    return want


def test_svgs_are_current():
    for board in wiring.DIAGRAM_BOARDS:
        on_disk = wiring.path(board).read_text(encoding="utf-8")
        assert on_disk == wiring.svg(board), "hardware/wiring-%s.svg is stale: run `make hardware`" % board


def test_every_gpio_in_the_diagrams_comes_from_the_pin_map():
    for board in wiring.DIAGRAM_BOARDS:
        tree = ET.fromstring(wiring.path(board).read_text(encoding="utf-8"))
        want = pins(board)
        seen = {}
        for g in tree.iter(NS + "g"):
            if g.get("data-pin") is not None:
                seen[g.get("id")] = int(g.get("data-pin"))
                # the label drawn on that wire names the same GPIO
                text = " ".join(t.text or "" for t in g.iter(NS + "text"))
                shown = [int(n) for n in re.findall(r"\bGP(?:IO)?(\d+)\b", text)]
                assert shown == [seen[g.get("id")]], (board, g.get("id"), text)
        assert seen == want, board
        every = " ".join(t.text or "" for t in tree.iter(NS + "text"))
        assert sorted(int(n) for n in re.findall(r"\bGP(?:IO)?(\d+)\b", every)) == sorted(want.values())


def test_pico_physical_pins_match_the_pin_map_notes():
    # pico.json's notes name the physical pins; the diagram must agree
    cfg = json.loads((ROOT / "hardware/boards/pico.json").read_text())
    for gp, phys in ((cfg["i2c"]["sda"], 6), (cfg["i2c"]["scl"], 7), (cfg["buzzer"]["pin"], 20)):
        assert wiring.PICO_PHYSICAL[gp] == phys
    assert "GP15 · pin 20" in wiring.svg("pico")
