"""``python -m knightstour``: the command line."""

import sys

from knightstour.cli import main

sys.exit(main())
