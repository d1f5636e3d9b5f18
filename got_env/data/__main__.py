"""Print a ruleset's loaded and validated data as one JSON document.

    python -m got_env.data --ruleset 2e > data.json
    python -m got_env.data --ruleset 1e > data-1e.json   # the 1st edition (50 areas, no port)
    python -m got_env.data --ruleset 1e | head           # a reader that stops early is fine
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .loader import RULESETS, DataError, load_ruleset


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m got_env.data", description=__doc__)
    parser.add_argument("--ruleset", default="2e", choices=RULESETS)
    parser.add_argument("--data-dir", default=None, help="read YAML files from this folder")
    parser.add_argument("--indent", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        ruleset = load_ruleset(args.ruleset, data_dir=args.data_dir)
    except DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    try:
        json.dump(ruleset.to_json(), sys.stdout, indent=args.indent)
        print()
        sys.stdout.flush()
    except BrokenPipeError:
        return closed_stdout()
    return 0


def closed_stdout() -> int:
    """The reader of standard output went away (``| head``): point stdout at devnull, so that
    the flush at exit does not raise again, and exit 1 quietly, as the Python docs advise
    (library/signal.html, "Note on SIGPIPE")."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


if __name__ == "__main__":
    sys.exit(main())
