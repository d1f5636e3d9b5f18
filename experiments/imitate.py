"""Imitation: the PPO network trained to copy a teacher agent, the start of a PPO run.

    python -m experiments.imitate --config configs/imitate_v2.yaml
    python -m experiments.imitate --config configs/imitate_goofspiel.yaml --name try2

Plays the teacher's games (every seat, or the config's ``data.seats``), records its decisions,
fits :func:`agents.ppo.build_network`'s network to them with a held-out split by game, and
writes the run folder: ``config.yaml``, ``progress.csv`` (losses and held-out accuracy per
epoch, with the chance accuracy of a uniform legal policy), ``dataset.npz``, ``agent.pt``
(:func:`agents.ppo.save_checkpoint`: ``PPOAgent(checkpoint=...)`` plays it) and
``summary.json``. The config is read and checked before torch or any game is imported for
play, so that a bad one answers at once (one line, exit 2). docs/imitation.md explains it.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from typing import Any

import yaml

from boardkit.envs import make_env
from experiments.training.game_hooks import variant

from .config_files import exit_config_error
from .imitation.config import ConfigError, ImitateConfig, load_config
from .imitation.data import collect, load_for


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m experiments.imitate",
                                description=__doc__.split("\n")[0])
    p.add_argument("--config", required=True, help="an imitation config (configs/imitate_*.yaml)")
    p.add_argument("--out", default=None, help="override the config's out folder")
    p.add_argument("--name", default=None, help="override the run's name")
    p.add_argument("--quiet", action="store_true", help="no per-epoch lines")
    return p


def run(cfg: ImitateConfig, quiet: bool = True) -> dict[str, Any]:
    """One imitation run into ``cfg.run_dir``; returns what summary.json holds."""
    # torch: once the config is read, not for --help or a bad config
    from agents.ppo import save_checkpoint

    from .imitation.learn import dagger_rounds, evaluate_against_teacher, fit, new_network, split

    out = cfg.run_dir
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text(yaml.safe_dump(cfg.as_dict(), sort_keys=False))
    started = time.perf_counter()
    data = collect(cfg) if cfg.data.load is None else load_for(cfg, cfg.data.load)
    collect_s = time.perf_counter() - started
    if cfg.data.save and cfg.data.load is None:
        data.save(out / "dataset.npz")
    parts = split(data, cfg.train.holdout, cfg.seed)
    ruleset = variant(cfg.game, make_env(cfg.game, **cfg.env))
    network = new_network(cfg, data, ruleset)
    with open(out / "progress.csv", "w", newline="") as f:
        writer: Any = None

        def log(row: dict[str, float]) -> None:
            nonlocal writer
            if writer is None:
                writer = csv.DictWriter(f, fieldnames=list(row))
                writer.writeheader()
            writer.writerow(row)
            f.flush()
            if not quiet:
                print(f"epoch {row['epoch']}: held-out accuracy {row['heldout_accuracy']:.1%} "
                      f"(chance {row['chance_accuracy']:.1%}), loss {row['heldout_loss']:.4f}")

        rows = fit(cfg, data, network, parts, log)
        data, parts, more = dagger_rounds(cfg, data, network, parts, log)
        rows += more
    summary: dict[str, Any] = {
        "decisions": len(data), "train_decisions": len(parts.train),
        "heldout_decisions": len(parts.heldout), "heldout_games": parts.heldout_games,
        "obs_dtype": str(data.obs.dtype), "bytes_per_decision": data.bytes_per_decision,
        "dataset_bytes": data.nbytes, "collect_s": round(collect_s, 2),
        "train_s": round(time.perf_counter() - started - collect_s, 2), **rows[-1]}
    if cfg.eval.games:
        e = evaluate_against_teacher(cfg, network)
        lo, hi = e.interval
        summary["eval"] = {"games": e.games, "wins": e.wins, "rate": e.rate, "ci95": [lo, hi]}
    save_checkpoint(out / "agent.pt", network, ruleset, game=cfg.game, imitation=cfg.as_dict(),
                    figures={k: v for k, v in summary.items() if not isinstance(v, dict)})
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    try:
        cfg = load_config(args.config, out=args.out, name=args.name)
    except ConfigError as e:
        exit_config_error(p, e)
    summary = run(cfg, quiet=args.quiet)
    print(f"{cfg.name}: {summary['decisions']:,} decisions ({summary['bytes_per_decision']} "
          f"bytes each, observations {summary['obs_dtype']}); held-out accuracy "
          f"{summary['heldout_accuracy']:.1%} vs chance {summary['chance_accuracy']:.1%}; "
          f"run folder {cfg.run_dir}")
    if "eval" in summary:
        e = summary["eval"]
        print(f"  vs the teacher: {e['wins']}/{e['games']} = {e['rate']:.1%} "
              f"(95% CI {e['ci95'][0]:.1%}-{e['ci95'][1]:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
