"""experiments.pipeline (issue 26): imitation, then PPO from the imitation's agent.pt, then a
final evaluation on seeds no stage used, from one config; a bad stage config is refused before
anything runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from agents.ppo import load_checkpoint
from experiments import pipeline
from experiments.training.ppo import EVAL_SEED_OFFSET

TEACHER = f"{Path(__file__).resolve().parent / 'test_imitate.py'}:HighestBid"


def tiny_pipeline(tmp_path: Path, **train_changes: object) -> Path:
    out = str(tmp_path / "runs")
    imitate = {"game": "goofspiel", "name": "imit", "out": out, "seed": 2, "teacher": TEACHER,
               "env": {"num_players": 2, "num_cards": 5}, "network": {"kind": "mlp",
                                                                     "hidden": [16]},
               "data": {"games": 12, "save": False}, "train": {"epochs": 3, "minibatch": 16}}
    train = {"game": "goofspiel", "name": "ppo", "out": out, "seed": 2, "updates": 2,
             "env": {"num_players": 2, "num_cards": 5},
             "network": {"kind": "mlp", "hidden": [16]},
             "rollout": {"num_games": 2, "steps": 20, "workers": 0, "seats_in_workers": True},
             "ppo": {"epochs": 1, "minibatch": 16},
             "league": {"weights": {"current": 1, "random": 1}},
             "eval": {"every": 2, "games": 2, "opponents": ["random"]},
             "init": {"checkpoint": "not/there/yet.pt", "kl": 0.5, "value_warmup": 1},
             "checkpoint_every": 1, "tensorboard": False, "progress": False, **train_changes}
    (tmp_path / "imitate.yaml").write_text(yaml.safe_dump(imitate))
    (tmp_path / "train.yaml").write_text(yaml.safe_dump(train))
    config = tmp_path / "pipeline.yaml"
    config.write_text(yaml.safe_dump({
        "imitate": str(tmp_path / "imitate.yaml"), "train": str(tmp_path / "train.yaml"),
        "final": {"games": 4, "opponents": ["random"], "workers": 0}}))
    return config


def test_one_command_imitates_fine_tunes_and_evaluates_on_unused_seeds(tmp_path) -> None:
    assert pipeline.main(["--config", str(tiny_pipeline(tmp_path)), "--seed", "5",
                          "--name", "s5"]) == 0
    runs = tmp_path / "runs"
    imitated, _ = load_checkpoint(runs / "imit_s5" / "agent.pt")
    config = yaml.safe_load((runs / "ppo_s5" / "config.yaml").read_text())
    assert config["seed"] == 5 and config["init"]["checkpoint"] == str(runs / "imit_s5" /
                                                                       "agent.pt")
    assert yaml.safe_load((runs / "imit_s5" / "config.yaml").read_text())["seed"] == 5
    final = json.loads((runs / "ppo_s5" / "final.json").read_text())
    assert final["random"]["games"] == 4 and 0 <= final["random"]["rate"] <= 1
    assert (runs / "ppo_s5" / "pipeline.png").stat().st_size > 10_000
    # the final games' seeds lie beyond every stage's: training's eval from EVAL_SEED_OFFSET
    assert pipeline.FINAL_SEED_BASE > EVAL_SEED_OFFSET + 10_000
    # --evaluate gives any agent file the same final games: the trained one scores as above,
    # the imitated one (the "imitation only" ablation) gets its own final.json
    config = str(tmp_path / "pipeline.yaml")
    (runs / "ppo_s5" / "final.json").rename(runs / "ppo_s5" / "final_of_the_run.json")
    assert pipeline.main(["--config", config, "--seed", "5", "--evaluate",
                          str(runs / "ppo_s5" / "agent.pt")]) == 0
    again = json.loads((runs / "ppo_s5" / "final.json").read_text())
    assert again["random"] == final["random"]
    assert pipeline.main(["--config", config, "--seed", "5", "--evaluate",
                          str(runs / "imit_s5" / "agent.pt")]) == 0
    assert json.loads((runs / "imit_s5" / "final.json").read_text())["random"]["games"] == 4
    assert pipeline.main(["--config", config, "--evaluate", str(tmp_path / "none.pt")]) == 2


def test_a_bad_stage_config_is_refused_before_anything_runs(tmp_path, capsys) -> None:
    config = tiny_pipeline(tmp_path, ppo={"epochs": 0})
    with pytest.raises(SystemExit) as e:
        pipeline.main(["--config", str(config)])
    assert e.value.code == 2 and "ppo.epochs" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()


def test_the_training_benchmark_reports_learner_decisions_and_the_time_split(capsys) -> None:
    """``python -m experiments.benchmark.training`` (issue 26, item 4): steady-state learner
    decisions/s and each update's time split, from the config's own run."""
    from experiments.benchmark import training

    config = Path(__file__).resolve().parent.parent / "configs" / "goofspiel_ppo.yaml"
    assert training.main(["--config", str(config), "--updates", "3", "--warmup", "1",
                          "--seats-in-workers"]) == 0
    out = capsys.readouterr().out
    assert "(seats in workers)" in out and "learner decisions/s" in out
    assert "over updates 2..3" in out and "update " in out and "games " in out
    assert training.main(["--config", str(config), "--updates", "1", "--warmup", "1"]) == 2


def test_without_an_imitation_stage_the_pipeline_trains_its_config_as_it_is(tmp_path) -> None:
    """``imitate: null``: no stage 1 (no imitation folder); stage 2 starts as its config says
    (here a residual network over the HighestBid teacher as its prior, from scratch), then the
    final evaluation, and the curve without the imitation panel."""
    config = tiny_pipeline(tmp_path, init={},
                           network={"kind": "mlp", "hidden": [16], "prior": TEACHER,
                                    "prior_bonus": 2.0})
    raw = yaml.safe_load(config.read_text())
    config.write_text(yaml.safe_dump({**raw, "imitate": None}))
    assert pipeline.main(["--config", str(config)]) == 0
    runs = tmp_path / "runs"
    assert not (runs / "imit").exists()
    trained = yaml.safe_load((runs / "ppo" / "config.yaml").read_text())
    assert trained.get("init", {}).get("checkpoint") is None
    network, _ = load_checkpoint(runs / "ppo" / "agent.pt", prior=TEACHER)  # the config's
    assert network.prior == TEACHER and network.prior_bonus == 2.0
    final = json.loads((runs / "ppo" / "final.json").read_text())
    assert final["random"]["games"] == 4
    assert (runs / "ppo" / "pipeline.png").stat().st_size > 5_000


def test_prior_only_gives_the_priors_own_play_the_final_evaluation(tmp_path, capsys) -> None:
    """``--prior-only AGENT_PT`` (the "prior alone" ablation): the training config's network
    with its policy output zeroed, written and given the final games; a config whose network
    names no prior is refused, naming the flag."""
    config = tiny_pipeline(tmp_path, init={},
                           network={"kind": "mlp", "hidden": [16], "prior": TEACHER})
    out = tmp_path / "prior" / "agent.pt"
    assert pipeline.main(["--config", str(config), "--prior-only", str(out)]) == 0
    network, doc = load_checkpoint(out, prior=TEACHER)
    assert doc["prior_only"] is True and network.prior == TEACHER
    assert not network.policy_head.weight.any() and not network.policy_head.bias.any()
    assert json.loads((out.parent / "final.json").read_text())["random"]["games"] == 4
    (tmp_path / "plain").mkdir()
    plain = tiny_pipeline(tmp_path / "plain", init={})
    with pytest.raises(SystemExit) as e:
        pipeline.main(["--config", str(plain), "--prior-only", str(out)])
    assert e.value.code == 2 and "--prior-only: the training config's network names no prior" \
        in capsys.readouterr().err
