"""`moontable completion bash|zsh`: print a shell completion script.

The script is made by shtab from the very parser the command runs, so
every subcommand, option and choice (--board pico|esp32|sim, --format, ...)
completes as it is today, and options that take a file or folder complete
paths. Install it once (docs/pc-tools.md):

    moontable completion bash > ~/.local/share/bash-completion/completions/moontable
    moontable completion zsh > "${fpath[1]}/_moontable"
"""

HELP = "print a shell completion script for bash or zsh (see docs/pc-tools.md for where it goes)"

SHELLS = ("bash", "zsh")
# Options and arguments (by argparse dest) that name a file or a folder.
FILES = {"db", "out", "log", "logs", "file"}
FOLDERS = {"flash"}


def add_arguments(parser):
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")


def _mark_paths(parser):
    """Tell shtab which options take a path, in this parser and below."""
    import argparse

    import shtab

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _mark_paths(sub)
        elif action.dest in FILES:
            action.complete = shtab.FILE
        elif action.dest in FOLDERS:
            action.complete = shtab.DIRECTORY


def run(args):
    import shtab

    from moontable.cli import build_parser

    parser = build_parser()
    _mark_paths(parser)
    print(shtab.complete(parser, shell=args.shell))
    return 0
