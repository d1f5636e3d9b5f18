"""PPO self-play on the batched API, with a league, evaluations, logs and exact resume.

    python -m experiments.train --config configs/ppo_selfplay.yaml
    python -m experiments.train --config configs/ppo_selfplay.yaml \
        --resume runs/train/ppo_selfplay/checkpoints/last.pt
    python -m experiments.train --config configs/ppo_selfplay.yaml --backend ray

This module is the command line only: it parses its arguments and reads the config before it
imports torch, the agents or the games, so that ``--help`` and a bad config answer at once. The
trainer is :class:`experiments.training.ppo.Trainer`, PPO in one file (what one update does,
what a run writes); docs/training.md explains the config and the run folder.
"""

from __future__ import annotations

import argparse
import sys

from .training.config import config_outline, load_config


def parser() -> argparse.ArgumentParser:
    """The command line; its epilog lists the config's sections, read off the config model."""
    p = argparse.ArgumentParser(
        prog="python -m experiments.train", description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="the config file (YAML), its keys and sections; docs/training.md explains\n"
               "them, configs/ppo_selfplay.yaml sets every one:\n" + config_outline())
    p.add_argument("--config", required=True, help="a training config (configs/*.yaml)")
    p.add_argument("--resume", default=None, help="a trainer checkpoint (checkpoints/last.pt)")
    p.add_argument("--backend", choices=("local", "ray"), default=None,
                   help="rollout workers: local processes (default) or Ray actors")
    p.add_argument("--updates", type=int, default=None, help="override the config's budget")
    p.add_argument("--out", default=None, help="override the config's out folder")
    p.add_argument("--name", default=None, help="override the run's name")
    p.add_argument("--until", type=int, default=None,
                   help="pause after this update (checkpointed; continue with --resume)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        cfg = load_config(args.config, updates=args.updates, out=args.out, name=args.name,
                          backend=args.backend)
        from .training.ppo import load_trainer  # torch and the games: after the checks

        trainer = load_trainer(cfg, args.resume)
    except ValueError as e:  # ConfigError, CheckpointError (ResumeError): the message says all
        print(f"error: {e}", file=sys.stderr)
        return 2
    evaluations = trainer.run(progress=False if args.no_progress else None, until=args.until)
    # the run's totals, across resumes: the figures of progress.csv's last row
    print(f"{cfg.name}: {trainer.update} updates, {trainer.decisions:,} decisions, "
          f"{trainer.games_played:,} games in {trainer.wall_s:.1f} s; "
          f"run folder {trainer.run_dir}")
    if evaluations:
        last = evaluations[-1]
        for o in cfg.eval.opponents:
            if o in last:
                r = last[o]
                print(f"  vs {o}: {r['wins']}/{r['games']} = {r['rate']:.1%} "
                      f"(95% CI {r['ci95'][0]:.1%}-{r['ci95'][1]:.1%})")
    return 0


__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
