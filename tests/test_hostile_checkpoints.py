"""A file never makes a loader import a module or run a file it names (issue 38, item 8).

A checkpoint (JSON, YAML or torch) may name only a registered agent kind (``agents.registry``):
under ``"agent"`` for a spec that gives the checkpoint alone, under ``network.prior`` for a PPO
network. A trainer checkpoint read by ``experiments.train --resume`` may name only the
opponents of the user's own config. ``module:Class`` and ``path.py:Class`` come from the user's
config or command line only. Each hostile file here names code that writes a sentinel file
when imported or called; the sentinel proves it never ran.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import torch

from agents import REGISTRY, AgentSpec, AgentSpecError, make_agent
from agents.ppo import CheckpointError, PPOAgent, build_network, load_checkpoint, save_checkpoint
from agents.registry import UnknownKindError, kind_of
from experiments.tournament.cli import main as tournament_main
from experiments.train import main as train_main
from experiments.training.config import load_config
from experiments.training.ppo import ResumeError, Seat, load_trainer, read_trainer_state

EVIL = """import pathlib
pathlib.Path({sentinel!r}).write_text("ran at import")


class Evil:
    def __init__(self, *args, **kwargs):
        pathlib.Path({sentinel!r}).write_text("ran in the constructor")

    def act(self, observation, action_mask, info):
        return 0
"""


@pytest.fixture
def hostile(tmp_path, monkeypatch) -> tuple[Path, list[str]]:
    """(the sentinel file, the names a hostile file gives: a callable of the standard library,
    a Python file, a module on sys.path, each of which would write the sentinel)."""
    sentinel = tmp_path / "SENTINEL"
    (tmp_path / "evil.py").write_text(EVIL.format(sentinel=str(sentinel)))
    (tmp_path / "evil_mod.py").write_text(EVIL.format(sentinel=str(sentinel)))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("evil_mod", None)
    yield sentinel, ["os:system", f"{tmp_path / 'evil.py'}:Evil", "evil_mod:Evil",
                     "evil_mod.Evil"]
    sys.modules.pop("evil_mod", None)
    assert not sentinel.exists(), sentinel.read_text()


def test_the_sentinel_code_really_runs_when_a_user_names_it(hostile) -> None:
    """The control: named in the user's own spec, the file is imported (and writes the
    sentinel), so a missing sentinel below means the loader refused the name."""
    sentinel, names = hostile
    make_agent(names[1])
    assert sentinel.read_text() == "ran in the constructor"
    sentinel.unlink()


@pytest.mark.parametrize("suffix", [".json", ".yaml", ".pt"])
def test_a_checkpoint_naming_code_is_refused_naming_the_key(hostile, tmp_path, suffix) -> None:
    sentinel, names = hostile
    for i, name in enumerate(names):
        path = tmp_path / f"ckpt{i}{suffix}"
        if suffix == ".pt":
            torch.save({"agent": name, "weights": torch.zeros(2)}, path)
        else:
            path.write_text(json.dumps({"agent": name}))
        for attempt in (AgentSpec.parse({"checkpoint": str(path)}).check,
                        lambda p=path: make_agent({"checkpoint": str(p)}, seed=0)):
            with pytest.raises(AgentSpecError) as info:
                attempt()
            message = str(info.value)
            assert f"the checkpoint's 'agent' key names {name!r}" in message, message
            assert "not a registered agent kind" in message and "'random'" in message
        assert not sentinel.exists()


def test_a_registered_kind_and_the_former_ppo_name_still_load(tmp_path) -> None:
    """A checkpoint naming a kind builds it; the name PPO checkpoints carried before kinds
    (``agents.ppo:PPOAgent``, the shipped file's) is read as the kind ``ppo``, unimported."""
    assert kind_of("agents.ppo:PPOAgent", "x") == "ppo"
    plain = tmp_path / "r.json"
    plain.write_text(json.dumps({"agent": "random"}))
    with pytest.raises(AgentSpecError, match="no from_checkpoint classmethod"):
        make_agent({"checkpoint": str(plain)})           # resolved to the registered 'random'
    assert AgentSpec.parse({"checkpoint": str(plain)}).resolved().name == "random"
    with pytest.raises(UnknownKindError, match=r"x names \['random'\], which is not"):
        kind_of(["random"], "x")


def test_a_ppo_checkpoint_whose_prior_names_code_is_refused(hostile, tmp_path) -> None:
    sentinel, names = hostile
    network = build_network({"kind": "mlp", "hidden": [4]}, None, game="goofspiel",
                            obs_size=6, num_actions=3)
    for i, name in enumerate(names):
        network.set_prior(name)
        path = save_checkpoint(tmp_path / f"p{i}.pt", network, None, game="goofspiel")
        with pytest.raises(CheckpointError, match=r"network\.prior names .*not a registered "
                                                  r"agent kind"):
            PPOAgent(checkpoint=path)
        with pytest.raises(AgentSpecError, match=r"network\.prior names"):
            make_agent({"checkpoint": str(path)}, seed=0)
        with pytest.raises(CheckpointError, match=r"network\.prior names"):
            load_checkpoint(path, prior="random")         # another spec than the user's
        assert load_checkpoint(path, prior=name)[0].prior == name   # the user's own config
    network.set_prior("random")                           # a registered kind: played
    ok = save_checkpoint(tmp_path / "ok.pt", network, None, game="goofspiel")
    assert torch.load(ok, weights_only=True)["agent"] == "ppo"
    assert PPOAgent(checkpoint=ok).prior is not None
    assert not sentinel.exists()


def test_a_tournament_cli_refuses_a_hostile_checkpoint_with_one_line(hostile, tmp_path,
                                                                    capsys) -> None:
    sentinel, names = hostile
    ckpt = tmp_path / "c.json"
    ckpt.write_text(json.dumps({"agent": names[1]}))
    config = tmp_path / "t.yaml"
    config.write_text(json.dumps({
        "game": "goofspiel", "name": "t", "out": str(tmp_path / "runs"),
        "env": {"num_players": 2, "num_cards": 3},
        "agents": {"a": "random", "c": {"checkpoint": str(ckpt)}},
        "lineups": [["a", "c"]], "games": 2, "workers": 0}))
    with pytest.raises(SystemExit) as e:
        tournament_main(["--config", str(config)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and len(err.strip().splitlines()) == 1, err
    assert "agents.c:" in err and "'agent' key" in err and "Traceback" not in err
    assert not (tmp_path / "runs").exists() and not sentinel.exists()


# -- experiments.train --resume ---------------------------------------------------------------
def _goofspiel_run(tmp_path: Path, workers_seats: bool = False) -> tuple[Path, Path]:
    """(config, trainer checkpoint) of a one-update Goofspiel run paused for --resume."""
    config = tmp_path / "g.yaml"
    config.write_text(f"""game: goofspiel
name: g
out: {tmp_path / 'runs'}
updates: 2
env: {{num_players: 2, num_cards: 3}}
network: {{kind: mlp, hidden: [8]}}
rollout: {{num_games: 2, steps: 8, workers: 0, seats_in_workers: {str(workers_seats).lower()}}}
ppo: {{epochs: 1, minibatch: 16}}
league: {{weights: {{current: 0.5, random: 0.5}}}}
eval: {{every: 5, games: 2, opponents: [random]}}
checkpoint_every: 1
tensorboard: false
progress: false
""")
    assert train_main(["--config", str(config), "--until", "1", "--no-progress"]) == 0
    return config, tmp_path / "runs" / "g" / "checkpoints" / "last.pt"


def test_resume_refuses_a_trainer_checkpoint_whose_seat_names_code(hostile, tmp_path,
                                                                   capsys) -> None:
    sentinel, names = hostile
    config, last = _goofspiel_run(tmp_path)
    cfg = load_config(config)
    codec = load_trainer(cfg, None).codec
    state = read_trainer_state(last, codec)
    for name in names:
        seats = [list(row) for row in state["collector"]["seats"]]
        seats[0][1] = Seat("agent", opponent=name, seed=1)
        hacked = {**state, "collector": {**state["collector"], "seats": seats}}
        path = tmp_path / "hacked.pt"
        torch.save(codec.encode(hacked), path)
        assert train_main(["--config", str(config), "--resume", str(path)]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
        assert f"names opponent {name!r}" in err and "'random'" in err
    assert not sentinel.exists()


def test_resume_builds_worker_seats_from_the_config_not_the_file(hostile, tmp_path) -> None:
    sentinel, names = hostile
    config, last = _goofspiel_run(tmp_path, workers_seats=True)
    cfg = load_config(config)
    trainer = load_trainer(cfg, None)
    state = read_trainer_state(last, trainer.codec)
    rows = state["games"]["seats"]
    g, row = next((g, r) for g, r in enumerate(rows) if r)
    h, spec = next(iter(row.items()))
    # the opponent's own name, but the spec's agents section swapped for code: rebuilt from cfg
    swapped = (spec[0], spec[1], spec[2], spec[3], {spec[1]: names[1]})
    hacked = {**state, "games": {**state["games"], "seats": [
        {**r, h: swapped} if i == g else r for i, r in enumerate(rows)]}}
    trainer.load_state_dict(hacked)
    assert trainer._games_state["seats"][g][h] == (cfg.game, spec[1], spec[2], dict(cfg.env),
                                                   dict(cfg.agents))
    for name in names:                      # a worker seat naming code itself: refused
        bad = (spec[0], name, spec[2], spec[3], {})
        hacked = {**state, "games": {**state["games"], "seats": [
            {**r, h: bad} if i == g else r for i, r in enumerate(rows)]}}
        with pytest.raises(ResumeError, match="a worker seat of the checkpoint names"):
            load_trainer(cfg, None).load_state_dict(hacked)
    assert not sentinel.exists()


def test_registry_lookups_never_import(hostile) -> None:
    sentinel, names = hostile
    for name in names:
        assert name not in REGISTRY
        with pytest.raises(UnknownKindError, match="not a registered agent kind"):
            kind_of(name, "a file's key")
    assert not sentinel.exists()
