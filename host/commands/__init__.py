"""One module per `moontable` subcommand.

Each module defines HELP (one line), add_arguments(parser) and
run(args) -> exit status. moontable.cli finds them here, so adding a command
never means editing a shared list."""
