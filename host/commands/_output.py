"""Output shared by the `moontable` subcommands: --json prints one JSON
document and a newline, the same way in every command. The leading _ keeps
moontable.cli from taking this module for a subcommand."""

import json
import sys


def print_json(data, indent=None):
    """Write data to stdout as JSON (indented when asked), then a newline."""
    json.dump(data, sys.stdout, indent=indent)
    sys.stdout.write("\n")


def print_listing(rows, as_json, empty, lines, header=None):
    """A listing the way every command prints one: with --json the rows as
    indented JSON; otherwise `empty` when there are none, or the header
    (if any) and then the lines(row) of each row."""
    if as_json:
        print_json(rows, indent=1)
    elif not rows:
        print(empty)
    else:
        if header is not None:
            print(header)
        for row in rows:
            for line in lines(row):
                print(line)
