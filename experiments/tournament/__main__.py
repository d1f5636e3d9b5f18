"""``python -m experiments.tournament``: see experiments/tournament/__init__.py."""

import sys

from .cli import main

sys.exit(main())
