"""`python -m moontable`: the same command line as `moontable`."""

import sys

from host.cli import main

sys.exit(main())
