"""Imitation: the PPO network trained to copy a teacher agent, the start of a PPO run.

    python -m experiments.imitate --config configs/imitate_v2.yaml
    python -m experiments.imitate --config configs/imitate_goofspiel.yaml --name try2

Plays the teacher's games (every seat, or the config's ``data.seats``), records its decisions,
fits :func:`agents.ppo.build_network`'s network to them with a held-out split by game, and
writes the run folder: ``config.yaml``, ``progress.csv`` (losses and held-out accuracy per
epoch, with the chance accuracy of a uniform legal policy), ``dataset.npz``, ``agent.pt``
(:func:`agents.ppo.save_checkpoint`: ``PPOAgent(checkpoint=...)`` plays it) and
``summary.json``. Resumable: every epoch of the fit is saved (``checkpoints/fit.pt``), and the
same command run again continues from the last one (its dataset read back from
``dataset.npz``, or collected again: the same games), giving the network the run in one go
gives; ``--until EPOCH`` pauses after that epoch. The config is read and checked before torch
or any game is imported for play, so that a bad one answers at once (one line, exit 2).
docs/imitation.md explains it.
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
    p.add_argument("--until", type=int, default=None,
                   help="pause after this epoch of the fit (run the command again to go on)")
    return p


#: Where a run keeps its fit between epochs (inside its run folder).
FIT_STATE = "checkpoints/fit.pt"


def saved_fit(cfg: ImitateConfig) -> Any:
    """The :class:`~.imitation.learn.FitState` an earlier run of ``cfg`` left in its run
    folder, or None; ConfigError when that run had another config."""
    from agents.ppo import read_torch_file

    from .imitation.learn import FitState

    path = cfg.run_dir / FIT_STATE
    if not path.is_file():
        return None
    state = read_torch_file(path, "imitation fit state")
    if not isinstance(state, dict) or state.get("config") != cfg.as_dict():
        raise ConfigError(f"{path}: an earlier run of another config left this fit state: "
                          f"give the run another --name (or remove the folder)")
    return FitState(**{k: v for k, v in state.items() if k != "config"})


def run(cfg: ImitateConfig, quiet: bool = True, until: int | None = None) -> dict[str, Any]:
    """One imitation run into ``cfg.run_dir`` (continued from the fit state an earlier run of
    it left; paused after epoch ``until``); returns what summary.json holds (with
    ``paused_after`` when paused)."""
    # torch: once the config is read, not for --help or a bad config
    import torch

    from agents.ppo import save_checkpoint

    from .imitation.learn import dagger_rounds, evaluate_against_teacher, fit, new_network, split

    out = cfg.run_dir
    saved = saved_fit(cfg)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text(yaml.safe_dump(cfg.as_dict(), sort_keys=False))
    started = time.perf_counter()
    kept = out / "dataset.npz"
    if saved is not None and cfg.data.load is None and kept.is_file():
        data = load_for(cfg, kept)        # the games the paused run played
    else:
        data = collect(cfg) if cfg.data.load is None else load_for(cfg, cfg.data.load)
    collect_s = time.perf_counter() - started
    if cfg.data.save and cfg.data.load is None and not (saved is not None and kept.is_file()):
        data.save(kept)
    parts = split(data, cfg.train.holdout, cfg.seed)
    ruleset = variant(cfg.game, make_env(cfg.game, **cfg.env))
    network = new_network(cfg, data, ruleset)
    state_path = out / FIT_STATE
    state_path.parent.mkdir(exist_ok=True)

    def save(state: Any) -> None:
        tmp = state_path.with_suffix(".tmp")
        torch.save({**state.plain(), "config": cfg.as_dict()}, tmp)
        tmp.replace(state_path)       # never a half-written state under the real name

    if saved is not None:  # progress.csv: the rows up to the saved epoch, then on
        with open(out / "progress.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(saved.rows[0]))
            w.writeheader()
            w.writerows(saved.rows)
    with open(out / "progress.csv", "a" if saved is not None else "w", newline="") as f:
        writer: Any = csv.DictWriter(f, fieldnames=list(saved.rows[0])) if saved else None

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

        rows = fit(cfg, data, network, parts, log, saved=saved, save=save, until=until)
        if until is not None and rows[-1]["epoch"] >= until \
                and rows[-1]["epoch"] < cfg.train.epochs:
            return {"paused_after": int(rows[-1]["epoch"]), **rows[-1]}
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
    summary = run(cfg, quiet=args.quiet, until=args.until)
    if "paused_after" in summary:
        print(f"{cfg.name}: paused after epoch {summary['paused_after']} (run the same command "
              f"again to go on); held-out accuracy {summary['heldout_accuracy']:.1%}")
        return 0
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
