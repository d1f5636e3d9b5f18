"""``python -m experiments.ladder``: see experiments/ladder/__init__.py."""

import sys

from . import main

sys.exit(main())
