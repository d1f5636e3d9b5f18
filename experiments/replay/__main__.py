"""``python -m experiments.replay RECORD --out replay.html`` (see the package docstring)."""

import sys

from . import main

sys.exit(main())
