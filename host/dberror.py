"""The error a database command reports to the person at the keyboard."""


class DbError(Exception):
    """A problem for the person at the keyboard (unknown game, unknown
    player, a file that is not a moontable database, ...). Commands print
    it and exit with status 2; it never carries a traceback."""
