"""`python -m moontable`: the same command line as `moontable`."""

import sys

from moontable.cli import main

sys.exit(main())
