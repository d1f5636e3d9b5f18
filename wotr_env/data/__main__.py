"""Print a ruleset's data counts (issue 27, item 1), checked on load.

    python -m wotr_env.data              # the 2nd edition
    python -m wotr_env.data --ruleset 1e # the 1st edition, naming each 2nd-edition stand-in
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from .loader import load_ruleset
from .model import RULESETS, DataError


def counts(ruleset: str) -> list[tuple[str, object]]:
    rs = load_ruleset(ruleset)
    board, cards = rs.board, rs.cards
    kinds = [r.settlement for r in board.regions]
    fp = board.region_side == 0
    sh = board.region_side == 1
    figs = board.figures
    return [
        ("regions", len(board.regions)),
        ("adjacencies", len(board.borders)),
        ("nations", len(board.nations)),
        ("strongholds / cities / towns / fortifications",
         " / ".join(str(kinds.count(k)) for k in ("stronghold", "city", "town",
                                                   "fortification"))),
        ("Free Peoples victory points on the board", int(np.sum(board.vp[fp]))),
        ("Shadow victory points on the board", int(np.sum(board.vp[sh]))),
        ("Free Peoples units + Leaders", f"{int(figs[:5, :2].sum())} + {int(figs[:5, 2].sum())}"),
        ("Shadow units + Nazgul", f"{int(figs[5:, :2].sum())} + {int(figs[5:, 3].sum())}"),
        ("event cards", len(cards.events)),
        ("combat effects", len(cards.combat)),
        ("characters", len(cards.characters)),
        ("Hunt tiles (standard + special)",
         f"{len(cards.tiles)} ({sum(t.side is None for t in cards.tiles)} + "
         f"{sum(t.side is not None for t in cards.tiles)})"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m wotr_env.data", description=__doc__)
    parser.add_argument("--ruleset", default="2e", choices=RULESETS)
    args = parser.parse_args(argv)
    try:
        rows = counts(args.ruleset)
        rs = load_ruleset(args.ruleset)
    except DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"War of the Ring, ruleset {args.ruleset}")
    for name, value in rows:
        print(f"  {name}: {value}")
    for prop, value in rs.rules.to_json().items():
        print(f"  rule {prop}: {value}")
    for file, other, why in rs.stand_ins:
        print(f"  stand-in: {file} is {other}'s ({why})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
