"""``python -m experiments.tournament``: see experiments/tournament/cli.py."""

import sys

from .cli import main

sys.exit(main())
