"""`moontable report [--out DIR]`: one self-contained HTML page (every chart
embedded as a base64 PNG, so it can be mailed or opened offline) with
player statistics and each game's score progression, plus the same charts
as PNG files beside it.

Each finished game also gets a "Send to BG Stats" link and the same link
as a QR code (inline SVG): point a phone at the screen and BG Stats opens
with the play filled in. Those links are the page's only external ones.

matplotlib is imported only here, with the Agg backend (no display needed).
"""

import base64
import datetime
import html
import os

from host import bgstats
from host import db as dbmod
from host.commands.export import output_target, write_atomically
from host.commands.standings import collect
from shared_rules import display_name

HELP = "write an HTML report with score-progression charts and player statistics (plus PNG charts)"


def add_arguments(parser):
    parser.add_argument("--out", metavar="DIR", default="moontable-report",
                        help="folder to write index.html and the PNG charts to (default: ./moontable-report)")
    parser.add_argument("--last", type=int, metavar="N", help="chart only the N most recent games")
    dbmod.add_db_argument(parser)


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(plt, fig, path):
    """Write the PNG and return its bytes (for embedding). A symbolic link
    is written through, anything but a regular file refused
    (export.output_target): a named pipe there would hang the report."""
    try:
        path = output_target(path)
    except dbmod.DbError:
        plt.close(fig)
        raise
    fig.savefig(path, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    with open(path, "rb") as f:
        return f.read()


# Line styles that stay apart where scores run together: each seat gets its
# own marker and dash pattern as well as its own colour.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
DASHES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 2)), (0, (8, 2)))


def game_chart(plt, g, path):
    from matplotlib.ticker import MaxNLocator
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    rounds = g["round_scores"]
    xs = list(range(0, len(rounds) + 1))
    # Partners share their chips: one line per partnership, named by its
    # players, instead of two identical lines one on top of the other.
    series = bgstats.partnerships(g["game"], g["options"], g["players"]) or [
        (name, [seat]) for seat, name in enumerate(g["players"])]
    for k, (label, seats) in enumerate(series):
        seat = seats[0]
        ys = [g["start_scores"][seat]] + [r[seat] for r in rounds]
        ax.plot(xs, ys, marker=MARKERS[k % len(MARKERS)], markersize=4 + (k % 3),
                linestyle=DASHES[k % len(DASHES)], linewidth=1.5, label=dbmod.printable(label),
                alpha=0.9, zorder=3 + len(series) - k, markerfacecolor="none" if k % 2 else None)
    # Rounds, chips and points are whole numbers: never 0.5 ticks.
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0, max(1, len(rounds)))
    ax.set_xlabel("round")
    ax.set_ylabel("chips" if g["game"] == "shoot-the-moon" else "score")
    ax.set_title("game %d: %s, %s" % (g["id"], display_name(g["game"]), g["date"]))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", loc="upper left")
    fig.tight_layout()
    return _save(plt, fig, path)


def players_chart(plt, rows, path):
    fig, ax = plt.subplots(figsize=(6.4, max(2.0, 0.4 * len(rows) + 1)))
    names = [r["player"] for r in rows][::-1]
    rates = [100.0 * r["win_rate"] for r in rows][::-1]
    bars = ax.barh(names, rates, color="#4a7ab5")
    for bar, r in zip(bars, rows[::-1]):
        ax.text(bar.get_width() + 1, bar.get_y() + bar.get_height() / 2,
                "%d/%d" % (r["wins"], r["games"]), va="center", fontsize="small")
    ax.set_xlim(0, 110)
    ax.set_xlabel("win rate (%), finished games")
    ax.set_title("players")
    fig.tight_layout()
    return _save(plt, fig, path)


def _img(png, alt):
    return '<img alt="%s" src="data:image/png;base64,%s">' % (html.escape(alt), base64.b64encode(png).decode("ascii"))


def _send_to_bgstats(g):
    """The game's BG Stats link and its QR code, side by side."""
    url = bgstats.link(bgstats.play(g))
    return ('<div class="bgstats">%s<p><a href="%s">Send to BG Stats</a><br>'
            "<small>or scan the code with the phone that has BG Stats</small></p></div>"
            % (bgstats.qr_svg(url), html.escape(url, quote=True)))


def _stats_table(rows):
    if not rows:
        return "<p>No finished games.</p>"
    out = ["<table><tr><th>rank</th><th class=name>player</th><th>games</th><th>wins</th><th>win rate</th></tr>"]
    for r in rows:
        out.append("<tr><td>%d</td><td class=name>%s</td><td>%d</td><td>%d</td><td>%.1f%%</td></tr>"
                   % (r["rank"], html.escape(r["player"]), r["games"], r["wins"], 100.0 * r["win_rate"]))
    out.append("</table>")
    return "\n".join(out)


STYLE = """body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .6em;text-align:right}
td:first-child,th:first-child{text-align:left}img{max-width:100%}section{margin-bottom:2em}
td.name,th.name{text-align:left}.bgstats{display:flex;gap:1em;align-items:center}.bgstats svg{flex:none}"""


def build(db, out_dir, last=None):
    """Write index.html and the PNGs into out_dir; return the list of files."""
    plt = _pyplot()
    os.makedirs(out_dir, exist_ok=True)
    summaries = db.games()
    if last is not None:
        summaries = summaries[-last:] if last > 0 else []
    stats = collect(db)
    written = []
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>moontable report</title><style>%s</style></head><body>" % STYLE,
             "<h1>moontable report</h1>",
             "<p>%d games stored; generated %s.</p>" % (len(db.games()),
                                                       datetime.datetime.now().strftime("%Y-%m-%d %H:%M")),
             "<h2>Players</h2>", _stats_table(stats["overall"])]
    if stats["overall"]:
        path = os.path.join(out_dir, "players.png")
        parts.append(_img(players_chart(plt, stats["overall"], path), "win rate per player"))
        written.append(path)
    for name, rows in stats["by_game"].items():
        parts.append("<h3>%s</h3>" % html.escape(display_name(name)))
        parts.append(_stats_table(rows))
    parts.append("<h2>Games</h2>")
    for s in summaries:
        g = db.game(s["id"])
        g.pop("journal")
        winner = ", ".join(g["winners"]) if g["finished"] else "not finished"
        parts.append("<section><h3>Game %d: %s</h3><p>%s &middot; %d rounds &middot; winner: %s</p>"
                     % (g["id"], html.escape(g["game_name"]), html.escape(g["date"]), g["rounds"],
                        html.escape(winner)))
        if g["round_scores"]:
            path = os.path.join(out_dir, "game-%d.png" % g["id"])
            parts.append(_img(game_chart(plt, g, path), "score progression of game %d" % g["id"]))
            written.append(path)
        parts.append("<table><tr><th>rank</th><th class=name>player</th><th>score</th></tr>")
        for seat in sorted(range(len(g["players"])), key=lambda i: (g["ranks"][i], i)):
            parts.append("<tr><td>%d</td><td class=name>%s</td><td>%d</td></tr>"
                         % (g["ranks"][seat], html.escape(g["players"][seat]), g["scores"][seat]))
        parts.append("</table>")
        if g["finished"]:
            parts.append(_send_to_bgstats(g))
        parts.append("</section>")
    parts.append("</body></html>")
    index = os.path.join(out_dir, "index.html")
    write_atomically(index, "\n".join(parts) + "\n")  # a full disk keeps the previous page whole
    written.insert(0, index)
    return written


def _body(args):
    if args.last is not None and args.last < 0:
        raise dbmod.DbError("--last must be 0 or more, not %d" % args.last)
    with dbmod.open_for(args, readonly=True) as db:
        try:
            files = build(db, args.out, args.last)
        except OSError as e:
            raise dbmod.DbError("cannot write the report to %s: %s" % (args.out, e.strerror or e))
    print("wrote %s (%d chart%s)" % (files[0], len(files) - 1, "" if len(files) == 2 else "s"))
    return 0


def run(args):
    return dbmod.guarded("report", _body, args)
