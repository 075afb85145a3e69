"""`moontable solve [FILE]`: the best possible Moonstar round for each
situation, one JSON object per line, from FILE or standard input.

Each line gets its answer: with --json one line, the solver's result
({"best", "plan", "favorite"}), otherwise the plan in words. A line that is
not a JSON object, or whose situation breaks the set-up rules, gets
{"error": "line N: ..."} with --json and "error: line N: ..." otherwise;
the other lines are still solved, and the command exits 2 at the end if
any line failed. Blank lines are skipped.
"""

import json
import sys

from shared_rules.errors import RuleError
from shared_rules.moonstar.board import MOVEMENTS, PLANET_MAX, SCORINGS, STARS
from shared_rules.moonstar.solver import solve

HELP = "solve Moonstar situations (JSON lines): the best possible round and a plan that reaches it"


def _or(words):
    return ", ".join(words[:-1]) + " or " + words[-1]


# What `solve --help` says a situation holds: the fields check_situation
# (shared_rules/moonstar/check.py) reads, with the choices and defaults
# the rules core has.
FIELDS = ("Each line is one situation, a JSON object: moons (required: the star each moon is on, 0-%d), "
          "dice (required: the number each die shows, 1-6), planets ([[star, value], ...], values 1-%d; "
          "default none), scoring (%s; default planets), movement (%s; default standard), favorite_star "
          "(true or false; default false) and stars (%d, the board's). Example: "
          '{"moons": [0, 1], "dice": [1, 5], "planets": [[5, 10], [2, 10]]}'
          % (STARS - 1, PLANET_MAX, _or(SCORINGS), _or(MOVEMENTS), STARS))


def add_arguments(parser):
    parser.epilog = FIELDS
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
    except RecursionError:
        raise RuleError("line %d: the JSON nests too deeply to be a situation" % lineno) from None
    try:
        return sit, solve(sit)
    except RuleError as e:
        raise RuleError("line %d: %s" % (lineno, e)) from None
    except (TypeError, KeyError, IndexError, AttributeError, ValueError, RecursionError) as e:
        # The solver names bad situations itself; anything that slips past
        # is still one line of error, never a traceback.
        raise RuleError("line %d: not a Moonstar situation (%s)" % (lineno, e)) from None


# The longest line read as a situation: a situation is a few hundred
# bytes, so a longer line is junk (or /dev/zero, which never ends one);
# below this it is still read and named (a nesting too deep, say).
MAX_LINE = 1 << 20


class TooLong(Exception):
    """A line ran past MAX_LINE: reading stops there (it may never end)."""


def _lines(source):
    """(line number, text) of each line; RuleError for bytes that are not
    UTF-8 (the line is named, the rest still solved). TooLong when a line
    runs past MAX_LINE bytes: what follows is not read."""
    lineno = 0
    while True:
        raw = source.readline(MAX_LINE + 1)
        if not raw:
            return
        lineno += 1
        if len(raw) > MAX_LINE:
            raise TooLong("line %d is longer than %d MiB, and no situation is: stopped reading there"
                          % (lineno, MAX_LINE >> 20))
        if isinstance(raw, str):  # a text stream (already decoded)
            yield lineno, raw, None
            continue
        try:
            yield lineno, raw.decode("utf-8"), None
        except UnicodeDecodeError as e:
            yield lineno, None, RuleError("line %d: not UTF-8 text (byte 0x%02x at column %d)"
                                          % (lineno, raw[e.start], e.start + 1))


def run(args):
    if args.file:
        try:
            source = open(args.file, "rb")
        except IsADirectoryError:
            print("moontable solve: %s is a folder, not a file of situations" % args.file, file=sys.stderr)
            return 2
        except OSError as e:
            print("moontable solve: cannot read %s: %s" % (args.file, e.strerror), file=sys.stderr)
            return 2
    else:
        source = getattr(sys.stdin, "buffer", sys.stdin)
    failed = 0
    stopped = None
    with source:
        try:
            for lineno, text, err in _lines(source):
                if err is None and not text.strip():
                    continue
                try:
                    if err is not None:
                        raise err
                    sit, result = solve_line(text, lineno)
                except RuleError as e:
                    failed += 1
                    print(json.dumps({"error": str(e)}) if args.json else "error: %s" % e)
                    continue
                print(json.dumps(result) if args.json else describe(sit, result))
        except TooLong as e:
            stopped = str(e)
    if stopped:
        print("moontable solve: %s%s" % (stopped, "" if not failed else " (and %d line%s failed before it)"
                                         % (failed, "s" if failed > 1 else "")), file=sys.stderr)
        return 2
    if failed:
        print("moontable solve: %d line%s failed" % (failed, "s" if failed > 1 else ""), file=sys.stderr)
        return 2
    return 0
