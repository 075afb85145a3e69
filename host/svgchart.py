"""The report's charts as inline SVG text: a few hundred bytes each where
a PNG was tens of kilobytes, drawn in microseconds where matplotlib took
tens of milliseconds, and crisp at any zoom. No script, no external file:
the page stays self-contained and works offline.

Lines are told apart by colour *and* dash pattern (for a black and white
print), each has its label's colour swatch in the legend, and its name at
its end. A series of one point (a player's one game of a title) is drawn
as a dot, since a line needs two. Lines with equal scores are drawn a few
pixels apart where they meet (spread), so none hides another. Legend
entries go left to right, a new row when the next would not fit.
Axes carry whole-number ticks only: rounds, chips and points are whole."""

import math
from html import escape

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
DASHES = ("", "6 3", "2 2", "8 3 2 3", "1 3", "10 4", "4 2 1 2 1 2", "12 2")


# A label's width a character, estimated (the report draws chart text at
# 11 px): room for the end labels and the legend's spacing.
CHAR_PX = 7
SWATCH_PX = 28  # a legend entry's swatch and the gap before its name
ENTRY_GAP = 16  # between legend entries on a row
DOT_R = 4  # a one-point series' dot


def style(k):
    """(colour, dash pattern) of the k-th line: every pair distinct."""
    return COLOURS[k % len(COLOURS)], DASHES[(k + k // len(COLOURS)) % len(DASHES)]


def int_ticks(lo, hi, most=8):
    """Whole-number ticks covering lo..hi, at most `most`, in steps of 1,
    2 or 5 times a power of ten."""
    lo, hi = math.floor(lo), math.ceil(hi)
    if hi <= lo:
        hi = lo + 1
    step, k = 1, 0
    while True:
        first, last = lo // step * step, -(-hi // step) * step
        if (last - first) // step + 1 <= most:
            return list(range(first, last + 1, step))
        k += 1
        step = (1, 2, 5)[k % 3] * 10 ** (k // 3)


def _n(x):
    """A coordinate, short: one decimal at most ("12", "12.5"). One
    format call: a report draws a million of these."""
    s = "%.1f" % x
    if s.endswith(".0"):
        s = s[:-2]
        return "0" if s == "-0" else s
    return s


SPREAD_PX = 3  # how far apart lines that share a point are drawn


def spread(series):
    """Per line and point, a vertical shift in pixels: where several lines
    pass through the same value at the same x (equal scores), they are
    drawn SPREAD_PX apart around it, in the lines' order, so none hides
    another; a point no other line shares is not moved."""
    shift = [[0.0] * len(ys) for _, ys in series]
    n = max(len(ys) for _, ys in series)
    lines = [ys for _, ys in series]
    for i in range(n):
        here = [ys[i] for ys in lines if i < len(ys)]
        if len(set(here)) == len(here):
            continue  # no two lines meet at this x: nothing moves
        at = {}
        for k, (_, ys) in enumerate(series):
            if i < len(ys):
                at.setdefault(ys[i], []).append(k)
        for ks in at.values():
            for j, k in enumerate(ks):
                shift[k][i] = (j - (len(ks) - 1) / 2) * SPREAD_PX
    return shift


def legend_places(labels, left, right):
    """(x, row) of each legend entry: left to right from x=left, a new row
    before an entry that would pass x=right, so no two overlap."""
    out, x, row = [], left, 0
    for label in labels:
        w = SWATCH_PX + CHAR_PX * len(label)
        if x > left and x + w > right:
            x, row = left, row + 1
        out.append((x, row))
        x += w + ENTRY_GAP
    return out


def line_chart(series, xlabel, ylabel, title="", width=640, height=300, start=0):
    """series: [(label, [y at x=start, y at start+1, ...])] -> <svg> text.
    An empty series list gives an empty string."""
    series = [(label, ys) for label, ys in series if ys]
    if not series:
        return ""
    n = max(len(ys) for _, ys in series)
    allys = [y for _, ys in series for y in ys]
    xt = int_ticks(start, start + max(1, n - 1), most=12)
    yt = int_ticks(min(allys), max(allys))
    # room on the right for the lines' end labels
    longest = max(len(", ".join(label for label, ys in series if ys[-1] == y)) for y in {ys[-1] for _, ys in series})
    left, right, top, bottom = 44, min(10 + CHAR_PX * longest, width // 3), 24 if title else 10, 34
    legend = legend_places([label for label, _ in series], left, width - 4)
    legend_h = 16 * (legend[-1][1] + 1)
    h = height + legend_h
    pw, ph = width - left - right, height - top - bottom
    x0, x1, y0, y1 = xt[0], xt[-1], yt[0], yt[-1]

    def X(x):
        return left + (x - x0) * pw / (x1 - x0)

    def Y(y):
        return top + ph - (y - y0) * ph / (y1 - y0)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" '
           'class="chart"><title>%s</title>' % (width, h, width, h, escape(title or ylabel))]
    if title:
        out.append('<text x="%d" y="15" class="t">%s</text>' % (left, escape(title)))
    grid = []
    for t in yt:
        grid.append("M%d %sH%d" % (left, _n(Y(t)), left + pw))
        out.append('<text x="%d" y="%s" class="yl">%d</text>' % (left - 4, _n(Y(t) + 4), t))
    for t in xt:
        grid.append("M%s %dV%d" % (_n(X(t)), top, top + ph))
        out.append('<text x="%s" y="%d" class="xl">%d</text>' % (_n(X(t)), top + ph + 14, t))
    out.append('<path class="g" d="%s"/>' % "".join(grid))
    out.append('<text x="%d" y="%d" class="xl">%s</text>' % (left + pw // 2, top + ph + 28, escape(xlabel)))
    out.append('<text transform="translate(11 %d) rotate(-90)" class="xl">%s</text>'
               % (top + ph // 2, escape(ylabel)))
    shift = spread(series)
    # each x and each unmoved y is formatted once, not once per point
    xs = [_n(X(start + i)) + "," for i in range(n)]
    yname = {y: _n(Y(y)) for y in set(allys)}
    for k, (label, ys) in enumerate(series):
        colour, dash = style(k)
        moved = shift[k]
        if len(ys) == 1:
            out.append('<circle cx="%s" cy="%s" r="%d" fill="%s"><title>%s</title></circle>'
                       % (_n(X(start)), _n(Y(ys[0]) + moved[0]), DOT_R, colour, escape(label)))
            continue
        pts = " ".join([xs[i] + (_n(Y(y) + moved[i]) if moved[i] else yname[y]) for i, y in enumerate(ys)])
        out.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"><title>%s</title></polyline>'
                   % (colour, ' stroke-dasharray="%s"' % dash if dash else "", pts, escape(label)))
    # each line's end labelled with its name; lines ending on one score share one label
    ends = {}
    for k, (label, ys) in enumerate(series):
        ends.setdefault((len(ys), ys[-1]), []).append(label)
    for (n_pts, y), labels in sorted(ends.items()):
        out.append('<text x="%s" y="%s" class="end">%s</text>'
                   % (_n(X(start + n_pts - 1) + 4), _n(Y(y) + 4), escape(", ".join(labels))))
    for k, ((label, ys), (lx, row)) in enumerate(zip(series, legend)):
        colour, dash = style(k)
        ly = height + 4 + 16 * row
        if len(ys) == 1:  # the swatch is what the chart draws: a dot, or a line
            swatch = '<circle cx="%d" cy="%d" r="%d" fill="%s"/>' % (lx + 12, ly, DOT_R, colour)
        else:
            swatch = '<path stroke="%s" stroke-width="2"%s d="M%d %dh24"/>' % (
                colour, ' stroke-dasharray="%s"' % dash if dash else "", lx, ly)
        out.append('%s<text x="%d" y="%d">%s</text>' % (swatch, lx + SWATCH_PX, ly + 4, escape(label)))
    out.append("</svg>")
    return "".join(out)


def interval_bars(rows, width=640):
    """Win rates as bars with their 95% interval as a whisker and "wins/
    plays" beside: rows of {player, wins, plays, win_rate, low, high}."""
    if not rows:
        return ""
    name_w = 110
    bar_h, gap = 14, 6
    h = 24 + len(rows) * (bar_h + gap) + 20
    pw = width - name_w - 70

    def X(v):
        return name_w + v * pw

    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" '
           'class="chart"><title>win rate per player with its 95%% interval</title>' % (width, h, width, h)]
    grid = []
    for pct in range(0, 101, 20):
        grid.append("M%s 18V%d" % (_n(X(pct / 100)), h - 20))
        out.append('<text x="%s" y="%d" class="xl">%d%%</text>' % (_n(X(pct / 100)), h - 6, pct))
    out.append('<path class="g" d="%s"/>' % "".join(grid))
    for i, r in enumerate(rows):
        y = 20 + i * (bar_h + gap)
        out.append('<text x="%d" y="%d" class="yl">%s</text>' % (name_w - 6, y + 11, escape(r["player"])))
        out.append('<rect x="%d" y="%d" width="%s" height="%d" fill="#9cb8dc"/>'
                   % (name_w, y, _n(X(r["win_rate"]) - name_w), bar_h))
        out.append('<path stroke="#223" stroke-width="1.5" d="M%s %sH%sM%s %dv%dM%s %dv%d"/>'
                   % (_n(X(r["low"])), y + bar_h // 2, _n(X(r["high"])), _n(X(r["low"])), y + 3, bar_h - 6,
                      _n(X(r["high"])), y + 3, bar_h - 6))
        out.append('<text x="%s" y="%d">%d/%d</text>' % (_n(X(1) + 6), y + 11, r["wins"], r["plays"]))
    out.append("</svg>")
    return "".join(out)
