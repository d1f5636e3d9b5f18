"""The PPO trainer on another game than AGoT (issue 25): ``experiments.train`` reaches its game
only through the kit (the registry name, the env, the batched API, the per-game training hooks),
so ``configs/goofspiel_ppo.yaml`` trains Goofspiel with the code that trains AGoT. A run paused
and resumed through the command line gives the network an uninterrupted run gives; its agent.pt
records its game and plays a Goofspiel env (and refuses an AGoT one); opponents may be any agent
spec, a PPO checkpoint included; what only AGoT has (shaping, its heuristic, the structured
network) is refused for Goofspiel, naming the key."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

import goofspiel
import got_env
from agents import make_agent
from agents.ppo import SHIPPED_CHECKPOINT, CheckpointError, PPOAgent, load_checkpoint
from experiments.training.config import ConfigError, load_config, parse_config
from experiments.training.ppo import Trainer, load_trainer

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "goofspiel_ppo.yaml"


def _rows(run: Path) -> list[dict[str, str]]:
    with (run / "progress.csv").open(newline="") as f:
        return list(csv.DictReader(f))


def _timeless(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    return [{k: v for k, v in r.items() if not k.endswith("_s")} for r in rows]


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory) -> tuple[Path, str]:
    """(the run folder, the resumed half's stdout) of the shipped Goofspiel config, 3 updates,
    paused after update 2 and resumed, through ``python -m experiments.train``."""
    out = tmp_path_factory.mktemp("goofspiel")
    run = out / "goofspiel_ppo"
    stdout = ""
    for extra in (["--until", "2"], ["--resume", str(run / "checkpoints" / "last.pt")]):
        done = subprocess.run([sys.executable, "-m", "experiments.train", "--config",
                               str(CONFIG), "--out", str(out), *extra], cwd=ROOT,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        stdout = done.stdout
    return run, stdout


def test_the_cli_trains_goofspiel_and_evaluates(cli_run) -> None:
    run, stdout = cli_run
    rows = _rows(run)
    assert [r["update"] for r in rows] == ["1", "2", "3"]
    for r in rows:
        assert np.isfinite(float(r["policy_loss"])) and np.isfinite(float(r["entropy"]))
        assert int(r["decisions"]) == 4 * 40 * int(r["update"])
    assert [bool(r["eval_random"]) for r in rows] == [False, True, True]  # every 2, and the end
    assert "goofspiel_ppo: 3 updates, 480 decisions" in stdout and "vs random: " in stdout
    config = yaml.safe_load((run / "config.yaml").read_text())
    assert config["game"] == "goofspiel" and config["shaping"] == {"castles": 0.0,
                                                                   "supply": 0.0}
    for path in (run / "checkpoints" / "last.pt", run / "agent.pt"):
        assert torch.serialization.get_unsafe_globals_in_checkpoint(path) == [], path


def test_a_paused_and_resumed_run_gives_the_uninterrupted_runs_network(cli_run,
                                                                      tmp_path) -> None:
    run, _ = cli_run
    straight = Trainer(load_config(CONFIG, out=str(tmp_path)), log=lambda *a: None)
    straight.run()
    resumed, _ = load_checkpoint(run / "agent.pt")
    for (k, v), w in zip(straight.network.state_dict().items(),
                         resumed.state_dict().values(), strict=True):
        assert torch.equal(v, w), k
    assert _timeless(_rows(run)) == _timeless(_rows(tmp_path / "goofspiel_ppo"))


def test_the_agent_plays_goofspiel_and_refuses_agot(cli_run) -> None:
    run, _ = cli_run
    agent = make_agent({"name": "ppo", "checkpoint": str(run / "agent.pt")},
                       env=goofspiel.env(num_players=2, num_cards=5), seed=0)
    assert isinstance(agent, PPOAgent) and agent.game == "goofspiel"
    env = goofspiel.env(num_players=2, num_cards=5)
    env.reset(seed=1)
    for _ in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"],
                                                      info))
    assert len(env.unwrapped.record.actions) == 10
    with pytest.raises(CheckpointError, match="trained for game 'goofspiel'"):
        PPOAgent(checkpoint=run / "agent.pt", env=got_env.env(num_players=3))
    with pytest.raises(CheckpointError, match="observations of"):
        PPOAgent(checkpoint=run / "agent.pt", env=goofspiel.env(num_players=2, num_cards=6))
    with pytest.raises(CheckpointError, match="trained for game 'got'"):
        PPOAgent(env=goofspiel.env())  # the shipped checkpoint is AGoT's
    assert load_checkpoint(SHIPPED_CHECKPOINT)[1].get("game") is None  # old: AGoT's, as is


def test_a_checkpoint_opponent_in_the_league_and_the_evaluation(cli_run, tmp_path) -> None:
    """An opponent named by an agent spec (here the first run's agent.pt): drawn by the
    league, evaluated against with its own columns, and built again on --resume (an agent
    the trainer checkpoint cannot store)."""
    run, _ = cli_run
    raw = yaml.safe_load(CONFIG.read_text())
    raw.update(out=str(tmp_path), name="vs_past", updates=2, eval={
        "every": 1, "games": 4, "opponents": ["random", "past"]},
        agents={"past": {"name": "ppo", "checkpoint": str(run / "agent.pt")}},
        league={"weights": {"current": 1, "past": 1}})
    first = Trainer(parse_config(raw), log=lambda *a: None)
    first.run(until=1)
    assert any(k == "past" for k in first.collector.kinds)
    resumed = load_trainer(parse_config(raw), tmp_path / "vs_past" / "checkpoints" / "last.pt")
    seats = [s for row in resumed.collector.seats for s in row if s.kind == "agent"]
    assert seats and all(isinstance(s.agent, PPOAgent) for s in seats)
    resumed.run()
    rows = _rows(tmp_path / "vs_past")
    assert [r["update"] for r in rows] == ["1", "2"] and all(r["eval_past"] for r in rows)
    assert "train_win_past" in rows[0]


@pytest.mark.parametrize("change, message", [
    ({"shaping": {"castles": 1.0}}, "shaping: game 'goofspiel' has no shaping potential"),
    ({"league": {"weights": {"current": 1, "heuristic": 1}}},
     "opponent 'heuristic': game 'goofspiel' has no heuristic"),
    ({"eval": {"games": 2, "opponents": ["heuristic"]}}, "has no heuristic"),
    ({"network": {"kind": "structured"}}, "network.kind: 'structured'"),
    ({"eval": {"games": 3}}, "multiple of env.num_players"),
    ({"env": {"num_cards": "five"}}, "env: "),
    ({"agents": {"x": {"name": "nosuchagent"}}, "league": {"weights": {"x": 1}}},
     "agents.x: "),
    ({"agents": {"random": "random"}}, "agents: ['random'] name the league's own kinds"),
])
def test_what_goofspiel_lacks_is_refused_naming_the_key(change: dict, message: str) -> None:
    raw = {**yaml.safe_load(CONFIG.read_text()), **change}
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        parse_config(raw)


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(ConfigError, match="game must be one of"):
        parse_config({**yaml.safe_load(CONFIG.read_text()), "game": "chess"})
