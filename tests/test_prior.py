"""A network with a prior agent (issue 26, the residual policy): ``network.prior`` names an agent
whose choice at each decision is passed to the network as its own tensor (``prior``: one action
per row, ``NO_PRIOR`` where none chose) and gets ``prior_bonus + log(legal - 1)`` added to its
logit; the network learns where to depart from it. The mask stays the env's 0/1 mask."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from train_helpers import paused_and_resumed

import got_env
from agents import make_agent
from agents.ppo import (
    NO_PRIOR,
    PPOAgent,
    build_network,
    check_network_spec,
    check_prior_choice,
    load_checkpoint,
    prior_logits,
    save_checkpoint,
)
from experiments.training import ppo as ppo_module
from experiments.training.config import parse_config
from experiments.training.ppo import Trainer

NUM_ACTIONS = got_env.raw_env(num_players=3).codec.size


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + np.exp(-x))


@pytest.mark.parametrize("legal", [2, 3, 17, 300])
@pytest.mark.parametrize("bonus", [0.0, 3.0, 4.0])
def test_the_prior_choice_has_probability_sigmoid_bonus_whatever_the_number_of_options(
        legal: int, bonus: float) -> None:
    """With equal network logits the prior's choice is played with probability
    sigmoid(bonus), for 2 legal actions as for 300; the other legal ones share the rest."""
    mask = torch.zeros(1, NUM_ACTIONS, dtype=torch.int8)
    mask[0, :legal] = 1
    prior = torch.tensor([check_prior_choice(mask[0].numpy(), legal - 1)])
    logits = prior_logits(torch.zeros(1, NUM_ACTIONS), mask, prior, bonus)
    probs = torch.softmax(torch.where(mask > 0, logits, torch.full_like(logits, -1e9)), -1)[0]
    assert float(probs[legal - 1]) == pytest.approx(_sigmoid(bonus), abs=1e-5)
    assert float(probs[:legal - 1].sum()) == pytest.approx(1 - _sigmoid(bonus), abs=1e-5)
    assert float(probs[legal:].sum()) == 0.0


def test_a_prior_choosing_an_illegal_action_is_refused() -> None:
    mask = np.zeros(5, dtype=np.int8)
    mask[1] = 1
    assert check_prior_choice(mask, 1) == 1
    with pytest.raises(ValueError, match="action 3, which the mask does not allow"):
        check_prior_choice(mask, 3)


def test_a_prior_choice_changes_nothing_for_a_network_without_a_prior() -> None:
    torch.manual_seed(0)
    net = build_network({"kind": "mlp", "hidden": [8]}, game="got")
    obs = torch.randn(4, net.obs_size)
    mask = torch.zeros(4, NUM_ACTIONS, dtype=torch.int8)
    mask[:, :10] = 1
    chosen = torch.full((4,), 3)
    assert torch.equal(net(obs, mask)[0], net(obs, mask, chosen)[0])
    with_prior = build_network({"kind": "mlp", "hidden": [8], "prior": "heuristic_v2",
                                "prior_bonus": 2.0}, game="got")
    with_prior.load_state_dict(net.state_dict())
    plain, _ = with_prior(obs, mask)
    none, _ = with_prior(obs, mask, torch.full((4,), NO_PRIOR))
    bonus, _ = with_prior(obs, mask, chosen)
    assert torch.equal(plain, net(obs, mask)[0])  # no choice: no bonus
    assert torch.equal(none, plain)
    assert torch.allclose(bonus[:, 3] - plain[:, 3], torch.full((4,), 2.0 + np.log(9.0)))
    others = torch.arange(NUM_ACTIONS) != 3
    assert torch.equal(bonus[:, others], plain[:, others])


@pytest.mark.parametrize("spec, message", [
    ({"kind": "mlp", "prior": 3}, "network.prior: expected an agent spec string"),
    ({"kind": "mlp", "prior": "  "}, "network.prior: expected an agent spec string"),
    ({"kind": "mlp", "prior_bonus": 2.0}, "network.prior_bonus: given without network.prior"),
    ({"kind": "mlp", "prior": "heuristic_v2", "prior_bonus": float("inf")},
     "network.prior_bonus: expected a finite number"),
    ({"kind": "mlp", "prior": "heuristic_v2", "prior_bonus": True},
     "network.prior_bonus: expected a finite number"),
])
def test_bad_prior_specs_name_the_key(spec: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_network_spec(spec)


def _zero_output_residual(path: Path) -> Path:
    """A residual network over heuristic_v2 whose own logits are all zero: greedy, it plays
    v2's choice at every decision."""
    net = build_network({"kind": "mlp", "hidden": [8], "prior": "heuristic_v2",
                         "prior_bonus": 1.0}, game="got")
    torch.nn.init.zeros_(net.policy_head.weight)
    torch.nn.init.zeros_(net.policy_head.bias)
    return save_checkpoint(path, net, game="got")


def _play(seat_agent: object, seed: int) -> list[int]:
    """The actions of a 2-round game with ``seat_agent`` as Stark and heuristic_v2 (seeds 11,
    12) at the other seats."""
    env = got_env.env(num_players=3, max_rounds=2)
    env.reset(seed=seed)
    others = iter([make_agent("heuristic_v2", seed=11), make_agent("heuristic_v2", seed=12)])
    agents = {a: (seat_agent if i == 0 else next(others))
              for i, a in enumerate(env.possible_agents)}
    actions = []
    for name in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        action = None if term or trunc else agents[name].act(obs["observation"],
                                                             obs["action_mask"], info)
        actions.append(action)
        env.step(action)
    return actions


def test_a_zero_output_residual_network_plays_its_priors_game_and_keeps_its_spec(
        tmp_path) -> None:
    """The checkpoint keeps the prior in its spec; PPOAgent builds the prior (seeded from its
    own seed) and, greedy over equal logits, plays exactly the game the prior agent plays in
    its place."""
    path = _zero_output_residual(tmp_path / "residual.pt")
    net, doc = load_checkpoint(path)
    assert doc["network"] == {"kind": "mlp", "hidden": [8], "prior": "heuristic_v2",
                              "prior_bonus": 1.0}
    assert net.prior == "heuristic_v2" and net.prior_bonus == 1.0
    agent = PPOAgent(checkpoint=path, greedy=True, seed=5)
    v2 = make_agent("heuristic_v2", seed=(5 * 7919 + 1) % 2**31)
    assert _play(agent, seed=3) == _play(v2, seed=3)


def _tiny_prior(tmp_path: Path, updates: int = 4) -> dict:
    return {
        "game": "got", "name": "tiny", "out": str(tmp_path), "seed": 3, "updates": updates,
        "env": {"num_players": 3, "max_rounds": 2},
        "network": {"kind": "mlp", "hidden": [16], "prior": "heuristic_v2",
                    "prior_bonus": 2.0},
        "rollout": {"num_games": 3, "steps": 40, "workers": 0},
        "ppo": {"epochs": 2, "minibatch": 32},
        "league": {"weights": {"current": 1, "snapshots": 1, "heuristic_v2": 1},
                   "snapshot_every": 1, "max_snapshots": 2},
        "eval": {"every": 2, "games": 3, "opponents": ["heuristic_v2"], "greedy": True},
        "checkpoint_every": 1, "tensorboard": False, "progress": False,
    }


def test_training_with_a_prior_learns_from_its_choices_and_resumes_exactly(
        tmp_path, monkeypatch) -> None:
    """Every decision the update learns from carries the prior's choice, a legal action, beside
    the env's own 0/1 mask (so the update recomputes the logits it was sampled from: the first
    epoch's ratio starts at 1); a run paused after 2 of 4 updates and resumed (the learner
    seats' heuristic_v2 priors stored with their memory) gives the uninterrupted run's
    network."""
    seen: list[tuple[np.ndarray, np.ndarray]] = []
    update = ppo_module.ppo_update

    def recording(network, optimizer, rollout, *args, **kwargs):
        seen.append((rollout.mask.copy(), rollout.prior.copy()))
        return update(network, optimizer, rollout, *args, **kwargs)

    monkeypatch.setattr(ppo_module, "ppo_update", recording)
    paused_and_resumed(_tiny_prior, tmp_path)
    masks = np.concatenate([m for m, _ in seen])
    prior = np.concatenate([p for _, p in seen])
    assert len(masks) > 0 and len(prior) == len(masks)
    assert set(np.unique(masks)) <= {0, 1}
    assert (prior >= 0).all() and masks[np.arange(len(prior)), prior].all()
    agent = PPOAgent(checkpoint=tmp_path / "a" / "tiny" / "agent.pt", seed=0)
    assert agent.network.prior == "heuristic_v2" and agent.prior is not None


def test_init_kl_without_a_checkpoint_anchors_a_prior_network_to_its_priors_policy(
        tmp_path) -> None:
    """piKL's anchor: with ``network.prior`` and no ``init.checkpoint``, ``init.kl`` takes the
    KL toward the prior's own policy (the network's output zeroed: the prior's choice at
    sigmoid(prior_bonus)); the run logs it. Without a prior the same config is refused."""
    raw = {**_tiny_prior(tmp_path, updates=2), "init": {"kl": 0.5}}
    trainer = Trainer(parse_config(raw))
    reference = trainer.reference
    assert reference is not None and not any(p.requires_grad for p in reference.parameters())
    obs = torch.randn(2, trainer.network.obs_size)
    mask = torch.zeros(2, NUM_ACTIONS, dtype=torch.int8)
    mask[:, :4] = 1
    probs = torch.softmax(reference(obs, mask, torch.tensor([2, 2]))[0], -1)
    assert torch.allclose(probs[:, 2], torch.full((2,), _sigmoid(2.0)), atol=1e-5)
    trainer.run()
    header = (tmp_path / "tiny" / "progress.csv").read_text().splitlines()[0].split(",")
    assert "kl_reference" in header
    plain = {**raw, "network": {"kind": "mlp", "hidden": [16]}}
    with pytest.raises(ValueError, match="init.kl: a KL term needs"):
        parse_config(plain)
