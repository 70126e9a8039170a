"""``python -m arraymux``: the same as the ``arraymux`` command."""

import sys

from .cli import main

sys.exit(main())
