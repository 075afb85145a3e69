"""The `moontable` command line: a thin dispatcher over host/commands/."""

import argparse
import importlib
import pkgutil
import sys

import host.commands


def command_modules():
    """name -> module for every subcommand module, sorted by name."""
    found = {}
    for info in pkgutil.iter_modules(host.commands.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module("host.commands." + info.name)
        found[info.name.replace("_", "-")] = module
    return dict(sorted(found.items()))


def build_parser():
    parser = argparse.ArgumentParser(
        prog="moontable",
        description="PC tools for the moontable game-table device: simulate, flash, sync, replay and report.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in command_modules().items():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return args._run(args) or 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
