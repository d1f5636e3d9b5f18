"""Issue 26's learned agent from scratch in one command: imitation, then PPO, then a final
evaluation on seeds no stage used.

    python -m experiments.pipeline --config configs/pipeline_v2.yaml
    python -m experiments.pipeline --config configs/pipeline_v2.yaml --seed 1 --name seed1

Stage 1 is ``experiments.imitate`` with the config's ``imitate`` file; stage 2 is
``experiments.train`` with its ``train`` file, whose ``init.checkpoint`` is replaced by stage
1's ``agent.pt`` (so that the two always belong together); the final evaluation plays the
trained network against each of ``final.opponents`` in ``final.games`` games, houses rotated,
from seeds that neither stage plays (:data:`FINAL_SEED_BASE`). ``--seed`` sets the seed of
both stages (a second run "to show it is not luck"); ``--name`` names the three run folders.
Every config is read and checked before anything runs. docs/imitation.md, "The pipeline".
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from dataclasses import field
from pathlib import Path
from typing import Any

from boardkit.envs import make_env

from . import imitate
from .config_files import exit_config_error, read_config
from .config_model import (
    MAX_GAMES,
    MAX_WORKERS,
    Bool,
    Field,
    Int,
    Names,
    Section,
    Text,
    parse_section,
    schema,
)
from .imitation.config import ConfigError
from .imitation.config import load_config as load_imitate
from .training.config import load_config as load_train
from .training.config import parse_config as parse_train
from .training.logs import plot_evaluations, read_rows

#: Final evaluation games start at this seed (plus the run's seed times 1,000): training games
#: use seeds below 1,000,000 + their count, the trainer's evaluations 1,000,003 onwards, the
#: imitation's games seed * 1,000,000 + g; none comes near.
FINAL_SEED_BASE = 7_000_000


@schema
class FinalConfig:
    games: Int = Field(201, ge=0, le=MAX_GAMES)   #: per opponent; a multiple of the players
    opponents: Names = ("heuristic_v2", "heuristic", "random")
    greedy: Bool = False                     #: sample from the policy (as it trained), or argmax
    workers: Int = Field(2, ge=0, le=MAX_WORKERS)   #: evaluation worker processes


@schema
class PipelineConfig:
    #: stage 1's config; null: no imitation stage (the training config starts as it says, e.g.
    #: a residual network over a prior agent from scratch, configs/pipeline_v2_prior.yaml)
    imitate: Text | None = "configs/imitate_v2_600.yaml"
    train: Text = "configs/ppo_v2_league.yaml"      #: stage 2's config
    final: Section[FinalConfig] = field(default_factory=FinalConfig)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m experiments.pipeline",
                                description=__doc__.split("\n")[0])
    p.add_argument("--config", required=True, help="a pipeline config (configs/pipeline_*.yaml)")
    p.add_argument("--seed", type=int, default=None, help="the seed of both stages")
    p.add_argument("--name", default=None, help="suffix of the three run folders' names")
    p.add_argument("--evaluate", default=None, metavar="AGENT_PT",
                   help="run no stage: give this PPO agent file (an ablation's, say) the final "
                        "evaluation, in the training config's env, into final.json beside it")
    p.add_argument("--prior-only", default=None, metavar="AGENT_PT",
                   help="run no stage: write the training config's network with a zero policy "
                        "output to AGENT_PT (greedy, it plays its network.prior's choice at "
                        "every decision: the 'prior alone' ablation) and give it the final "
                        "evaluation")
    return p


def prior_only_file(train_raw: dict[str, Any], path: Path) -> Path:
    """``--prior-only``: the training config's network (it must name a ``network.prior``) with
    its policy head zeroed, saved at ``path``: every action's own logit is 0, so a greedy player
    plays the prior's choice everywhere. ValueError when the network has no prior."""
    # torch: once the configs are checked
    from agents.ppo import save_checkpoint

    from .training.ppo import game_hook, make_network, prior_policy

    train_cfg = parse_train({**train_raw, "init": {}}, checkpoint_exists=False)
    if train_cfg.network.get("prior") is None:
        raise ValueError(f"--prior-only: the training config's network names no prior "
                         f"({train_cfg.network})")
    env = make_env(train_cfg.game, **train_cfg.env)
    seat = env.possible_agents[0]
    variant = game_hook(train_cfg.game, "variant")(env)
    network = make_network(train_cfg, variant,
                           int(env.observation_space(seat)["observation"].shape[0]),
                           int(env.action_space(seat).n))
    return save_checkpoint(path, prior_policy(network), variant, game=train_cfg.game,
                           config=train_cfg.as_dict(), prior_only=True)


def final_evaluation(cfg: PipelineConfig, network: Any, train_cfg: Any, make_seat: Any
                     ) -> dict[str, Any]:
    """``network`` against each of ``final.opponents`` in ``final.games`` games, houses
    rotated, opponents in the workers, from :data:`FINAL_SEED_BASE` + 1,000 x seed."""
    from .training.ppo import evaluate  # torch: once the configs are checked

    final: dict[str, Any] = {}
    seed = FINAL_SEED_BASE + 1000 * train_cfg.seed
    for opponent in cfg.final.opponents:
        e = evaluate(network, opponent, cfg.final.games, train_cfg.game, train_cfg.env, seed,
                     cfg.final.greedy, cfg.final.workers, make_seat, True, train_cfg.agents)
        lo, hi = e.interval
        final[opponent] = {"wins": e.wins, "games": e.games, "rate": e.rate, "ci95": [lo, hi]}
        print(f"final {e}")
    return final


def evaluate_file(cfg: PipelineConfig, train_raw: dict[str, Any], path: Path) -> int:
    """``--evaluate``: the final evaluation of the agent file ``path``."""
    # torch: once the configs are checked
    from agents.ppo import CheckpointError, load_checkpoint

    from .training.ppo import seat_maker

    train_cfg = parse_train({**train_raw, "init": {}}, checkpoint_exists=False)
    try:
        network, _ = load_checkpoint(path, prior=train_cfg.network.get("prior"))
    except CheckpointError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    network.eval()
    final = final_evaluation(cfg, network, train_cfg,
                             seat_maker(train_cfg, make_env(train_cfg.game, **train_cfg.env)))
    out = path.parent / "final.json"
    out.write_text(json.dumps({"agent": str(path), **final}, indent=1))
    print(f"written to {out}")
    return 0


def stages(cfg: PipelineConfig, seed: int | None, name: str | None) -> tuple[Any, Any]:
    """The two stages' checked configs, the training one starting from the imitation's agent
    (without an imitation stage, None and the training config as it is)."""
    imitate = None
    if cfg.imitate is not None:
        imitate = load_imitate(cfg.imitate)
        if seed is not None:
            imitate = dataclasses.replace(imitate, seed=seed)
        if name:
            imitate = dataclasses.replace(imitate, name=f"{imitate.name}_{name}")
    train = load_train(cfg.train, seed=seed, checkpoint_exists=imitate is None)
    raw = train.as_dict()
    if name:
        raw["name"] = f"{train.name}_{name}"
    if imitate is not None:
        raw["init"] = {**raw.get("init", {}), "checkpoint": str(imitate.run_dir / "agent.pt")}
    return imitate, raw


def plot_pipeline(imitate_dir: Path | None, train_dir: Path, final: dict[str, Any],
                  players: int, png: Path) -> Path:
    """The run's curve in one picture: stage 1's held-out accuracy per epoch (and chance), then
    stage 2's evaluation win rates with their 95% intervals against learner decisions, and the
    final evaluation's points at the end; the 1/n line is parity. Without an imitation stage
    (``imitate_dir`` None) the training panel alone."""
    import matplotlib  # heavy: only when the curve is drawn

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_rows(train_dir / "progress.csv")
    if imitate_dir is None:
        fig, right = plt.subplots(figsize=(8, 4.2), dpi=110)
        panels = [right]
    else:
        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), dpi=110,
                                          gridspec_kw={"width_ratios": [1, 2]})
        panels = [left, right]
        epochs = read_rows(imitate_dir / "progress.csv")
        x = [int(r["epoch"]) for r in epochs]
        left.plot(x, [float(r["heldout_accuracy"]) for r in epochs], "o-", label="held-out")
        left.plot(x, [float(r["train_accuracy"]) for r in epochs], "-", alpha=0.5,
                  label="training")
        left.plot(x, [float(r["chance_accuracy"]) for r in epochs], "--", color="grey",
                  label="uniform legal policy")
        left.set(title="stage 1: imitation", xlabel="epoch",
                 ylabel="agreement with the teacher", ylim=(0, 1))
    opponents = [c.removeprefix("eval_") for c in (rows[0].keys() if rows else ())
                 if c.startswith("eval_") and not c.endswith(("_lo", "_hi"))]
    end = float(rows[-1]["learner_decisions"]) if rows else 0.0
    for i, opponent in enumerate(opponents):
        colour = f"C{i}"
        plot_evaluations(right, rows, opponent, colour, "learner_decisions", f"vs {opponent}")
        if opponent in final:
            f = final[opponent]
            right.errorbar([end * 1.03], [f["rate"]], yerr=[[f["rate"] - f["ci95"][0]],
                                                            [f["ci95"][1] - f["rate"]]],
                           fmt="s", color=colour, capsize=3,
                           label=f"final vs {opponent} ({f['games']} games)")
    right.axhline(1 / players, color="grey", ls="--", lw=0.8, label=f"parity (1/{players})")
    right.set(title=("stage 2: " if imitate_dir is not None else "") + "PPO (evaluations, 95% "
              "intervals)", xlabel="learner decisions", ylabel="win rate", ylim=(0, 1))
    for ax in panels:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)
    return png


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    try:
        cfg = read_config(args.config, lambda raw: parse_section(PipelineConfig, raw or {}))
        imitate_cfg, train_raw = stages(cfg, args.seed, args.name)
    except (ConfigError, ValueError) as e:
        exit_config_error(p, e)
    if args.prior_only is not None:
        try:
            path = prior_only_file(train_raw, Path(args.prior_only))
        except ValueError as e:
            exit_config_error(p, e)
        return evaluate_file(cfg, train_raw, path)
    if args.evaluate is not None:
        return evaluate_file(cfg, train_raw, Path(args.evaluate))
    from .training.ppo import Trainer  # torch: once the configs are checked

    started = time.perf_counter()
    if imitate_cfg is not None:
        summary = imitate.run(imitate_cfg, quiet=False)
        print(f"stage 1: {summary['decisions']:,} decisions, held-out accuracy "
              f"{summary['heldout_accuracy']:.1%} (chance {summary['chance_accuracy']:.1%}), "
              f"{time.perf_counter() - started:.0f} s")
    train_cfg = parse_train(train_raw)
    trainer = Trainer(train_cfg)
    trainer.run(progress=False)
    print(f"stage 2: {trainer.update} updates, {trainer.learner_decisions:,} learner decisions, "
          f"{time.perf_counter() - started:.0f} s")
    final: dict[str, Any] = {"wall_s_training": round(time.perf_counter() - started, 1)}
    final.update(final_evaluation(cfg, trainer.network, train_cfg, trainer.make_seat))
    final["wall_s"] = round(time.perf_counter() - started, 1)
    (train_cfg.run_dir / "final.json").write_text(json.dumps(final, indent=1))
    plot_pipeline(imitate_cfg.run_dir if imitate_cfg is not None else None, train_cfg.run_dir,
                  final, train_cfg.num_players,
                  train_cfg.run_dir / "pipeline.png")
    print(f"wall {final['wall_s']:.0f} s; {train_cfg.run_dir / 'final.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
