"""The main job: play a game of A Game of Thrones and print its result.

Until the rules engine and agents exist (issues 3-6), this sets up a fresh game for the chosen
player count and prints its board as text.

    python -m experiments.play --players 6 --seed 0
"""

from __future__ import annotations

import argparse
import sys

from got_env.engine import OptionError, new_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m experiments.play", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=6, help="3 to 6 (default 6)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        state = new_game(args.players, seed=args.seed)
    except OptionError as e:
        parser.error(str(e))
    print(state.render_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
