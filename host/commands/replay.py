"""`moontable replay LOG`: replay a game log with the rules core and print
the round-by-round scores, the standings and the winner."""

import sys

from moontable.commands._output import print_json
from moontable.terminal import printable
from moontable.words import count
from shared_rules import display_name
from shared_rules.places import seat_ranks
from shared_rules.errors import LogError, RuleError
from shared_rules.log import replay_file

HELP = "replay a game log (JSON Lines) and print its rounds, standings and winner"


def add_arguments(parser):
    parser.add_argument("log", help="path of a .jsonl game log (a device journal works too)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def summary(rep):
    """The --json shape: scores and ranks in player order (ranks by the
    game's win rule, Match.placings), the winners by name (a partnership
    or a shared win names them all) and "winner", the first of them or
    null."""
    match = rep.match
    names = match.header["players"]
    places = match.placings()
    won = [names[i] for i in match.winners()]
    return {
        "game": match.header["game"],
        "game_name": display_name(match.header["game"]),
        "players": names,
        "scores": list(match.state["scores"]),
        "ranks": seat_ranks(places, len(names)),
        "order": [s for _, seats in places for s in seats],
        "winner": won[0] if won else None,
        "winners": won,
        "rounds": rep.rounds,
        "events": rep.events,
    }


def print_table(data, out):
    players = [printable(p) for p in data["players"]]
    width = max([len(p) for p in players] + [5])
    out.write("%s: %s, %s\n\n" % (display_name(data["game"]), count(data["events"], "event"),
                                   count(len(data["rounds"]), "round")))
    out.write("round " + " ".join(p.rjust(width) for p in players) + "\n")
    for i, scores in enumerate(data["rounds"], 1):
        out.write(str(i).rjust(5) + " " + " ".join(str(s).rjust(width) for s in scores) + "\n")
    out.write("\nstandings:\n")
    for i in data["order"]:
        out.write("  %d. %s %d\n" % (data["ranks"][i], players[i], data["scores"][i]))
    won = data["winners"]
    out.write("%s: %s\n" % ("winners" if len(won) > 1 else "winner",
                            ", ".join(printable(w) for w in won) if won else "none yet (game not finished)"))


def run(args):
    def fail(text):
        print("moontable replay: %s: %s" % (args.log, printable(text)), file=sys.stderr)
        return 2
    try:
        rep = replay_file(args.log)
    except FileNotFoundError:
        return fail("no such file")
    except IsADirectoryError:
        return fail("is a folder, not a game log")
    except PermissionError:
        return fail("cannot be read (permission denied)")
    except OSError as e:
        return fail("cannot be read: %s" % (e.strerror or e))
    except LogError as e:
        return fail(str(e))
    except RecursionError:
        return fail("a line nests JSON too deeply to be a game record")
    except (RuleError, TypeError, KeyError, IndexError, AttributeError, ValueError) as e:
        # The rules core names bad input itself; whatever slips past it is
        # still refused in one line.
        return fail("cannot be replayed: %s" % e)
    data = summary(rep)
    if args.json:
        print_json(data)
    else:
        print_table(data, sys.stdout)
    return 0
