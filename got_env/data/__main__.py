"""Print a ruleset's loaded and validated data as one JSON document.

    python -m got_env.data --ruleset 2e > data.json
    python -m got_env.data --ruleset 1e > data-1e.json   # the 1st edition (50 areas, no port)
"""

from __future__ import annotations

import argparse
import json
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
    json.dump(ruleset.to_json(), sys.stdout, indent=args.indent)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
