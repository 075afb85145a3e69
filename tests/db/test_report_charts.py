"""Report charts: whole-number ticks (Shoot the Moon's chips used to get
0.0-1.0 ticks) and lines that can be told apart where they overlap (the
partners of a Shoot the Moon side have the same chips, so one line lay
exactly on the other)."""

import pytest

import dbkit
from host.commands import report
from host.db import Database
from shared_rules.wire import dumps


@pytest.mark.parametrize("name", dbkit.FOUR_GAMES + ("shoot-the-moon-two-players",))
def test_game_chart_has_integer_ticks_and_distinct_lines(tmp_path, monkeypatch, name):
    path = tmp_path / "m.db"
    with Database.open(path) as db:
        db.import_log(b"".join(dumps(x).encode() + b"\n" for x in dbkit.data_lines(name)))
        g = db.game(1)
    figures = []

    def keep(plt, fig, path):
        figures.append(fig)
        return b""

    monkeypatch.setattr(report, "_save", keep)
    report.game_chart(report._pyplot(), g, str(tmp_path / "c.png"))
    ax = figures[0].axes[0]
    figures[0].canvas.draw()
    for ticks in (ax.get_xticks(), ax.get_yticks()):
        assert len(ticks) >= 2 and all(float(t).is_integer() for t in ticks), ticks
    lo, hi = ax.get_xlim()
    assert lo == 0 and hi == len(g["round_scores"])
    lines = ax.get_lines()
    labels = [ln.get_label() for ln in lines]
    if name == "shoot-the-moon-pairs":  # partners share chips: one line per partnership
        assert labels == ["Ann & Cat", "Ben & Dan"]
    else:
        assert labels == g["players"]
    series = [tuple(ln.get_ydata()) for ln in lines]
    if name == "shoot-the-moon-pairs":
        assert len(set(series)) == len(series)  # no line lies exactly on another
    styles = {(ln.get_marker(), str(ln.get_linestyle()), ln.get_color()) for ln in lines}
    assert len(styles) == len(lines)
    # markers and dashes alone tell the lines apart (for a black and white print)
    assert len({ln.get_marker() for ln in lines}) == len(lines)
    assert len({str(ln.get_dashes() if hasattr(ln, "get_dashes") else ln.get_linestyle()) for ln in lines}) >= 2
    assert ax.get_title().startswith("game 1: %s," % g["game_name"])
    report._pyplot().close(figures[0])
