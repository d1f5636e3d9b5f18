"""One PPO update over a rollout: the clipped surrogate objective, a value loss, an entropy
bonus, optionally a KL term toward a reference policy (the imitated one, ``init.kl``), several
epochs of shuffled minibatches, gradients clipped by norm; in a value warm-up only the value
head learns."""

from __future__ import annotations

import numpy as np
import torch

from .config import PPOConfig
from .rollout import Rollout


def ppo_update(network: torch.nn.Module, optimizer: torch.optim.Optimizer, rollout: Rollout,
               cfg: PPOConfig, generator: torch.Generator, *,
               reference: torch.nn.Module | None = None, kl_coef: float = 0.0,
               value_only: bool = False) -> dict[str, float]:
    """Train on the rollout; returns the mean losses and diagnostics of the last epoch.

    ``reference`` and ``kl_coef``: add ``kl_coef * KL(policy || reference)`` over the legal
    actions of each decision (masked actions have probability 0 under both, adding 0).
    ``value_only``: the loss is the value loss alone and only the value head's parameters are
    stepped (their gradients alone are kept)."""
    n = len(rollout.actions)
    if n == 0:
        return {}
    obs = torch.as_tensor(rollout.obs)
    mask = torch.as_tensor(rollout.mask)
    actions = torch.as_tensor(rollout.actions)
    old_logp = torch.as_tensor(rollout.logp)
    returns = torch.as_tensor(rollout.returns)
    adv = torch.as_tensor(rollout.advantages)
    if cfg.normalize_advantages and n > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    network.train()
    value_params = {id(p) for p in network.value_head.parameters()}
    use_kl = reference is not None and kl_coef > 0 and not value_only
    figures: dict[str, list[float]] = {}
    for _ in range(cfg.epochs):
        figures = {"policy_loss": [], "value_loss": [], "entropy": [], "approx_kl": [],
                   "clip_fraction": [], "kl_reference": []}
        order = torch.randperm(n, generator=generator)
        for start in range(0, n, cfg.minibatch):
            idx = order[start:start + cfg.minibatch]
            logits, value = network(obs[idx], mask[idx])
            logp_all = torch.log_softmax(logits, -1)
            logp = logp_all.gather(-1, actions[idx].unsqueeze(-1)).squeeze(-1)
            log_ratio = logp - old_logp[idx]
            ratio = log_ratio.exp()
            a = adv[idx]
            policy_loss = -torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
            value_loss = 0.5 * (value - returns[idx]).pow(2).mean()
            # masked actions have probability exactly 0: they add 0 to the entropy
            entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
            probs = logp_all.exp()
            if reference is not None:
                with torch.no_grad():
                    ref_logits, _ = reference(obs[idx], mask[idx])
                    ref_logp = torch.log_softmax(ref_logits, -1)
                kl_ref = (probs * (logp_all - ref_logp)).sum(-1).mean()
            else:
                kl_ref = torch.zeros(())
            if value_only:
                loss = cfg.value_coef * value_loss
            else:
                loss = policy_loss + cfg.value_coef * value_loss - cfg.entropy * entropy
                if use_kl:
                    loss = loss + kl_coef * kl_ref
            optimizer.zero_grad()
            loss.backward()
            if value_only:  # the trunk and the policy head keep their (imitated) weights
                for p in network.parameters():
                    if id(p) not in value_params:
                        p.grad = None
            torch.nn.utils.clip_grad_norm_(network.parameters(), cfg.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                figures["policy_loss"].append(float(policy_loss))
                figures["value_loss"].append(float(value_loss))
                figures["entropy"].append(float(entropy))
                figures["kl_reference"].append(float(kl_ref))
                figures["approx_kl"].append(float(((ratio - 1) - log_ratio).mean()))
                figures["clip_fraction"].append(float(((ratio - 1).abs() > cfg.clip)
                                                      .float().mean()))
    out = {k: float(np.mean(v)) for k, v in figures.items()
           if k != "kl_reference" or reference is not None}
    var = float(np.var(rollout.returns))
    out["explained_variance"] = (float(1 - np.var(rollout.returns - rollout.values) / var)
                                 if var > 0 else float("nan"))
    return out
