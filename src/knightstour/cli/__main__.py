"""``python -m knightstour.cli``: the command line."""

import sys

from knightstour.cli import main

sys.exit(main())
