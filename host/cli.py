"""The `moontable` command line: a thin dispatcher over host/commands/.

Whatever goes wrong, a person gets one line on stderr and exit status 2,
never a traceback: commands raise DbError for the problems they foresee,
and main() turns the rest (a full disk under stdout, input nested too deep
to read, text that is not UTF-8) into one line too. MOONTABLE_DEBUG=1 shows
the traceback of an unforeseen error, for a bug report.
"""

import argparse
import errno
import importlib
import os
import pkgutil
import sqlite3
import sys

import moontable.commands

# Arguments that name things (players, games, devices) and are looked up or
# stored as text: they must be valid UTF-8. File paths may hold any bytes.
TEXT_ARGUMENTS = ("player", "game", "names", "device")
# What a failed write to stdout says (a full disk, a quota, /dev/full).
_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)


def command_modules():
    """name -> module for every subcommand module, sorted by name."""
    found = {}
    for info in pkgutil.iter_modules(moontable.commands.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module("moontable.commands." + info.name)
        found[info.name.replace("_", "-")] = module
    return dict(sorted(found.items()))


class _Parser(argparse.ArgumentParser):
    """argparse, but a failed write of help or usage is not swallowed:
    `moontable --help > /dev/full` must say so and exit 2 like any other
    output that cannot be written (main catches the OSError)."""

    def _print_message(self, message, file=None):
        if message:
            (file or sys.stderr).write(message)


def version_text():
    """`moontable --version`: this package's version and the firmware's it
    flashes (firmware/config.py, read from the source the board gets)."""
    from importlib.metadata import PackageNotFoundError, version

    from moontable.deploy import firmware_version

    try:
        ours = version("moontable")
    except PackageNotFoundError:
        ours = "(not installed: pip install .)"
    return "moontable %s, firmware %s" % (ours, firmware_version() or "unknown")


def _epilog():
    from moontable import config

    return config.help_text() + " Shell completion: moontable completion bash|zsh (docs/pc-tools.md)."


def build_parser():
    parser = _Parser(
        prog="moontable",
        description="PC tools for the moontable game-table device: simulate, flash, sync, replay and report.",
        epilog=_epilog(),
    )
    parser.add_argument("--version", action="version", version=version_text(),
                        help="print moontable's version and the firmware's, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in command_modules().items():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def _not_utf8(args):
    """The first name-like argument that is not valid UTF-8 (the shell
    handed us bytes Python kept as lone surrogates), as (option, value)."""
    for dest in TEXT_ARGUMENTS:
        value = getattr(args, dest, None)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str):
                try:
                    v.encode("utf-8")
                except UnicodeEncodeError:
                    return dest, v
    return None


def _silence_stdout():
    """After stdout failed, point it at /dev/null so the interpreter's own
    flush at exit cannot fail a second time (and print its own message)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


def _say(command, text):
    try:
        print("moontable%s: %s" % (" " + command if command else "", text), file=sys.stderr)
    except (OSError, ValueError):
        pass


def main(argv=None):
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        # A command's list of names takes the words after an option too
        # (`players add --db X Ann Bob`): argparse gives a positional list
        # only the words before the first option. Anything else left over
        # is an error, as parse_args() would say.
        if extra and isinstance(getattr(args, "names", None), list) and not any(w.startswith("-") for w in extra):
            args.names += extra
        elif extra:
            parser.error("unrecognized arguments: %s" % " ".join(extra))
        if not getattr(args, "_run", None):
            parser.print_help()
            sys.stdout.flush()
            return 2
    except SystemExit:  # --help, or a usage error (argparse has said which)
        if _stdout_failed():
            _silence_stdout()
            _say("", "cannot write the output")
            return 2
        raise
    except OSError as e:
        _silence_stdout()
        _say("", "cannot write the output: %s" % (e.strerror or e))
        return 2
    command = args.command
    from moontable import config

    try:
        config.apply(args, config.load())
    except config.ConfigError as e:
        _say(command, "config: %s" % e)
        return 2
    bad = _not_utf8(args)
    if bad is not None:
        _say(command, "%s %s is not valid UTF-8 text" % (bad[0].upper(), ascii(bad[1])))
        return 2
    try:
        status = args._run(args) or 0
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        _say(command, "interrupted")
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except RecursionError:
        _say(command, "the input nests JSON too deeply to be a game record")
        return 2
    except UnicodeError as e:
        _say(command, "text that is not valid UTF-8 (%s)" % e.reason)
        return 2
    except OSError as e:
        if e.filename is None and (e.errno in _FULL or _stdout_failed()):
            _silence_stdout()
            _say(command, "cannot write the output: %s" % (e.strerror or e))
        else:
            where = " (%s)" % e.filename if e.filename else ""
            _say(command, "%s%s" % (e.strerror or e, where))
        return 2
    except sqlite3.Error as e:
        _say(command, "database problem: %s" % e)
        return 2
    except Exception as e:  # noqa: BLE001 - the last line of defence against a traceback
        if os.environ.get("MOONTABLE_DEBUG"):
            raise
        _say(command, "unexpected error: %s: %s (a bug: set MOONTABLE_DEBUG=1 for the details)"
             % (type(e).__name__, e))
        return 2


def _stdout_failed():
    """True when writing stdout is what failed (a full disk, /dev/full)."""
    try:
        sys.stdout.flush()
        return False
    except (OSError, ValueError):
        return True


if __name__ == "__main__":
    sys.exit(main())
