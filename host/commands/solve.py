"""`moontable solve [FILE]`: the best possible Moonstar round for each
situation, one JSON object per line, from FILE or standard input.

Each line gets one output line: the solver's result ({"best", "plan",
"favorite"}) with --json, otherwise the plan in words. A line that is not a
JSON object, or whose situation breaks the set-up rules, gets
{"error": "line N: ..."} instead; the other lines are still solved, and the
command exits 2 at the end if any line failed. Blank lines are skipped.
"""

import json
import sys

from shared_rules.errors import RuleError
from shared_rules.moonstar_board import STARS
from shared_rules.solver import solve

HELP = "solve Moonstar situations (JSON lines): the best possible round and a plan that reaches it"


def add_arguments(parser):
    parser.add_argument("file", nargs="?", metavar="FILE",
                        help="JSON-lines file of situations (default: standard input)")
    parser.add_argument("--json", action="store_true", help="print each result as one JSON object")


def direction(start, die, to):
    """How the move goes, in words (Game 9's double and half moves too)."""
    if (start + die) % STARS == to:
        return "clockwise"
    if (start - die) % STARS == to:
        return "counter-clockwise"
    if (start + 2 * die) % STARS == to:
        return "clockwise double (%d stars)" % (2 * die)
    if die // 2 == 0:
        return "counter-clockwise half (0 stars, it stays)"
    return "counter-clockwise half (%d stars)" % (die // 2)


def describe(sit, result):
    """The readable form of one result: a headline, then one line a move."""
    moons = sit["moons"]
    dice = sit["dice"]
    lines = ["best possible: %d" % result["best"]]
    if result["favorite"] is not None:
        lines.append("  Favorite Star on star %d" % result["favorite"])
    for move in result["plan"]:
        m, d, to = move["moon"], move["die"], move["to"]
        lines.append("  moon %d (star %d) takes die %d (a %d) %s to star %d"
                     % (m, moons[m], d, dice[d], direction(moons[m], dice[d], to), to))
    left = len(moons) - len(result["plan"])
    if left > 0:
        lines.append("  %d moon%s no die" % (left, "s get" if left > 1 else " gets"))
    return "\n".join(lines)


def solve_line(text, lineno):
    """(situation, result) for one input line; RuleError naming the line."""
    try:
        sit = json.loads(text)
    except ValueError as e:
        raise RuleError("line %d: not valid JSON (%s)" % (lineno, e)) from None
    try:
        return sit, solve(sit)
    except RuleError as e:
        raise RuleError("line %d: %s" % (lineno, e)) from None


def run(args):
    if args.file:
        try:
            source = open(args.file, encoding="utf-8")
        except OSError as e:
            print("moontable solve: cannot read %s: %s" % (args.file, e.strerror), file=sys.stderr)
            return 2
    else:
        source = sys.stdin
    failed = 0
    with source:
        for lineno, text in enumerate(source, 1):
            if not text.strip():
                continue
            try:
                sit, result = solve_line(text, lineno)
            except RuleError as e:
                failed += 1
                print(json.dumps({"error": str(e)}))
                continue
            print(json.dumps(result) if args.json else describe(sit, result))
    if failed:
        print("moontable solve: %d line%s failed" % (failed, "s" if failed > 1 else ""), file=sys.stderr)
        return 2
    return 0
