"""Wiring diagrams (hardware/wiring-<board>.svg) made from the pin maps in
hardware/boards/<board>.json, so the picture can never disagree with what
the firmware reads. Run `python hardware/wiring.py` (or `make hardware`)
after changing a pin map; tests/hardware/test_wiring.py fails while the
SVGs are stale.

Only the power pins, which the pin maps do not name, are board facts kept
here (POWER), with the Pico's GPIO -> physical pin numbering.
"""

import json
import sys
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
DIAGRAM_BOARDS = ("pico", "esp32")

# Raspberry Pi Pico header: physical pin of each GPIO (GND pins 3, 8, 13, 18, 23, 28, 33, 38).
PICO_PHYSICAL = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
                 12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26,
                 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}
# (label of the 3.3 V pin, label of the GND for the display, label of the GND for buttons/buzzer)
POWER = {
    "pico": ("3V3(OUT) · pin 36", "GND · pin 38", "GND · pin 18"),
    "esp32": ("3V3", "GND", "GND"),
}

ROW0, STEP = 120, 40
BOARD_X, BOARD_W = 30, 250
PART_X = 470
RAIL_X = 720
WIDTH, HEIGHT = 780, 600
COLORS = {"vcc": "#d62728", "gnd": "#222222", "scl": "#e6a700", "sda": "#1f77b4",
          "button": "#2ca02c", "buzzer": "#9467bd"}


def load(board):
    return json.loads((HERE / "boards" / ("%s.json" % board)).read_text())


def gpio_label(board, pin):
    if board == "pico":
        phys = PICO_PHYSICAL.get(pin)
        return "GP%d · pin %d" % (pin, phys) if phys else "GP%d" % pin
    return "GPIO%d" % pin


def rows(board, cfg):
    """(id, board-side label, pin or None, part-side label, colour) per wire."""
    vcc, gnd_a, gnd_b = POWER[board]
    out = [
        ("vcc", vcc, None, "VCC", COLORS["vcc"]),
        ("gnd", gnd_a, None, "GND", COLORS["gnd"]),
        ("scl", "SCL  " + gpio_label(board, cfg["i2c"]["scl"]), cfg["i2c"]["scl"], "SCL", COLORS["scl"]),
        ("sda", "SDA  " + gpio_label(board, cfg["i2c"]["sda"]), cfg["i2c"]["sda"], "SDA", COLORS["sda"]),
    ]
    for name in ("up", "down", "ok", "back"):
        pin = cfg["buttons"][name]
        out.append(("button-" + name, name.upper() + "  " + gpio_label(board, pin), pin, name.upper(), COLORS["button"]))
    pin = cfg["buzzer"]["pin"]
    out.append(("buzzer", "BUZZER  " + gpio_label(board, pin), pin, "+", COLORS["buzzer"]))
    out.append(("gnd-rail", gnd_b, None, "", COLORS["gnd"]))
    return out


def svg(board):
    """The diagram's SVG text (deterministic: same pin map, same bytes)."""
    cfg = load(board)
    r = rows(board, cfg)
    y = [ROW0 + i * STEP for i in range(len(r))]
    o = []
    a = o.append
    a('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
      'font-family="DejaVu Sans, Arial, sans-serif" font-size="13">' % (WIDTH, HEIGHT, WIDTH, HEIGHT))
    a('<title>moontable wiring: %s</title>' % escape(cfg["name"]))
    a('<rect width="100%" height="100%" fill="#ffffff"/>')
    a('<text x="%d" y="32" font-size="18" font-weight="bold">moontable wiring: %s</text>' % (BOARD_X, escape(cfg["name"])))
    a('<text x="%d" y="54" fill="#555">SSD1306 128x64 on I2C%d at 0x%02X, %d kHz; buttons to GND with internal pull-ups; '
      'passive piezo on PWM</text>' % (BOARD_X, cfg["i2c"]["id"], cfg["i2c"]["addr"], cfg["i2c"]["freq"] // 1000))
    # the board
    top, bottom = y[0] - 30, y[-1] + 30
    a('<rect x="%d" y="%d" width="%d" height="%d" rx="10" fill="#0b6e4f" stroke="#063d2c" stroke-width="2"/>'
      % (BOARD_X, top, BOARD_W, bottom - top))
    a('<text x="%d" y="%d" fill="#ffffff" font-weight="bold">%s</text>' % (BOARD_X + 12, top + 20, escape(board.upper())))
    # the display module spans the first four rows
    a('<rect x="%d" y="%d" width="170" height="%d" rx="6" fill="#111a2e" stroke="#000" stroke-width="2"/>'
      % (PART_X, y[0] - 22, y[3] - y[0] + 44))
    a('<rect x="%d" y="%d" width="110" height="%d" fill="#1b3a6b"/>' % (PART_X + 45, y[0] - 10, y[3] - y[0] + 20))
    a('<text x="%d" y="%d" fill="#ffffff" font-size="12">SSD1306 OLED</text>' % (PART_X + 52, y[1] + 22))
    for i, (wid, left, pin, right, color) in enumerate(r):
        yy = y[i]
        attrs = ' data-pin="%d"' % pin if pin is not None else ""
        a('<g id="wire-%s"%s>' % (wid, attrs))
        a('<circle cx="%d" cy="%d" r="5" fill="#f5c542" stroke="#000"/>' % (BOARD_X + BOARD_W, yy))
        a('<text x="%d" y="%d" fill="#ffffff" text-anchor="end">%s</text>' % (BOARD_X + BOARD_W - 12, yy + 5, escape(left)))
        if wid == "gnd-rail":
            a('<polyline points="%d,%d %d,%d %d,%d" fill="none" stroke="%s" stroke-width="3"/>'
              % (BOARD_X + BOARD_W, yy, RAIL_X, yy, RAIL_X, y[4], color))
            a('<text x="%d" y="%d" fill="#555">common GND</text>' % (RAIL_X - 110, yy - 8))
        else:
            a('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>'
              % (BOARD_X + BOARD_W, yy, PART_X, yy, color))
        if i < 4:
            a('<text x="%d" y="%d" fill="#ffffff">%s</text>' % (PART_X + 8, yy + 5, escape(right)))
        elif wid.startswith("button-"):
            # push button: two contacts and a bar, the far contact to the GND rail
            a('<circle cx="%d" cy="%d" r="4" fill="#fff" stroke="#000"/>' % (PART_X + 4, yy))
            a('<circle cx="%d" cy="%d" r="4" fill="#fff" stroke="#000"/>' % (PART_X + 54, yy))
            a('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000" stroke-width="2"/>' % (PART_X, yy - 12, PART_X + 58, yy - 12))
            a('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000" stroke-width="2"/>' % (PART_X + 29, yy - 12, PART_X + 29, yy - 20))
            a('<text x="%d" y="%d">%s</text>' % (PART_X + 70, yy - 6, escape(right)))
            a('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>' % (PART_X + 58, yy, RAIL_X, yy, COLORS["gnd"]))
            a('<circle cx="%d" cy="%d" r="4" fill="%s"/>' % (RAIL_X, yy, COLORS["gnd"]))
        elif wid == "buzzer":
            a('<circle cx="%d" cy="%d" r="16" fill="#333" stroke="#000"/>' % (PART_X + 30, yy))
            a('<text x="%d" y="%d" fill="#fff" text-anchor="middle" font-size="11">+ −</text>' % (PART_X + 30, yy + 4))
            a('<text x="%d" y="%d">piezo (passive), %d Hz</text>' % (PART_X + 54, yy - 10, cfg["buzzer"].get("freq", 0)))
            a('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>' % (PART_X + 46, yy, RAIL_X, yy, COLORS["gnd"]))
            a('<circle cx="%d" cy="%d" r="4" fill="%s"/>' % (RAIL_X, yy, COLORS["gnd"]))
        a('</g>')
    a('<text x="%d" y="%d" fill="#555" font-size="11">Module pin order varies (often GND VCC SCL SDA): wire by the '
      'labels printed on the module, not by position.</text>' % (BOARD_X, HEIGHT - 40))
    a('<text x="%d" y="%d" fill="#888" font-size="11">Generated from hardware/boards/%s.json by hardware/wiring.py; '
      'do not edit by hand.</text>' % (BOARD_X, HEIGHT - 20, board))
    a('</svg>')
    return "\n".join(o) + "\n"


def path(board):
    return HERE / ("wiring-%s.svg" % board)


def main(argv=None):
    for board in DIAGRAM_BOARDS:
        path(board).write_text(svg(board), encoding="utf-8")
        print("wrote", path(board).relative_to(HERE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
