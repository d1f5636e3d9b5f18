"""The trainer's throughput: learner decisions per second of a training config, and where each
update's time goes (issue 26, item 4).

    python -m experiments.benchmark.training --config configs/ppo_selfplay.yaml --updates 20
    python -m experiments.benchmark.training --config configs/ppo_selfplay.yaml --updates 20 \\
        --seats-in-workers

Runs ``--updates`` updates of the config in a temporary folder with evaluations, checkpoints,
TensorBoard and the progress bar off, and prints, over the updates after the first ``--warmup``
(starting the workers and the first forward passes are not the steady state): learner decisions
per second, all decisions per second (the workers' seats included), and the seconds per update
of each part of ``progress.csv``'s timing columns (``experiments/training/logs.py`` ``TIMING``).
``--seats-in-workers`` sets ``rollout.seats_in_workers`` (the same config otherwise).
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
from pathlib import Path
from typing import Any

from experiments.config_files import read_yaml


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m experiments.benchmark.training",
                                description=__doc__.split("\n")[0])
    p.add_argument("--config", required=True, help="a training config (configs/*.yaml)")
    p.add_argument("--updates", type=int, default=20, help="updates to run (default 20)")
    p.add_argument("--warmup", type=int, default=2, help="first updates not counted (2)")
    p.add_argument("--seats-in-workers", action="store_true",
                   help="play the league's agent opponents in the rollout workers")
    return p


def measure(raw: dict[str, Any], updates: int, warmup: int) -> dict[str, float]:
    """The steady-state figures of ``updates`` updates of the config ``raw``."""
    # torch and the games: once the arguments are read, not for --help
    from experiments.training.config import parse_config
    from experiments.training.logs import TIMING
    from experiments.training.ppo import Trainer

    with tempfile.TemporaryDirectory() as out:
        cfg = parse_config({**raw, "updates": updates, "out": out, "tensorboard": False,
                            "progress": False, "checkpoint_every": 10**6,
                            "eval": {**raw.get("eval", {}), "every": 10**6, "games": 0}})
        Trainer(cfg, log=lambda *a: None).run()
        rows = list(csv.DictReader((Path(out) / cfg.name / "progress.csv").open()))
    start, end = rows[warmup - 1] if warmup else None, rows[-1]
    def delta(key: str) -> float:
        return float(end[key]) - (float(start[key]) if start else 0.0)
    wall, counted = delta("wall_s"), rows[warmup:]
    figures = {"learner_decisions_per_s": delta("learner_decisions") / wall,
               "decisions_per_s": delta("decisions") / wall, "s_per_update": wall / len(counted)}
    for key in TIMING:
        figures[key] = sum(float(r[key]) for r in counted) / len(counted)
    return figures


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.updates <= args.warmup:
        print("error: --updates must exceed --warmup", file=sys.stderr)
        return 2
    try:
        raw = read_yaml(args.config)
        if not isinstance(raw, dict):
            raise ValueError(f"{args.config}: a training config is a mapping of keys")
        if args.seats_in_workers:
            raw["rollout"] = {**raw.get("rollout", {}), "seats_in_workers": True}
        f = measure(raw, args.updates, args.warmup)
    except ValueError as e:  # ConfigError: the message names the file and the key
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{args.config}{' (seats in workers)' if args.seats_in_workers else ''}: "
          f"{f['learner_decisions_per_s']:,.0f} learner decisions/s, "
          f"{f['decisions_per_s']:,.0f} decisions/s in all, {f['s_per_update']:.2f} s/update "
          f"over updates {args.warmup + 1}..{args.updates}")
    print("  per update: " + ", ".join(f"{k.removeprefix('time_').removesuffix('_s')} "
                                       f"{v:.2f} s" for k, v in f.items()
                                       if k.startswith("time_")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
