"""Reading a drawing log ($MOONSIM_DRAWLOG, boards/sim.log_drawing) for
text a player cannot read whole: text past the panel, text over other
text, a shape drawn over text after it (the title cut by the minute's
countdown), text drawn over a shape that is not its background, and a
separator line right against a text's cell."""


def frames(path):
    """Each shown frame as its list of drawing calls (name, args, text)."""
    out = []
    ops = []
    for line in open(path, encoding="utf-8", errors="replace").read().splitlines():
        if line.startswith("text "):
            head, _, s = line.partition("|")
            ops.append(("text", [int(v) for v in head.split()[1:]], s))
            continue
        parts = line.split()
        if not parts:
            continue
        name, args = parts[0], parts[1:]
        if name == "show":
            out.append(ops)
            ops = []
        elif name == "fill":
            ops = []  # a new frame from a clear panel
        else:
            ops.append((name, [int(v) for v in args if v.lstrip("-").isdigit()], None))
    return out


def box(op):
    """(x0, y0, x1, y1), exclusive ends, of what a call draws (None: a
    pixel read)."""
    name, a, s = op
    if name == "text":
        return (a[0], a[1], a[0] + 8 * len(s), a[1] + 8)
    if name in ("fill_rect", "rect"):
        return (a[0], a[1], a[0] + a[2], a[1] + a[3])
    if name == "hline":
        return (a[0], a[1], a[0] + a[2], a[1] + 1)
    if name == "vline":
        return (a[0], a[1], a[0] + 1, a[1] + a[2])
    if name == "line":
        return (min(a[0], a[2]), min(a[1], a[3]), max(a[0], a[2]) + 1, max(a[1], a[3]) + 1)
    if name == "pixel":
        return (a[0], a[1], a[0] + 1, a[1] + 1) if len(a) >= 3 else None
    if name == "ellipse":
        return (a[0] - a[2], a[1] - a[3], a[0] + a[2] + 1, a[1] + a[3] + 1)
    return None


def meets(p, q):
    return p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]


def edges(b):
    """A frame's four sides (a rect call draws only them)."""
    x0, y0, x1, y1 = b
    return ((x0, y0, x1, y0 + 1), (x0, y1 - 1, x1, y1), (x0, y0, x0 + 1, y1), (x1 - 1, y0, x1, y1))


def hits(op, b, other):
    """Whether what `op` drew (its box `b`) meets the box `other`."""
    if op[0] == "rect" and not (len(op[1]) > 5 and op[1][5]):
        return any(meets(e, other) for e in edges(b))
    return meets(b, other)


def holds(outer, inner):
    return outer[0] <= inner[0] and outer[1] <= inner[1] and outer[2] >= inner[2] and outer[3] >= inner[3]


def problems(ops):
    """What is wrong in one frame, as sentences naming the text."""
    found = []
    live = []  # (index, op, box) drawn so far and not covered by an overlay
    for i, op in enumerate(ops):
        b = box(op)
        if b is None:
            continue
        name, a, s = op
        # a toast: a cleared full-width band framed at once; it hides what is under it
        if (name == "fill_rect" and i + 1 < len(ops) and ops[i + 1][0] == "rect" and box(ops[i + 1]) == b
                and b[0] == 0 and b[2] == 128):
            live = [x for x in live if not meets(x[2], b)]
            continue
        if name == "text":
            if not s.strip():
                continue
            if b[0] < 0 or b[1] < 0 or b[2] > 128 or b[3] > 64:
                found.append("%r at (%d, %d) runs past the panel" % (s, a[0], a[1]))
            for _, o, ob in live:
                if o[0] == "text" and o[2].strip() and (ob[2] == b[0] or b[2] == ob[0]) and ob[1] < b[3] and b[1] < ob[3]:
                    found.append("%r at (%d, %d) runs into %r" % (s, a[0], a[1], o[2]))
                    continue
                if not hits(o, ob, b):
                    if o[0] == "vline" and (ob[0] == b[0] - 1 or ob[0] == b[2]) and ob[1] < b[3] and b[1] < ob[3]:
                        found.append("%r at (%d, %d) touches a line at x %d" % (s, a[0], a[1], ob[0]))
                    continue
                if o[0] == "text":
                    if not (o[1][:2] == a[:2] and o[2] == s):
                        found.append("%r at (%d, %d) is drawn over %r" % (s, a[0], a[1], o[2]))
                    continue
                elif not (o[0] == "fill_rect" and holds(ob, b)):
                    found.append("%r at (%d, %d) is drawn over a %s" % (s, a[0], a[1], o[0]))
        else:
            for _, o, ob in live:
                if o[0] != "text":
                    continue
                if hits(op, b, ob) and not (name == "fill_rect" and holds(b, ob)):
                    found.append("%r at (%d, %d) is cut by a %s drawn over it" % (o[2], o[1][0], o[1][1], name))
                elif name == "vline" and (b[0] == ob[0] - 1 or b[0] == ob[2]) and b[1] < ob[3] and ob[1] < b[3]:
                    found.append("%r at (%d, %d) touches a line at x %d" % (o[2], o[1][0], o[1][1], b[0]))
            if name == "fill_rect":  # what it covers whole is gone
                live = [x for x in live if not holds(b, x[2])]
        live.append((i, op, b))
    return found


def check(path):
    """Every problem of every frame, once each, with a frame's text."""
    seen = {}
    for ops in frames(path):
        for p in problems(ops):
            if p not in seen:
                seen[p] = " / ".join([o[2] for o in ops if o[0] == "text"])
    return ["%s   [screen: %s]" % (p, seen[p]) for p in seen]
