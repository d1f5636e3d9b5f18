"""Checkpoints are data, never code: every way a ``.pt`` file enters (``PPOAgent``, an agent spec,
``experiments.train --resume``) reads it with ``torch.load(weights_only=True)``, so that a file
whose pickle would run code is refused, unread, with :class:`agents.ppo.CheckpointError`. The
trainer's own checkpoint is plain data (format ``got_env-train-2``); one of the old pickled
format is refused with a message that says so."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from agents import AgentSpecError, make_agent
from agents.ppo import SHIPPED_CHECKPOINT, CheckpointError, PPOAgent, load_checkpoint
from agents.random_agent import RandomAgent
from boardkit.records import GameRecord
from experiments.train import main
from experiments.training.plain import PlainCodec
from experiments.training.ppo import Seat, Stream
from got_env.agents.heuristic import HeuristicAgent
from got_env.engine.decision import DecisionKind


class Payload:
    """What an attacker would put in a checkpoint: unpickling it runs code (here: writes a
    marker file, so that the tests can tell whether it ran)."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self) -> tuple:
        return exec, (f"import pathlib; pathlib.Path({str(self.marker)!r}).write_text('ran')",)


def crafted(tmp_path: Path, name: str = "evil.pt", zipped: bool = True) -> tuple[Path, Path]:
    """(a checkpoint that looks right but carries a :class:`Payload`, the marker it writes);
    ``zipped``: torch's zip format, else its legacy one."""
    marker = tmp_path / f"{name}.ran"
    path = tmp_path / name
    torch.save({"format": "got_env-ppo-1", "agent": "agents.ppo:PPOAgent", "ruleset": "2e",
                "network": {"kind": "mlp", "hidden": [8]}, "state_dict": {},
                "hook": Payload(marker)}, path, _use_new_zipfile_serialization=zipped)
    return path, marker


def test_the_crafted_payload_really_runs_when_unpickled(tmp_path) -> None:
    """The control: loaded the unsafe way, the payload does write its marker, so the tests
    below that find no marker show the loading refused it."""
    path, marker = crafted(tmp_path)
    torch.load(path, weights_only=False)
    assert marker.read_text() == "ran"


@pytest.mark.parametrize("zipped", [True, False], ids=["zip-format", "legacy-format"])
def test_ppo_agent_refuses_a_checkpoint_that_would_run_code(tmp_path, zipped: bool) -> None:
    path, marker = crafted(tmp_path, zipped=zipped)
    with pytest.raises(CheckpointError, match="not plain data") as info:
        PPOAgent(checkpoint=path)
    assert str(path) in str(info.value) and "exec" in str(info.value)  # what it would call
    assert "weights_only=False" not in str(info.value)  # no advice to load it the unsafe way
    assert not marker.exists()
    with pytest.raises(CheckpointError, match="not plain data"):
        load_checkpoint(path)
    assert not marker.exists()


@pytest.mark.parametrize("spec", [{"name": "ppo"}, {"name": "agents.ppo:PPOAgent"}, {}],
                         ids=["registry-name", "class-name", "class-from-file"])
def test_agent_specs_refuse_a_checkpoint_that_would_run_code(tmp_path, spec: dict) -> None:
    path, marker = crafted(tmp_path)
    with pytest.raises(AgentSpecError, match="not plain data") as info:
        make_agent({**spec, "checkpoint": str(path)}, seed=0)
    assert str(path) in str(info.value)
    assert not marker.exists()


def _tiny_config(tmp_path: Path) -> Path:
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(f"""game: got
name: tiny
out: {tmp_path / 'runs'}
updates: 2
env: {{num_players: 3, max_rounds: 2}}
network: {{kind: mlp, hidden: [8]}}
rollout: {{num_games: 3, steps: 20, workers: 0}}
ppo: {{epochs: 1, minibatch: 32}}
eval: {{every: 2, games: 3}}
tensorboard: false
progress: false
""")
    return cfg


def test_train_resume_refuses_a_checkpoint_that_would_run_code(tmp_path, capsys) -> None:
    path, marker = crafted(tmp_path, "last.pt")
    assert main(["--config", str(_tiny_config(tmp_path)), "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and str(path) in err and "not plain data" in err
    assert "Traceback" not in err
    assert not marker.exists()


def _old_trainer_state() -> dict:
    """What ``experiments.train`` wrote before format 2: pickled seats (with agents and their
    numpy generators), streams of numpy arrays, game records."""
    seats = [[Seat("learner"), Seat("agent", agent=HeuristicAgent()),
              Seat("agent", agent=RandomAgent(seed=1))]]
    stream = Stream(acting=[0], values=[0.5], potentials=[0.0], rewards=[np.zeros(3)],
                    dones=[False], ids=[0])
    return {"format": "got_env-train-1", "config": {},
            "collector": {"seats": seats, "streams": [stream],
                          "rng": np.random.default_rng(0).bit_generator.state,
                          "generator": torch.Generator().get_state()},
            "games": {"records": []}}  # (its records were got_env's GameRecord, now gone)


def test_an_old_format_trainer_checkpoint_is_refused_as_old(tmp_path, capsys) -> None:
    old = tmp_path / "old.pt"
    torch.save(_old_trainer_state(), old)
    assert main(["--config", str(_tiny_config(tmp_path)), "--resume", str(old)]) == 2
    err = capsys.readouterr().err
    assert str(old) in err and "old format 'got_env-train-1'" in err
    assert "start the run again" in err


def test_a_truncated_trainer_checkpoint_is_refused_as_corrupt(tmp_path, capsys) -> None:
    from experiments.training.config import load_config

    cfg = _tiny_config(tmp_path)
    part = tmp_path / "part.pt"
    torch.save({"format": "got_env-train-2", "config": load_config(cfg).as_dict()}, part)
    assert main(["--config", str(cfg), "--resume", str(part)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {part}: a corrupt trainer checkpoint (KeyError: 'collector')")


def test_the_shipped_checkpoint_is_plain_data() -> None:
    """It loads with weights_only=True as it is (it was not re-saved: same bytes, same
    weights), so the shipped agent plays as before."""
    assert torch.serialization.get_unsafe_globals_in_checkpoint(SHIPPED_CHECKPOINT) == []
    doc = torch.load(SHIPPED_CHECKPOINT, map_location="cpu", weights_only=True)
    network, loaded = load_checkpoint(SHIPPED_CHECKPOINT)
    for k, v in network.state_dict().items():
        assert torch.equal(v, doc["state_dict"][k]), k
    assert loaded["update"] == 500


def test_save_checkpoint_writes_plain_data_only(tmp_path) -> None:
    """A checkpoint that could not be read back with weights_only=True is never written."""
    from agents.ppo import build_network, save_checkpoint

    net = build_network({"kind": "mlp", "hidden": [8]}, game="got")
    with pytest.raises(TypeError, match="plain data"):
        save_checkpoint(tmp_path / "agent.pt", net, game="got", score=np.float64(0.5))
    assert list(tmp_path.iterdir()) == []
    path = save_checkpoint(tmp_path / "agent.pt", net, game="got", score=0.5)
    assert load_checkpoint(path)[1]["score"] == 0.5


# -- the plain-data codec --------------------------------------------------------------------------
def test_the_codec_round_trips_the_trainers_objects_exactly(tmp_path) -> None:
    """Every kind of object a trainer checkpoint holds comes back equal and of the same type,
    through a file that torch.load(weights_only=True) reads."""
    rng = np.random.default_rng(5)
    rng.random(3)
    agent = HeuristicAgent()
    agent._last_kind = DecisionKind(1)
    agent._march = {"key": (1, np.int64(4), 2), "start": np.arange(6, dtype=np.int8).reshape(2, 3),
                    "played": [(("move", 1, 2), True)], "queue": []}
    agent._order_plan = ((2, b"\x00\x01"), {3: ("march", 0, False)})
    state = {"seats": [[Seat("learner"), Seat("snapshot", snapshot=4),
                        Seat("agent", agent=agent), Seat("agent", agent=RandomAgent(seed=2))]],
             "rng": rng, "pending": {7: (np.float32([0.25, 1e-8]), np.int8([1, 0]), 3, -0.5)},
             "scalars": [np.float32(0.1), np.bool_(True), np.int64(-3)],
             "tagged": {"__plain__": "not a tag"},
             "records": [GameRecord("got", {"a": 1}, 3, [1, 2])],
             "tensor": torch.arange(3)}
    codec = PlainCodec((Seat, HeuristicAgent, RandomAgent, GameRecord, DecisionKind))
    path = tmp_path / "state.pt"
    torch.save(codec.encode(state), path)
    assert torch.serialization.get_unsafe_globals_in_checkpoint(path) == []
    back = codec.decode(torch.load(path, weights_only=True))
    got = back["seats"][0][2].agent
    assert type(got) is HeuristicAgent and got._last_kind is DecisionKind(1)
    assert got._march["key"] == (1, 4, 2) and type(got._march["key"][1]) is np.int64
    assert got._march["start"].dtype == np.int8 and got._march["start"].shape == (2, 3)
    assert got._order_plan == agent._order_plan and got.t is agent.t  # tables rebuilt, shared
    assert back["seats"][0][:2] == state["seats"][0][:2]
    assert back["seats"][0][3].agent.rng.random() == RandomAgent(seed=2).rng.random()
    assert back["rng"].random() == rng.random()
    obs, mask, action, logp = back["pending"][7]
    assert obs.dtype == np.float32 and obs.tolist() == [0.25, np.float32(1e-8)]
    assert mask.dtype == np.int8 and (action, logp) == (3, -0.5)
    assert [type(x) for x in back["scalars"]] == [np.float32, np.bool_, np.int64]
    assert back["scalars"] == state["scalars"] and back["tagged"] == state["tagged"]
    assert back["records"] == state["records"] and torch.equal(back["tensor"], state["tensor"])


def test_the_codec_refuses_what_it_was_not_told_about() -> None:
    codec = PlainCodec((Seat,))
    with pytest.raises(TypeError, match="Stream"):
        codec.encode({"x": Stream()})
    with pytest.raises(ValueError, match="os:system"):
        codec.decode({"__plain__": "object", "class": "os:system", "state": None})
    with pytest.raises(ValueError, match="dtype"):
        codec.decode({"__plain__": "ndarray", "dtype": "O", "shape": [1], "data": b"\x00" * 8})
